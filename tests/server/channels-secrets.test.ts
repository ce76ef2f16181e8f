// Secrets at rest (src/server/security/secrets.ts): AES-256-GCM bound to its context, the key
// from COLIBRI_SECRET_KEY or generated once into DATA_DIR, never echoed in errors.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox, resolveSecretKey } from '../../src/server/security/secrets.ts';

const box = createSecretBox(randomBytes(32));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('seal and open', () => {
  it('round-trips, with a fresh nonce every time', () => {
    const a = box.seal('EAAG-page-token-ñ', 'channels.page_access_token:7');
    const b = box.seal('EAAG-page-token-ñ', 'channels.page_access_token:7');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('page-token');
    expect(box.open(a, 'channels.page_access_token:7')).toBe('EAAG-page-token-ñ');
  });

  it('does not open in another context (row moved to another company or column)', () => {
    const sealed = box.seal('secret', 'channels.authorization_token:1');
    expect(() => box.open(sealed, 'channels.authorization_token:2')).toThrow();
    expect(() => box.open(sealed, 'channels.client_token:1')).toThrow();
  });

  it('detects tampering and another key', () => {
    const sealed = box.seal('secret', 'ctx');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    expect(() => box.open([...parts.slice(0, 3), body.toString('base64url'), parts[4]].join('.'), 'ctx')).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'ctx')).toThrow(/another key/);
    expect(() => box.open('plain text', 'ctx')).toThrow(/not a sealed secret/);
  });

  it('fingerprints are stable per key and separated by purpose', () => {
    expect(box.fingerprint('t', 'pageAccessToken')).toBe(box.fingerprint('t', 'pageAccessToken'));
    expect(box.fingerprint('t', 'pageAccessToken')).not.toBe(box.fingerprint('t', 'other'));
    expect(createSecretBox(randomBytes(32)).fingerprint('t', 'pageAccessToken')).not.toBe(box.fingerprint('t', 'pageAccessToken'));
  });
});

describe('resolveSecretKey', () => {
  it('takes COLIBRI_SECRET_KEY (base64 of 32 bytes) and never prints it when malformed', () => {
    const key = randomBytes(32);
    expect(resolveSecretKey({ COLIBRI_SECRET_KEY: key.toString('base64') }).equals(key)).toBe(true);
    const bad = randomBytes(16).toString('base64');
    expect(() => resolveSecretKey({ COLIBRI_SECRET_KEY: bad })).toThrow(/COLIBRI_SECRET_KEY must hold the base64 of exactly 32 bytes/);
    try { resolveSecretKey({ COLIBRI_SECRET_KEY: bad }); } catch (e) { expect(String(e)).not.toContain(bad); }
  });

  it('otherwise generates a key once into DATA_DIR (mode 0600) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'colibri-key-'));
    dirs.push(dir);
    const first = resolveSecretKey({ DATA_DIR: join(dir, 'data') });
    const file = join(dir, 'data', 'secret.key');
    expect(first).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    expect(resolveSecretKey({ DATA_DIR: join(dir, 'data') }).equals(first)).toBe(true);
  });
});
