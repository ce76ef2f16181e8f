// Reading users: by e-mail (case-insensitive, matching the unique index on lower(email)) and by
// id within a company, plus the mapping to the API's `user` entity.
import { sql, type Kysely } from 'kysely';
import { normalizeEmail } from '../../../core/email.ts';
import type { User } from '../../../generated/types.gen.ts';
import { inScope } from '../../auth/user-scope.ts';
import type { Session } from '../../context.ts';
import type { Database, UserRow } from '../../../engine/database.ts';

export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where(sql<string>`lower(email)`, '=', normalizeEmail(email)).executeTakeFirst();
}

export async function findCompanyUser(db: Kysely<Database>, companyId: number, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('company_id', '=', companyId).where('id', '=', userId).executeTakeFirst();
}

/** A user of the caller's company within the caller's user scope (the caller themselves always is). */
export async function findScopedUser(db: Kysely<Database>, me: Session, userId: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('company_id', '=', me.companyId).where('id', '=', userId).where(inScope(me, 'users.id')).executeTakeFirst();
}

/** Role names per user id, for a set of users (one query). */
export async function roleNamesByUser(db: Kysely<Database>, userIds: readonly number[]): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return result;
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'roles.name'])
    .where('user_roles.user_id', 'in', [...userIds])
    .orderBy('roles.id')
    .execute();
  for (const r of rows) result.get(r.user_id)?.push(r.name);
  return result;
}

export const fileUrl = (fileId: string | null) => (fileId ? `/v1/files/${fileId}` : '');

/** The `user` entity: no password, lock or recovery data ever leaves the server. */
export function toUser(row: UserRow, roles: string[]): User {
  const user: User = {
    id: row.id,
    fullName: row.full_name,
    email: row.email,
    state: row.state as User['state'],
    roles,
    otpMethod: row.otp_method as User['otpMethod'],
    parentId: row.parent_id,
    profilePic: fileUrl(row.profile_pic_file),
    createdAt: new Date(row.created_at).toISOString(),
  };
  if (row.phone) user.phone = row.phone;
  if (row.document_type) user.documentType = row.document_type as User['documentType'];
  if (row.document_id) user.documentId = row.document_id;
  if (row.address) user.address = row.address;
  return user;
}
