// One-time codes: 6 random digits, stored as a keyed SHA-256 (bound to the user and purpose so
// a hash cannot be reused elsewhere) and compared in constant time. The attempt limit is what
// protects a 6-digit space, not the hash.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { constants } from '../../generated/constants.gen.ts';

export type OtpPurpose = 'validation' | 'recovery';

export function newOtpCode(): string {
  const length = constants.security.otpLength;
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

export const hashOtp = (userId: number, purpose: OtpPurpose, code: string) =>
  createHash('sha256').update(`${userId}:${purpose}:${code}`).digest('hex');

export function otpMatches(storedHash: string, userId: number, purpose: OtpPurpose, code: string): boolean {
  const a = Buffer.from(storedHash, 'hex');
  const b = Buffer.from(hashOtp(userId, purpose, code), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
