// The key under which sign-in counters remember an e-mail: a digest of its normalised form, so
// the addresses people mistype are never stored.
import { createHash } from 'node:crypto';

export const emailDigest = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
