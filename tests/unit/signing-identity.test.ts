// The key that signs certificates: the platform's own, derived from the master key (the same in
// every process), or an operator's from PEM files, refused when the key is not its certificate's.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { identityFromEnv, identityFromPem, selfSignedCertificate, selfSignedIdentity } from '../../src/server/signing/identity.ts';

const issuer = { legalName: 'Mensajes del Valle S.A.S.', nit: '901555666-1' };

async function operatorFiles() {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  const keys = {
    privateKey: await crypto.subtle.importKey('pkcs8', pair.privateKey.export({ format: 'der', type: 'pkcs8' }), algorithm, false, ['sign']),
    publicKey: await crypto.subtle.importKey('spki', pair.publicKey.export({ format: 'der', type: 'spki' }), algorithm, true, ['verify']),
  };
  const certificate = await selfSignedCertificate(keys, issuer, 'documents');
  const certPem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(certificate.toSchema().toBER(false)).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
  return { keyPem: pair.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, certPem };
}

describe('the signing identity', () => {
  it("is derived the same from the same seed, and names the issuer's legal name and NIT", async () => {
    const a = await selfSignedIdentity(Buffer.alloc(32, 1), issuer, 'documents');
    const b = await selfSignedIdentity(Buffer.alloc(32, 1), issuer, 'documents');
    const c = await selfSignedIdentity(Buffer.alloc(32, 2), issuer, 'documents');
    expect(a.keyFingerprint).toBe(b.keyFingerprint);
    expect(c.keyFingerprint).not.toBe(a.keyFingerprint);
    const names = a.chain[0].subject.typesAndValues.map((t) => String(t.value.valueBlock.value));
    expect(names).toEqual(['CO', 'Mensajes del Valle S.A.S.', 'NIT 901555666-1', 'Mensajes del Valle S.A.S. — certificados']);
  });

  it("takes an operator's key and certificate from PEM files, and refuses a key that is not the certificate's", async () => {
    const mine = await operatorFiles();
    const theirs = await operatorFiles();
    const identity = await identityFromPem(mine.keyPem, mine.certPem);
    expect(identity.chain).toHaveLength(1);
    await expect(identityFromPem(theirs.keyPem, mine.certPem)).rejects.toThrow(/not the key of the first certificate/);
    await expect(identityFromPem(mine.keyPem, 'no hay certificado')).rejects.toThrow(/holds no certificate/);
    const dir = mkdtempSync(join(tmpdir(), 'colibri-signing-'));
    writeFileSync(join(dir, 'key.pem'), mine.keyPem);
    writeFileSync(join(dir, 'cert.pem'), mine.certPem);
    expect((await identityFromEnv({ CERTIFICATE_SIGNING_KEY_FILE: join(dir, 'key.pem'), CERTIFICATE_SIGNING_CERT_FILE: join(dir, 'cert.pem') }))?.keyFingerprint).toBe(identity.keyFingerprint);
    await expect(identityFromEnv({ CERTIFICATE_SIGNING_KEY_FILE: join(dir, 'key.pem') })).rejects.toThrow(/set both/);
    expect(await identityFromEnv({})).toBeNull();
  });
});
