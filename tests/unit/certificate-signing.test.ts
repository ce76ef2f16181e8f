// The two rules a certificate's verification rests on: canonical JSON (the same value gives the
// same bytes whatever its key order) and Ed25519 as RFC 8032 defines it (its first test vector),
// with the signer derived from the master key stable across boxes of the same key.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.ts';
import { createSecretBox, ed25519Signer, verifyEd25519 } from '../../src/server/security/secrets.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth, keeps array order and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 'ñ' }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":"ñ","z":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson({ 'é': 1, e: 2, E: 3 })).toBe('{"E":3,"e":2,"é":1}');
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  });

  it('refuses numbers JSON cannot write', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
    expect(() => canonicalJson([Infinity])).toThrow();
  });
});

describe('Ed25519', () => {
  // RFC 8032, section 7.1, TEST 1 (the empty message).
  const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
  const publicKey = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex').toString('base64');
  const signature = Buffer.from('e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b', 'hex').toString('base64');

  it('signs and verifies as RFC 8032 says', () => {
    const signer = ed25519Signer(seed);
    expect(signer.publicKey).toBe(publicKey);
    expect(signer.sign('')).toBe(signature);
    expect(verifyEd25519(publicKey, '', signature)).toBe(true);
  });

  it('refuses another message, a changed signature, another key and malformed input', () => {
    expect(verifyEd25519(publicKey, 'x', signature)).toBe(false);
    const flipped = Buffer.from(signature, 'base64');
    flipped[0] ^= 1;
    expect(verifyEd25519(publicKey, '', flipped.toString('base64'))).toBe(false);
    expect(verifyEd25519(ed25519Signer(randomBytes(32)).publicKey, '', signature)).toBe(false);
    expect(verifyEd25519('short', '', signature)).toBe(false);
    expect(verifyEd25519(publicKey, '', 'short')).toBe(false);
  });

  it('derives the same platform key from the same master key, another from another', () => {
    const master = randomBytes(32);
    const a = createSecretBox(master).signer();
    expect(createSecretBox(Buffer.from(master)).signer().publicKey).toBe(a.publicKey);
    expect(createSecretBox(randomBytes(32)).signer().publicKey).not.toBe(a.publicKey);
    expect(verifyEd25519(a.publicKey, 'abc', a.sign('abc'))).toBe(true);
  });
});
