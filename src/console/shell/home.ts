// Where a user goes: the state landing (src/core/access.ts), else the permissions' default
// module when the user may see it, else the first menu entry the user sees; an entry without a
// screen of its own (a group) leads to its first working child, never to "not available yet".
import { landingFor } from '../../core/access.ts';
import { firstWorkingPath, visibleMenu, workingPathOf, type Viewer } from '../../core/permissions.ts';
import { isClientPath } from '../api/transport.ts';
import { appSettings } from '../../generated/app.gen.ts';
import { menuNodes } from '../../generated/menu.gen.ts';
import type { SessionUser } from '../../generated/types.gen.ts';

export type MenuNode = (typeof menuNodes)[number];

export function viewerOf(user: SessionUser): Viewer {
  return { roles: user.roles, planType: user.company?.planType ?? null, productKey: appSettings.product.key };
}

const disabled = appSettings.disabledPages as readonly number[];

export function visibleNodes(user: SessionUser): MenuNode[] {
  return visibleMenu(user.permissions.menu, viewerOf(user), disabled);
}

export function canOpenMenuKey(user: SessionUser, key: string): boolean {
  return visibleNodes(user).some((n) => n.key === key);
}

/** Always routable for a signed-in user (no component id): the fallback home. */
export const FALLBACK_HOME = '/Notifications';

export function homeFor(user: SessionUser): string {
  const landing = landingFor(user);
  // The OTP screen is prefilled from ?email= (config/screens/user-validation.yaml).
  if (landing === '/userValidation') return `${landing}?email=${encodeURIComponent(user.email)}`;
  if (landing) return landing;
  const visible = visibleNodes(user);
  const dm = user.permissions.defaultModule;
  if (dm) {
    // A default module that is a group, or not built yet, leads to its first working entry.
    const byDefault = visible.find((n) => n.path === dm || n.key === dm || String(n.id) === dm);
    const path = byDefault ? workingPathOf(byDefault, visible) : null;
    if (path) return path;
  }
  return firstWorkingPath(visible) ?? FALLBACK_HOME;
}

/**
 * Where a sign-in lands: the state landing first; a client credential's sign-in (the client
 * portal) then goes to the first client route without parameters; everyone else to homeFor.
 * The route table is loaded only for a client sign-in: the sign-in page's first load does not carry it.
 */
export async function homeAfterSignIn(user: SessionUser, tokenKind: string | undefined): Promise<string> {
  if (tokenKind !== 'client' || landingFor(user)) return homeFor(user);
  const { routes } = await import('../../generated/routes.gen.ts');
  return routes.find((r) => isClientPath(r.path) && !r.path.includes(':'))?.path ?? homeFor(user);
}

/** Where a menu entry without a screen of its own sends the user: its first working entry, if any. */
export function workingPathFor(user: SessionUser, menuKey: string): string | null {
  const visible = visibleNodes(user);
  const node = visible.find((n) => n.key === menuKey);
  return node && !node.screen ? workingPathOf(node, visible) : null;
}
