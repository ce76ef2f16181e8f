// GET /v1/roles: the roles a company can assign: the system roles (spec 6) and its own.
import { caller, type DomainHandlers } from '../../http/handler.ts';

export const rolesHandlers: DomainHandlers<'roles'> = {
  'roles.list': async (ctx) => {
    const me = caller(ctx);
    const rows = await ctx.deps.db
      .selectFrom('roles')
      .select(['id', 'name', 'read_only', 'permissions', 'scope'])
      .where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', me.companyId)]))
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: r.id, name: r.name, readOnly: r.read_only, permissions: r.permissions as never, scope: r.scope as never }));
  },
};
