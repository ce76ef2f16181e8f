// API keys: "<id>.<secret>", where id is public ("ck_" + 16 random base64url characters) and the
// secret is 32 random bytes (base64url). Only the secret's SHA-256 is stored: a 256-bit random
// secret needs no slow hash, and checking it on every API request must stay cheap.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface IssuedKey { id: string; secret: string; apiKey: string; hash: string; hint: string }

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function issueKey(): IssuedKey {
  const id = `ck_${randomBytes(12).toString('base64url')}`;
  const secret = randomBytes(32).toString('base64url');
  return { id, secret, apiKey: `${id}.${secret}`, hash: hashSecret(secret), hint: secret.slice(-4) };
}

const KEY = /^(ck_[A-Za-z0-9_-]{16,40})\.([A-Za-z0-9_-]{43})$/;

/** The id and secret of an X-Api-Key value, or null when it is not shaped like one of ours. */
export function parseApiKey(value: string): { id: string; secret: string } | null {
  const match = KEY.exec(value.trim());
  return match ? { id: match[1], secret: match[2] } : null;
}

/** Constant-time comparison of the presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
