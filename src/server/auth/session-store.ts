// Tokens in the database: issue, resolve (with the user, company and role grants) and revoke.
import type { Kysely } from 'kysely';
import { constants } from '../../generated/constants.gen.ts';
import type { Session } from './session.ts';
import type { Database } from '../../engine/database.ts';
import { hashToken, newToken } from '../security/tokens.ts';
import { unionGrants } from './grants.ts';
import { widestScope } from './user-scope.ts';

/** A new session token of the user, valid `ttlMs` (a sign-in's: constants.security.tokenTtlHours). */
export async function issueToken(db: Kysely<Database>, userId: number, now: Date, ttlMs = constants.security.tokenTtlHours * 3600_000): Promise<{ token: string; expiresAt: Date; tokenId: number }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + ttlMs);
  const row = await db.insertInto('tokens').values({ user_id: userId, token_hash: hashToken(token), expires_at: expiresAt, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return { token, expiresAt, tokenId: row.id };
}

export async function rolesOf(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['roles.name', 'roles.permissions', 'roles.scope'])
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.id')
    .execute();
}

/** The session a token stands for, or null when it is unknown, revoked or expired. */
export async function resolveToken(db: Kysely<Database>, token: string, now: Date): Promise<Session | null> {
  if (token.length > 128) return null;
  const row = await db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .select(['tokens.id as tokenId', 'tokens.expires_at', 'users.id as userId', 'users.company_id', 'users.email', 'users.state', 'companies.state as companyState'])
    .where('tokens.token_hash', '=', hashToken(token))
    .where('tokens.revoked_at', 'is', null)
    .where('tokens.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  return sessionOfUser(db, row, { tokenId: row.tokenId, expiresAt: row.expires_at }, true);
}

/** The user behind a credential, as the queries of both kinds of credential select it. */
export interface CallerRow { userId: number; company_id: number; email: string; state: string; companyState: string }

/**
 * The session of a user presenting a credential: their roles' grants, and (when `scoped`) the
 * widest user scope of those roles. An API key is not scoped: its user sees only itself (onlyMe).
 */
export async function sessionOfUser(db: Kysely<Database>, row: CallerRow, credential: { tokenId: number; credentialId?: string; expiresAt: Date }, scoped: boolean): Promise<Session> {
  const roles = await rolesOf(db, row.userId);
  return {
    tokenId: credential.tokenId,
    ...(credential.credentialId ? { credentialId: credential.credentialId } : {}),
    userId: row.userId,
    companyId: row.company_id,
    email: row.email,
    state: row.state,
    companyState: row.companyState,
    roles: roles.map((r) => r.name),
    grants: unionGrants(roles.map((r) => r.permissions)),
    ...(scoped ? { scope: widestScope(roles.map((r) => r.scope)) } : {}),
    expiresAt: credential.expiresAt,
  };
}

export async function revokeToken(db: Kysely<Database>, tokenId: number, now: Date): Promise<void> {
  await db.updateTable('tokens').set({ revoked_at: now }).where('id', '=', tokenId).where('revoked_at', 'is', null).execute();
}

/** After a password change every other session of the user ends (a stolen token stops working). */
export async function revokeUserTokens(db: Kysely<Database>, userId: number, now: Date, exceptTokenId?: number): Promise<void> {
  let q = db.updateTable('tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptTokenId !== undefined) q = q.where('id', '!=', exceptTokenId);
  await q.execute();
}
