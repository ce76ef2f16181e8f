// Session tokens: 32 random bytes (base64url) given to the client once; only their SHA-256 is
// stored, so a copy of the database cannot be replayed as sessions.
import { createHash, randomBytes } from 'node:crypto';

export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Random ids for stored files: unguessable, URL-safe, matching system.file's id pattern. */
export const newFileId = () => randomBytes(24).toString('base64url');

/** Pulls the token from X-Auth-Token, X-Client-Token (Client routes) or Authorization: Bearer. */
export function tokenFromHeaders(headers: Record<string, string | string[] | undefined>): string | null {
  const pick = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || null;
  const direct = pick(headers['x-auth-token']) ?? pick(headers['x-client-token']);
  if (direct) return direct;
  const auth = pick(headers.authorization);
  const match = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return match ? match[1] : null;
}
