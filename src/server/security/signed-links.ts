// Links to one file that work without a session for a few minutes (a report file, a certificate's
// PDF): the signature is an HMAC over (purpose, subject, expiry) under a key derived from the
// server's master key, so a link names one thing of one company until it expires and nothing else,
// and it is compared in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { SecretBox } from './secrets.ts';

const signatureOf = (secrets: SecretBox, purpose: string, subject: string, expires: number) => secrets.fingerprint(`${subject}.${expires}`, purpose);

/** The `expires` (Unix seconds) and `signature` query values of a link valid `minutes` from `now`. */
export function signLink(secrets: SecretBox, purpose: string, subject: string, now: Date, minutes: number) {
  const expires = Math.floor(now.getTime() / 1000) + minutes * 60;
  return { expires, signature: signatureOf(secrets, purpose, subject, expires), expiresAt: new Date(expires * 1000).toISOString() };
}

/** Whether a link's `expires` and `signature` were signed for this subject and have not expired. */
export function linkHolds(secrets: SecretBox, purpose: string, subject: string, expires: number | undefined, signature: string | undefined, now: Date): boolean {
  if (expires === undefined || !signature) return false;
  const expected = Buffer.from(signatureOf(secrets, purpose, subject, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) && expires * 1000 >= now.getTime();
}
