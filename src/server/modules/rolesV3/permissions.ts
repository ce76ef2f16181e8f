// The rules a role's permission tree follows, and the no-escalation rule shared by roles and team
// management: a caller hands out (in a role they write, or a role they assign) only components,
// actions and a user scope they hold themselves.
import type { Grant } from '../../../core/permissions.ts';
import { menuNodes } from '../../../generated/menu.gen.ts';
import { fieldError, type FieldError } from '../../errors/api-error.ts';
import { unionGrants } from '../../auth/grants.ts';
import { SCOPE_RANK, scopeOf, widestScope } from '../../auth/user-scope.ts';
import type { Session } from '../../context.ts';

/** Component id -> the actions its menu node (or subtab) declares. */
const declaredActions = new Map<number, readonly string[]>();
for (const node of menuNodes) {
  if (node.id !== null) declaredActions.set(node.id, node.actions);
  for (const s of node.subtabs) declaredActions.set(s.id, s.actions);
}

const invalid = (field: string, detail: string): FieldError => fieldError(field, '99931', detail);

/**
 * Checks a permission tree against config/menu.yaml: every id a component of the menu, every
 * action one that component declares, no component twice. Answers the problems (empty when
 * valid) and the tree with each action list de-duplicated and in menu order.
 */
export function checkPermissions(permissions: readonly Grant[]): { errors: FieldError[]; grants: Grant[] } {
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  const grants: Grant[] = [];
  permissions.forEach((grant, i) => {
    const declared = declaredActions.get(grant.id);
    if (!declared) return void errors.push(invalid(`permissions.${i}.id`, `unknown component ${grant.id}`));
    if (seen.has(grant.id)) return void errors.push(invalid(`permissions.${i}.id`, `component ${grant.id} listed twice`));
    seen.add(grant.id);
    const bad = grant.actions.filter((a) => !declared.includes(a));
    if (bad.length) return void errors.push(invalid(`permissions.${i}.actions`, `component ${grant.id} has no action ${bad.join(', ')}`));
    if (grant.actions.length) grants.push({ id: grant.id, actions: declared.filter((a) => grant.actions.includes(a)) });
  });
  return { errors, grants: grants.sort((a, b) => a.id - b.id) };
}

/** Every component and action of `wanted` is held by the caller (after disabled pages are dropped). */
export function grantsWithin(wanted: readonly Grant[], held: readonly Grant[]): boolean {
  const holds = new Map(held.map((g) => [g.id, g.actions]));
  return unionGrants([wanted]).every((g) => g.actions.every((a) => holds.get(g.id)?.includes(a)));
}

/**
 * System roles whose power is more than their grants: the company's owner (superadmin) and the
 * provider's staff (platform, develop). Only holders of the listed roles may hand them out, even
 * when the caller's grants cover theirs (a manager's grants equal a superadmin's).
 */
const RESERVED_SYSTEM_ROLES: Readonly<Record<string, readonly string[]>> = {
  superadmin: ['superadmin'],
  platform: ['platform'],
  develop: ['develop', 'platform'],
};

type HandedRole = { permissions: readonly Grant[]; scope: string; name?: string; company_id?: number | null };

/** The caller may hand out roles with these grants and scopes (no escalation). */
export function mayHandOut(me: Session, roles: readonly HandedRole[]): boolean {
  const widest = widestScope(roles.map((r) => r.scope));
  const reservedOk = roles.every((r) => {
    const holders = r.company_id === null && r.name ? RESERVED_SYSTEM_ROLES[r.name] : undefined;
    return !holders || holders.some((h) => me.roles.includes(h));
  });
  return reservedOk && SCOPE_RANK[widest] <= SCOPE_RANK[scopeOf(me)] && roles.every((r) => grantsWithin(r.permissions, me.grants));
}
