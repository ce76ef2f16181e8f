// Team management (schemas/api/team.yaml, component 6002): team members are the users of the
// caller's company, seen through the caller's user scope. A member outside the company or the
// scope answers 99959. Every check runs before any write, so a refused request changes nothing.
import { randomBytes } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import { normalizeEmail } from '../../../core/email.ts';
import { normalizeColombianPhone } from '../../../core/phone.ts';
import type { Session } from '../../context.ts';
import type { Database, UsersTable } from '../../../engine/database.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { issueOtp } from '../clientAuth/otp-service.ts';
import { hashPassword } from '../../security/passwords.ts';
import { mayHandOut } from '../rolesV3/permissions.ts';
import { findMember, memberQuery, rolesByUser, toMember } from './members.ts';
import { checkLinks, checkUnique } from './references.ts';

const SORTABLE = { name: 'u.full_name', email: 'u.email', state: 'u.state', documentId: 'u.document_id', createdAt: 'u.created_at' };

export const teamHandlers: DomainHandlers<'team'> = {
  'team.list': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const f = ctx.query;
    let qb = memberQuery(db, me);
    if (f.state) qb = qb.where('u.state', '=', f.state);
    if (f.areaId) qb = qb.where('u.area_id', '=', f.areaId);
    if (f.costCenterId) qb = qb.where('u.cost_center_id', '=', f.costCenterId);
    if (f.parentId) qb = qb.where('u.parent_id', '=', f.parentId);
    if (f.roleId) {
      const roleId = f.roleId;
      qb = qb.where(({ exists, selectFrom }) => exists(selectFrom('user_roles as ur').select('ur.user_id').whereRef('ur.user_id', '=', 'u.id').where('ur.role_id', '=', roleId)));
    }
    const page = await paginate(qb, f, {
      sortable: SORTABLE,
      defaultSort: { column: 'u.id', order: 'asc' },
      tieBreaker: 'u.id',
      // Trigram indexes on these four columns (migration 0204) find a `q` of 3+ characters.
      search: ['u.full_name', 'u.email', 'u.document_id', 'u.phone'],
      map: (row) => row,
      // The area, cost center and responsible names are joined for the page's 50 rows only.
      narrow: true,
    });
    const roles = await rolesByUser(db, page.items.map((r) => r.id));
    return { ...page, items: page.items.map((r) => toMember(r, roles.get(r.id) ?? [])) };
  },

  'team.get': async (ctx) => {
    const member = await findMember(ctx.deps.db, caller(ctx), ctx.params.id);
    if (!member) throw fail('99959');
    return member;
  },

  'team.create': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const body = ctx.body;
    const parentId = body.parentId === undefined ? me.userId : body.parentId;
    await checkLinks(db, me, { roleIds: body.roleIds, areaId: body.areaId, costCenterId: body.costCenterId, parentId });
    const email = normalizeEmail(body.email);
    const phone = normalizeColombianPhone(body.phone);
    if (!phone) throw fail('99931'); // the schema's phone-co format makes this unreachable
    await checkUnique(db, { email, phone });

    // Nobody knows this password: the member sets theirs with the e-mailed code.
    const hash = await hashPassword(randomBytes(32).toString('base64url'));
    const now = ctx.deps.now();
    // A concurrent request that took the e-mail meanwhile is caught by the unique index.
    const user = await uniqueOr(() => db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('users')
        .values({
          company_id: me.companyId,
          parent_id: parentId,
          full_name: body.name.trim(),
          email,
          phone,
          document_type: body.documentType,
          document_id: body.documentId,
          address: body.address.trim(),
          state: 'needsNewPassword',
          otp_method: body.otpMethod,
          password_hash: hash,
          password_changed_at: now,
          locked_until: null,
          profile_pic_file: null,
          area_id: body.areaId ?? null,
          cost_center_id: body.costCenterId ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx.insertInto('user_roles').values(body.roleIds.map((role_id) => ({ user_id: created.id, role_id }))).execute();
      return created;
    }), () => fail('99989'));
    await issueOtp(ctx.deps, user, 'recovery', 'email', 'invitation');
    return answerMember(db, me, user.id);
  },

  'team.update': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const target = await findMember(db, me, ctx.params.id);
    if (!target) throw fail('99959');
    const body = ctx.body;
    await assertManageable(db, me, target.roleIds);
    await checkLinks(db, me, { roleIds: body.roleIds, areaId: body.areaId, costCenterId: body.costCenterId, parentId: body.parentId }, target.id);
    const phone = body.phone === undefined ? undefined : normalizeColombianPhone(body.phone);
    if (phone === null) throw fail('99931');
    const email = body.email === undefined ? undefined : normalizeEmail(body.email);
    await checkUnique(db, { email, phone }, target.id);

    const update: Updateable<UsersTable> = {};
    if (body.name !== undefined) update.full_name = body.name.trim();
    if (email !== undefined) update.email = email;
    if (phone !== undefined) update.phone = phone;
    if (body.documentType !== undefined) update.document_type = body.documentType;
    if (body.documentId !== undefined) update.document_id = body.documentId;
    if (body.address !== undefined) update.address = body.address.trim();
    if (body.otpMethod !== undefined) update.otp_method = body.otpMethod;
    if (body.areaId !== undefined) update.area_id = body.areaId;
    if (body.costCenterId !== undefined) update.cost_center_id = body.costCenterId;
    if (body.parentId !== undefined) update.parent_id = body.parentId;
    await uniqueOr(() => db.transaction().execute(async (trx) => {
      if (Object.keys(update).length) await trx.updateTable('users').set(update).where('id', '=', target.id).where('company_id', '=', me.companyId).execute();
      if (body.roleIds) {
        await trx.deleteFrom('user_roles').where('user_id', '=', target.id).execute();
        await trx.insertInto('user_roles').values(body.roleIds.map((role_id) => ({ user_id: target.id, role_id }))).execute();
      }
    }), () => fail('99989'));
    return answerMember(db, me, target.id);
  },

  'team.delete': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    if (ctx.params.id === me.userId) throw fail('99928');
    const target = await findMember(db, me, ctx.params.id);
    if (!target) throw fail('99959');
    await assertManageable(db, me, target.roleIds);
    // A record the database still ties to them (a reference this transaction did not move, such as
    // a report written meanwhile) makes it refuse the delete: answered 99981, nothing deleted.
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('users').select(['parent_id', 'profile_pic_file']).where('id', '=', target.id).forUpdate().executeTakeFirstOrThrow();
      // Their reports move up to their own responsible, so the hierarchy stays connected.
      await trx.updateTable('users').set({ parent_id: row.parent_id }).where('parent_id', '=', target.id).where('company_id', '=', me.companyId).execute();
      // Tokens, codes, password history, roles, notifications and associations go with the user
      // (on delete cascade); the audit log keeps the e-mail it recorded.
      await trx.deleteFrom('tokens').where('user_id', '=', target.id).execute();
      await trx.deleteFrom('users').where('id', '=', target.id).where('company_id', '=', me.companyId).execute();
      if (row.profile_pic_file) await trx.deleteFrom('files').where('id', '=', row.profile_pic_file).where('company_id', '=', me.companyId).execute();
    }).catch((error: unknown) => {
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) throw fail('99981', 'another record still refers to this member');
      throw error;
    });
    return { ok: true as const };
  },
};

/** SQLSTATE foreign_key_violation. */
const FOREIGN_KEY_VIOLATION = '23503';

/** A caller edits or deletes only members whose roles they could hand out themselves. */
async function assertManageable(db: Kysely<Database>, me: Session, roleIds: readonly number[]): Promise<void> {
  if (roleIds.length === 0) return;
  const roles = await db.selectFrom('roles').select(['permissions', 'scope', 'name', 'company_id']).where('id', 'in', [...roleIds]).execute();
  if (!mayHandOut(me, roles)) throw fail('99982');
}

/**
 * The member just written, read within the company only: a member the caller placed outside
 * their own scope (an onlyMe caller's new report, a new responsible) is still answered once.
 */
async function answerMember(db: Kysely<Database>, me: Session, id: number) {
  const row = await memberQuery(db, { ...me, scope: 'all' }).where('u.id', '=', id).executeTakeFirstOrThrow();
  return toMember(row, (await rolesByUser(db, [id])).get(id) ?? []);
}
