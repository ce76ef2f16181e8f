// The access rules of spec 2: session routes need the stored session (Client routes the client
// sign-in); a user is sent where their state says (src/core/access.ts); the full app needs both
// user and company active; a menu route needs the node in the user's menu.
import { useEffect, type ReactNode } from 'react';
import { Redirect, useLocation } from '../runtime/navigation.tsx';
import { allowedWhileRedirected, landingFor } from '../../core/access.ts';
import { isSessionExpired, useSession } from '../api/session.ts';
import { expireSession, isClientPath, sessionWasExpired } from '../api/transport.ts';
import { canOpenMenuKey, homeFor, workingPathFor } from './home.ts';

export type GateMode = 'full' | 'reduced';

export function signinPathFor(pathname: string): string {
  const base = isClientPath(pathname) ? '/clientSignin' : '/signin';
  return sessionWasExpired() ? `${base}?expired=true` : base;
}

function Expire() {
  useEffect(() => expireSession(), []);
  return null;
}

/** Where a request for `pathname` must go instead, or null when it may show. */
export function redirectFor(user: Parameters<typeof homeFor>[0] | null, pathname: string, mode: GateMode): string | null {
  if (!user) return signinPathFor(pathname);
  const landing = landingFor(user);
  if (landing) return allowedWhileRedirected[landing].includes(pathname) ? null : homeFor(user);
  return mode === 'reduced' ? '__home__' : null;
}

export function SessionGate({ mode, children }: { mode: GateMode; children: ReactNode }) {
  const user = useSession();
  const { pathname } = useLocation();
  if (user && isSessionExpired(user)) return <Expire />;
  const to = redirectFor(user, pathname, mode);
  if (to === '__home__') return <Redirect to={homeFor(user!)} />;
  if (to) return <Redirect to={to} />;
  return <>{children}</>;
}

/** A menu route the user's permissions do not include goes to the user's home. */
export function MenuGate({ menuKey, screenless = false, children }: { menuKey: string | null; screenless?: boolean; children: ReactNode }) {
  const user = useSession();
  if (menuKey && user && !landingFor(user) && !canOpenMenuKey(user, menuKey)) return <Redirect to={homeFor(user)} />;
  // A route with no screen of its own (a group's address, /Campaigns) opens its first working entry.
  const working = screenless && menuKey && user && !landingFor(user) ? workingPathFor(user, menuKey) : null;
  if (working) return <Redirect to={working} />;
  return <>{children}</>;
}

/** "/" sends a signed-in user home, anyone else to the sign-in page. */
export function HomeRedirect() {
  const user = useSession();
  return <Redirect to={user ? homeFor(user) : '/signin'} />;
}
