// The signed-in user: the decoded clientToken kept in localStorage, exposed as a small external
// store so React components, guards and the transport read one source.
import { useSyncExternalStore } from 'react';
import { decodeSession, encodeSession } from '../../core/session-codec.ts';
import type { SessionUser } from '../../generated/types.gen.ts';
import { readItem, storageKeys, writeItem } from './storage.ts';

type Listener = () => void;
const listeners = new Set<Listener>();
let cache: { raw: string | null; user: SessionUser | null } = { raw: null, user: null };

function emit() {
  for (const l of [...listeners]) l();
}

export function getSession(): SessionUser | null {
  const raw = readItem(storageKeys.clientToken);
  if (raw !== cache.raw) cache = { raw, user: raw ? decodeSession(raw) : null };
  return cache.user;
}

/** Stores the sign-in answer's clientToken (base64 of the session user) and answers the user. */
export function startSession(clientToken: string): SessionUser | null {
  const user = decodeSession(clientToken);
  if (!user) return null;
  writeItem(storageKeys.clientToken, clientToken);
  emit();
  return user;
}

export function updateSession(patch: Partial<SessionUser>): void {
  const user = getSession();
  if (!user) return;
  writeItem(storageKeys.clientToken, encodeSession({ ...user, ...patch }));
  emit();
}

/** Drops the saved token and branch office and clears the user (the 401 rule, spec 8). */
export function dropSession(): void {
  writeItem(storageKeys.clientToken, null);
  writeItem(storageKeys.area, null);
  emit();
}

/** Tells subscribers that storage changed behind our back (logout clearing everything, tests). */
export function sessionChanged(): void {
  emit();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || e.key === storageKeys.clientToken) emit();
  });
}

export function useSession(): SessionUser | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

export function isSessionExpired(user: SessionUser, now = Date.now()): boolean {
  return !!user.expiresAt && Date.parse(user.expiresAt) <= now;
}
