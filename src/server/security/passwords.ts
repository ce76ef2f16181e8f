// Password hashing: argon2id with OWASP's minimum profile (m=19456 KiB, t=2, p=1). Hashes run
// on libuv's thread pool, so they do not block the event loop. Passwords are never logged.
import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash never signs anyone in
  }
}

// A real hash of a random secret: sign-in for an unknown e-mail verifies against it, so a wrong
// e-mail and a wrong password take the same time (no account enumeration by timing).
let dummy: Promise<string> | null = null;
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummy;
}

/** True when the password matches any of the given hashes (password history). */
export async function matchesAny(hashes: readonly string[], password: string): Promise<boolean> {
  for (const hash of hashes) if (await verifyPassword(hash, password)) return true;
  return false;
}
