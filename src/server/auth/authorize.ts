// The access decision for one operation, from its declaration only (never from request headers):
//   public  -> anyone
//   session -> a valid token, whatever the user's state (signout, own profile while redirected)
//   active  -> a valid token AND user and company both active
//   permission {component, action} -> active, plus can(grants, component, action)
//   permission.node -> also the role/flag chain of that menu node (nodes with no component id of
//                      their own, such as channels under settings 60). The chain names system
//                      roles; a company's own roles are judged by their grants alone.
//   permission.self -> the caller acting on their own record (path param = their id) passes
//                      at the operation's own access level without the permission
import { can, nodeKeyAllows } from '../../core/permissions.ts';
import { appSettings } from '../../generated/app.gen.ts';
import { roles } from '../../generated/enums.gen.ts';
import type { ServerOperation } from '../../generated/server-operations.gen.ts';
import type { Session } from './session.ts';
import { fail } from '../errors/api-error.ts';

/** The system roles: the values of schemas/enums/role.yaml (db/system-roles.ts writes their grants). */
const systemRoles = new Set<string>(roles);

/** The component an operation's permission checks for this request (componentBy: by a query value). */
export function componentFor(permission: { component: number; componentBy?: { query: string; values: Record<string, number> } }, query: unknown): number {
  if (!permission.componentBy) return permission.component;
  const value = (query as Record<string, unknown> | undefined)?.[permission.componentBy.query];
  return (value === undefined || value === null ? undefined : permission.componentBy.values[String(value)]) ?? permission.component;
}

export function authorize(op: ServerOperation, session: Session | null, params: unknown, query?: unknown): void {
  if (op.access === 'public') return;
  if (!session) throw fail('99953');
  const permission = op.permission as { component: number; action: string; self?: string; node?: string; componentBy?: { query: string; values: Record<string, number> } } | null;
  if (permission?.self) {
    const value = (params as Record<string, unknown> | undefined)?.[permission.self];
    if (value !== undefined && Number(value) === session.userId) return;
  }
  if (op.access === 'session' && !permission) return;
  // Acting on others' records, or any active-level operation, needs a fully active account. One
  // who registered and has not yet confirmed their e-mail and phone with the code is told so (99951).
  if (session.state === 'pending') throw fail('99951');
  if (session.state !== 'active' || session.companyState !== 'active') throw fail('99982');
  if (permission && !can(session.grants, componentFor(permission, query), permission.action).can) throw fail('99982');
  if (permission?.node && session.roles.every((r) => systemRoles.has(r)) && !nodeKeyAllows(permission.node, { roles: session.roles, productKey: appSettings.product.key })) {
    throw fail('99982');
  }
}
