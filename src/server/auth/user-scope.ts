// User scope (spec 6: "users can be scoped as all users, only me, or me and dependents"). A role
// carries a scope (roles.scope, enum user-scope); a user with several roles gets the widest. Every
// query that reads or changes other users of the company (team, users, associations, audit log)
// adds inScope(), so a user outside the caller's scope is treated as not existing (99959).
//   all             every user of the caller's company
//   meAndDependents the caller and everyone below them through users.parent_id, at any depth
//   onlyMe          the caller alone
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { UserScope } from '../../generated/types.gen.ts';
import type { Session } from './session.ts';
import type { Database } from '../../engine/database.ts';

export type { UserScope };

/** Narrowest first: a scope's rank says how many users it reaches. */
export const SCOPE_RANK: Record<UserScope, number> = { onlyMe: 0, meAndDependents: 1, all: 2 };

const isScope = (s: string): s is UserScope => s in SCOPE_RANK;

/** The widest of the roles' scopes; no role (or none known) gives onlyMe. */
export function widestScope(scopes: readonly string[]): UserScope {
  let best: UserScope = 'onlyMe';
  for (const s of scopes) if (isScope(s) && SCOPE_RANK[s] > SCOPE_RANK[best]) best = s;
  return best;
}

export const scopeOf = (session: Session): UserScope => session.scope ?? 'onlyMe';

/** The ids of `userId` and everyone below them (same company), as a subquery. */
export function subtreeOf(userId: number, companyId: number) {
  // UNION (not UNION ALL) ends the walk even if bad data ever held a parent loop.
  return sql<number>`(with recursive tree(id) as (
      select ${userId}::integer
      union
      select u.id from users u join tree t on u.parent_id = t.id where u.company_id = ${companyId}::integer
    ) select id from tree)`;
}

/** A condition on a user-id column: the user is within the caller's scope. Company scoping stays the caller's job. */
export function inScope(session: Session, column: string): Expression<SqlBool> {
  switch (scopeOf(session)) {
    case 'all':
      return sql<SqlBool>`true`;
    case 'onlyMe':
      return sql<SqlBool>`${sql.ref(column)} = ${session.userId}::integer`;
    case 'meAndDependents':
      return sql<SqlBool>`${sql.ref(column)} in ${subtreeOf(session.userId, session.companyId)}`;
  }
}

/** Whether one user of the caller's company is within the caller's scope. */
export async function isInScope(db: Kysely<Database>, session: Session, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('company_id', '=', session.companyId)
    .where('id', '=', userId)
    .where(inScope(session, 'users.id'))
    .executeTakeFirst();
  return row !== undefined;
}
