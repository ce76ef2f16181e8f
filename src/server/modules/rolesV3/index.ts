// Roles, /v3/roles (schemas/api/roles-v3.yaml, component 6007). The caller sees the system roles
// and their own company's roles; another company's role answers 99959. System roles are
// read-only (99943); names are unique within the company and apart from the system roles' names,
// case-insensitively (99942); a role held by users cannot be deleted (99944).
import { sql, type Kysely } from 'kysely';
import type { RoleDetail } from '../../../generated/types.gen.ts';
import type { Session } from '../../context.ts';
import type { Database } from '../../../engine/database.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, failFields } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { checkPermissions, mayHandOut } from './permissions.ts';

function roleQuery(db: Kysely<Database>, me: Session) {
  return db
    .selectFrom('roles as r')
    .select((eb) => [
      'r.id', 'r.company_id', 'r.name', 'r.permissions', 'r.scope', 'r.read_only', 'r.created_at',
      eb
        .selectFrom('user_roles as ur')
        .innerJoin('users as u', 'u.id', 'ur.user_id')
        .select(sql<string>`count(*)`.as('n'))
        .whereRef('ur.role_id', '=', 'r.id')
        .where('u.company_id', '=', me.companyId)
        .as('users_count'),
    ])
    .where((eb) => eb.or([eb('r.company_id', 'is', null), eb('r.company_id', '=', me.companyId)]));
}

type RoleRow = Awaited<ReturnType<ReturnType<typeof roleQuery>['executeTakeFirstOrThrow']>>;

const toRole = (r: RoleRow): RoleDetail => ({
  id: r.id,
  name: r.name,
  permissions: r.permissions as RoleDetail['permissions'],
  scope: r.scope as RoleDetail['scope'],
  readOnly: r.read_only,
  system: r.company_id === null,
  usersCount: Number(r.users_count ?? 0),
  createdAt: new Date(r.created_at).toISOString(),
});

async function findRole(db: Kysely<Database>, me: Session, id: number): Promise<RoleRow | undefined> {
  return roleQuery(db, me).where('r.id', '=', id).executeTakeFirst();
}

/** The checks shared by create and update; answers the normalised permission tree. */
async function checkRoleBody(db: Kysely<Database>, me: Session, body: { name: string; permissions: { id: number; actions: string[] }[]; scope: string }, exceptId?: number) {
  const { errors, grants } = checkPermissions(body.permissions);
  if (errors.length) throw failFields(errors);
  if (!mayHandOut(me, [{ permissions: grants, scope: body.scope }])) throw fail('99982');
  const name = body.name.trim();
  let clash = db
    .selectFrom('roles')
    .select('id')
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', me.companyId)]));
  if (exceptId !== undefined) clash = clash.where('id', '!=', exceptId);
  if (await clash.executeTakeFirst()) throw fail('99942');
  return { name, grants };
}

export const rolesV3Handlers: DomainHandlers<'rolesV3'> = {
  'rolesV3.list': async (ctx) => {
    const me = caller(ctx);
    const f = ctx.query;
    let qb = roleQuery(ctx.deps.db, me);
    if (f.scope) qb = qb.where('r.scope', '=', f.scope);
    if (f.system !== undefined) qb = qb.where('r.company_id', f.system ? 'is' : 'is not', null);
    return paginate(qb, f, {
      sortable: { name: 'r.name', scope: 'r.scope', createdAt: 'r.created_at' },
      defaultSort: { column: 'r.id', order: 'asc' },
      tieBreaker: 'r.id',
      search: ['r.name'],
      map: toRole,
    });
  },

  'rolesV3.get': async (ctx) => {
    const role = await findRole(ctx.deps.db, caller(ctx), ctx.params.id);
    if (!role) throw fail('99959');
    return toRole(role);
  },

  'rolesV3.create': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const { name, grants } = await checkRoleBody(db, me, ctx.body);
    const { id } = await uniqueOr(
      () => db
        .insertInto('roles')
        .values({ company_id: me.companyId, name, read_only: false, permissions: JSON.stringify(grants), scope: ctx.body.scope })
        .returning('id')
        .executeTakeFirstOrThrow(),
      () => fail('99942'), // a concurrent request took the name
    );
    return toRole((await findRole(db, me, id))!);
  },

  'rolesV3.update': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const role = await findRole(db, me, ctx.body.id);
    if (!role) throw fail('99959');
    if (role.read_only || role.company_id === null) throw fail('99943');
    const { name, grants } = await checkRoleBody(db, me, ctx.body, role.id);
    await uniqueOr(
      () => db
        .updateTable('roles')
        .set({ name, permissions: JSON.stringify(grants), scope: ctx.body.scope })
        .where('id', '=', role.id)
        .where('company_id', '=', me.companyId)
        .execute(),
      () => fail('99942'),
    );
    return toRole((await findRole(db, me, role.id))!);
  },

  'rolesV3.delete': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const role = await findRole(db, me, ctx.params.id);
    if (!role) throw fail('99959');
    if (role.read_only || role.company_id === null) throw fail('99943');
    await db.transaction().execute(async (trx) => {
      // Checked and deleted under the row lock, so a concurrent assignment cannot slip in between.
      await trx.selectFrom('roles').select('id').where('id', '=', role.id).forUpdate().executeTakeFirst();
      const held = await trx.selectFrom('user_roles').select('user_id').where('role_id', '=', role.id).executeTakeFirst();
      if (held) throw fail('99944');
      await trx.deleteFrom('roles').where('id', '=', role.id).where('company_id', '=', me.companyId).execute();
    });
    return { ok: true as const };
  },
};
