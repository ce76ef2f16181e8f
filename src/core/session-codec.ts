// The session payload travels as base64 of UTF-8 JSON (spec 7: "a base64 payload ... kept
// locally as clientToken"). Works the same in the browser and in Node (btoa/atob + TextEncoder).
import type { SessionUser } from '../generated/types.gen.ts';

export function encodeSession(user: SessionUser): string {
  const bytes = new TextEncoder().encode(JSON.stringify(user));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function decodeSession(token: string): SessionUser | null {
  try {
    const binary = atob(token);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const value = JSON.parse(new TextDecoder().decode(bytes)) as SessionUser;
    return value && typeof value === 'object' && typeof value.token === 'string' ? value : null;
  } catch {
    return null;
  }
}
