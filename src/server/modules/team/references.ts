// The checks a team member's writable links go through before anything is written:
//  - roleIds: system roles or the caller's company's roles (else 99931 on roleIds), and no
//    escalation: each role's grants and scope within the caller's (else 99982);
//  - areaId, costCenterId: the caller's company's (else 99931 on the field);
//  - parentId: a user of the company within the caller's scope and, when editing, neither the
//    member nor anyone below them (no loops) (else 99931 on parentId);
//  - email unique case-insensitively (99989), phone unique (99988), across all companies, as at
//    registration.
import { sql, type Kysely } from 'kysely';
import { normalizeEmail } from '../../../core/email.ts';
import { isInScope, subtreeOf } from '../../auth/user-scope.ts';
import type { Session } from '../../context.ts';
import type { Database } from '../../../engine/database.ts';
import { fail, failFields, fieldError, type FieldError } from '../../errors/api-error.ts';
import { mayHandOut } from '../rolesV3/permissions.ts';

export interface MemberLinks {
  roleIds?: number[];
  areaId?: number | null;
  costCenterId?: number | null;
  parentId?: number | null;
}

/** Throws 99931 (with the fields) or 99982; returns when every link is acceptable. */
export async function checkLinks(db: Kysely<Database>, me: Session, links: MemberLinks, memberId?: number): Promise<void> {
  const errors: FieldError[] = [];
  let roles: { permissions: { id: number; actions: string[] }[]; scope: string; name: string; company_id: number | null }[] = [];
  if (links.roleIds) {
    roles = await db
      .selectFrom('roles')
      .select(['id', 'permissions', 'scope', 'name', 'company_id'])
      .where('id', 'in', links.roleIds)
      .where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', me.companyId)]))
      .execute();
    if (roles.length !== links.roleIds.length) errors.push(fieldError('roleIds'));
  }
  if (links.areaId != null) {
    const area = await db.selectFrom('areas').select('id').where('id', '=', links.areaId).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!area) errors.push(fieldError('areaId'));
  }
  if (links.costCenterId != null) {
    const center = await db.selectFrom('cost_centers').select('id').where('id', '=', links.costCenterId).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!center) errors.push(fieldError('costCenterId'));
  }
  if (links.parentId != null) {
    let ok = await isInScope(db, me, links.parentId);
    if (ok && memberId !== undefined) {
      const below = await db
        .selectFrom(sql<{ id: number }>`${subtreeOf(memberId, me.companyId)}`.as('t'))
        .select('t.id')
        .where('t.id', '=', links.parentId)
        .executeTakeFirst();
      ok = !below;
    }
    if (!ok) errors.push(fieldError('parentId'));
  }
  if (errors.length) throw failFields(errors);
  if (!mayHandOut(me, roles)) throw fail('99982');
}

/** 99989 / 99988 when another user already has the e-mail or the phone. */
export async function checkUnique(db: Kysely<Database>, values: { email?: string; phone?: string | null }, exceptUserId?: number): Promise<void> {
  if (values.email !== undefined) {
    let q = db.selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', normalizeEmail(values.email));
    if (exceptUserId !== undefined) q = q.where('id', '!=', exceptUserId);
    if (await q.executeTakeFirst()) throw fail('99989');
  }
  if (values.phone) {
    let q = db.selectFrom('users').select('id').where('phone', '=', values.phone);
    if (exceptUserId !== undefined) q = q.where('id', '!=', exceptUserId);
    if (await q.executeTakeFirst()) throw fail('99988');
  }
}
