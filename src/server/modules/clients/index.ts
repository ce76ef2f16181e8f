// Users of the caller's company (schemas/api/clients.yaml). Every read is scoped by company and
// by the caller's user scope (src/server/auth/user-scope.ts): another company's user id, or a
// user outside the scope, answers 99959, exactly like an id that does not exist.
import type { UserNode } from '../../../generated/types.gen.ts';
import { inScope } from '../../auth/user-scope.ts';
import { fail } from '../../errors/api-error.ts';
import { storePicture, readPictureUpload } from '../../files/pictures.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { fileUrl, findScopedUser, roleNamesByUser, toUser } from '../clientAuth/users.ts';
import { patchClient } from './patch.ts';

export const clientsHandlers: DomainHandlers<'clients'> = {
  'clients.get': async (ctx) => {
    const me = caller(ctx);
    const user = await findScopedUser(ctx.deps.db, me, ctx.params.id);
    if (!user) throw fail('99959');
    const roles = await roleNamesByUser(ctx.deps.db, [user.id]);
    return toUser(user, roles.get(user.id) ?? []);
  },

  'clients.patch': patchClient,

  'clients.getProfilePic': async (ctx) => {
    const me = caller(ctx);
    const user = await findScopedUser(ctx.deps.db, me, ctx.params.id);
    if (!user) throw fail('99959');
    return { url: fileUrl(user.profile_pic_file) };
  },

  'clients.uploadProfilePic': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const user = await findScopedUser(db, me, ctx.params.id);
    if (!user) throw fail('99959');
    const upload = await readPictureUpload(ctx.request);
    const id = await storePicture(db, me.companyId, upload, async (trx, fileId) => {
      const previous = await trx.selectFrom('users').select('profile_pic_file').where('id', '=', user.id).forUpdate().executeTakeFirst();
      await trx.updateTable('users').set({ profile_pic_file: fileId }).where('id', '=', user.id).execute();
      return previous?.profile_pic_file ?? null;
    });
    return { url: fileUrl(id) };
  },

  'clients.hierarchy': async (ctx) => {
    const me = caller(ctx);
    const rows = await ctx.deps.db
      .selectFrom('users')
      .select(['id', 'parent_id', 'full_name', 'email'])
      .where('company_id', '=', me.companyId)
      .where(inScope(me, 'users.id'))
      .orderBy('id')
      .execute();
    const root = rows.find((r) => r.id === ctx.params.id);
    if (!root) throw fail('99959');
    const children = new Map<number, typeof rows>();
    for (const r of rows) if (r.parent_id !== null) children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r]);
    const seen = new Set<number>(); // a bad parent loop in the data must not hang the request
    const build = (r: (typeof rows)[number]): UserNode => {
      seen.add(r.id);
      const kids = (children.get(r.id) ?? []).filter((c) => !seen.has(c.id));
      return { id: r.id, fullName: r.full_name, email: r.email, children: kids.map(build) };
    };
    return build(root);
  },

  'clients.usersList': async (ctx) => {
    const me = caller(ctx);
    const rows = await ctx.deps.db.selectFrom('users').selectAll().where('company_id', '=', me.companyId).where('service', '=', false).where(inScope(me, 'users.id')).orderBy('id').execute();
    const roles = await roleNamesByUser(ctx.deps.db, rows.map((r) => r.id));
    return rows.map((r) => toUser(r, roles.get(r.id) ?? []));
  },
};
