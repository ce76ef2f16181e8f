// Reading team members: one query shape (user + area, cost center and responsible names), always
// scoped to the caller's company and user scope, and the mapping to the `team-member` entity.
import type { Kysely } from 'kysely';
import type { TeamMember } from '../../../generated/types.gen.ts';
import { inScope } from '../../auth/user-scope.ts';
import type { Session } from '../../context.ts';
import type { Database } from '../../../engine/database.ts';
import { fileUrl } from '../clientAuth/users.ts';

export function memberQuery(db: Kysely<Database>, me: Session) {
  return db
    .selectFrom('users as u')
    .leftJoin('areas as a', 'a.id', 'u.area_id')
    .leftJoin('cost_centers as c', 'c.id', 'u.cost_center_id')
    .leftJoin('users as p', 'p.id', 'u.parent_id')
    .select([
      'u.id', 'u.full_name', 'u.email', 'u.document_type', 'u.document_id', 'u.phone', 'u.address', 'u.state',
      'u.otp_method', 'u.area_id', 'a.name as area_name', 'u.cost_center_id', 'c.name as cost_center_name',
      'u.parent_id', 'p.full_name as parent_name', 'u.profile_pic_file', 'u.created_at',
    ])
    .where('u.company_id', '=', me.companyId)
    // The API user (a service account an API key acts as) is nobody on the team.
    .where('u.service', '=', false)
    .where(inScope(me, 'u.id'));
}

export type MemberRow = Awaited<ReturnType<ReturnType<typeof memberQuery>['executeTakeFirstOrThrow']>>;

export interface RoleRef { id: number; name: string }

/** The roles of each user (one query), in role id order. */
export async function rolesByUser(db: Kysely<Database>, userIds: readonly number[]): Promise<Map<number, RoleRef[]>> {
  const out = new Map<number, RoleRef[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'roles.id', 'roles.name'])
    .where('user_roles.user_id', 'in', [...userIds])
    .orderBy('roles.id')
    .execute();
  for (const r of rows) out.get(r.user_id)?.push({ id: r.id, name: r.name });
  return out;
}

export function toMember(row: MemberRow, roles: readonly RoleRef[]): TeamMember {
  const member: TeamMember = {
    id: row.id,
    name: row.full_name,
    email: row.email,
    state: row.state as TeamMember['state'],
    roleIds: roles.map((r) => r.id),
    roles: roles.map((r) => r.name),
    otpMethod: row.otp_method as TeamMember['otpMethod'],
    areaId: row.area_id,
    areaName: row.area_name,
    costCenterId: row.cost_center_id,
    costCenterName: row.cost_center_name,
    parentId: row.parent_id,
    parentName: row.parent_name,
    profilePic: fileUrl(row.profile_pic_file),
    createdAt: new Date(row.created_at).toISOString(),
  };
  if (row.document_type) member.documentType = row.document_type as TeamMember['documentType'];
  if (row.document_id) member.documentId = row.document_id;
  if (row.phone) member.phone = row.phone;
  if (row.address) member.address = row.address;
  return member;
}

/** One member within the caller's company and scope, or undefined (the caller answers 99959). */
export async function findMember(db: Kysely<Database>, me: Session, id: number): Promise<TeamMember | undefined> {
  const row = await memberQuery(db, me).where('u.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return toMember(row, (await rolesByUser(db, [id])).get(id) ?? []);
}
