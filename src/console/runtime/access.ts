// What the signed-in user may do on a screen: the operation's declared permission (component +
// action, from the light operation table) answered by can() over the session's grants — the same
// rule the server enforces (src/core/permissions.ts). The console only hides what the server
// would refuse; the server still decides every request.
import { useCallback } from 'react';
import { can } from '../../core/permissions.ts';
import type { SessionUser } from '../../generated/types.gen.ts';
import { operationById } from '../api/transport.ts';
import { useSession } from '../api/session.ts';
import type { Permission, ScreenAction } from './screen-types.ts';

/** The permission an action needs: its own, else its operation's, else none (open). */
export function permissionOf(action: { operation?: string; permission?: Permission }): Permission | null {
  if (action.permission) return action.permission;
  if (!action.operation) return null;
  return (operationById(action.operation)?.permission as Permission | null | undefined) ?? null;
}

export function allows(user: SessionUser | null, permission: Permission | null): boolean {
  if (!permission) return true;
  if (!user) return false;
  // A call serving several components by a query value (componentBy): offered when any of them
  // allows it; the server checks the one the request's value names.
  const by = (permission as { componentBy?: { values: Record<string, number> } }).componentBy;
  const components = [permission.component, ...Object.values(by?.values ?? {})];
  return components.some((component) => can(user.permissions.menu, component, permission.action).can);
}

/** A stable `(action) => boolean` for the current session. */
export function useCan(): (action: { operation?: string; permission?: Permission } | null | undefined) => boolean {
  const user = useSession();
  return useCallback((action) => (action ? allows(user, permissionOf(action)) : false), [user]);
}

/** Row and bulk actions the user may use (hidden, not disabled, when can() says no). */
export function allowedActions(actions: readonly ScreenAction[] | undefined, check: (a: ScreenAction) => boolean): ScreenAction[] {
  return (actions ?? []).filter(check);
}
