// Areas (branch offices) of the caller's company and the company's picture and payment summary
// (schemas/api/account.yaml). `?id=` names an area; without it the picture is the company's.
import type { Area } from '../../../generated/types.gen.ts';
import { fail } from '../../errors/api-error.ts';
import { readPictureUpload, storePicture } from '../../files/pictures.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { fileUrl } from '../../identity/users.ts';

const toArea = (r: { id: number; name: string; picture_file: string | null }): Area =>
  r.picture_file ? { id: r.id, name: r.name, urlPicture: fileUrl(r.picture_file) } : { id: r.id, name: r.name };

export const accountHandlers: DomainHandlers<'account'> = {
  'account.list': async (ctx) => {
    const me = caller(ctx);
    const rows = await ctx.deps.db.selectFrom('areas').select(['id', 'name', 'picture_file']).where('company_id', '=', me.companyId).orderBy('id').execute();
    return rows.map(toArea);
  },

  'account.create': async (ctx) => {
    const me = caller(ctx);
    const row = await ctx.deps.db
      .insertInto('areas')
      .values({ company_id: me.companyId, name: ctx.body.name.trim(), picture_file: null })
      .returning(['id', 'name', 'picture_file'])
      .executeTakeFirstOrThrow();
    return toArea(row);
  },

  'account.getPicture': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const areaId = ctx.query.id;
    if (areaId !== undefined) {
      const area = await db.selectFrom('areas').select('picture_file').where('company_id', '=', me.companyId).where('id', '=', areaId).executeTakeFirst();
      if (!area) throw fail('99959');
      return { url: fileUrl(area.picture_file) };
    }
    const company = await db.selectFrom('companies').select('picture_file').where('id', '=', me.companyId).executeTakeFirstOrThrow();
    return { url: fileUrl(company.picture_file) };
  },

  'account.uploadPicture': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const areaId = ctx.query.id;
    if (areaId !== undefined) {
      const exists = await db.selectFrom('areas').select('id').where('company_id', '=', me.companyId).where('id', '=', areaId).executeTakeFirst();
      if (!exists) throw fail('99959');
    }
    const upload = await readPictureUpload(ctx.request);
    const id = await storePicture(db, me.companyId, upload, async (trx, fileId) => {
      if (areaId !== undefined) {
        const prev = await trx.selectFrom('areas').select('picture_file').where('id', '=', areaId).where('company_id', '=', me.companyId).forUpdate().executeTakeFirst();
        await trx.updateTable('areas').set({ picture_file: fileId }).where('id', '=', areaId).where('company_id', '=', me.companyId).execute();
        return prev?.picture_file ?? null;
      }
      const prev = await trx.selectFrom('companies').select('picture_file').where('id', '=', me.companyId).forUpdate().executeTakeFirst();
      await trx.updateTable('companies').set({ picture_file: fileId }).where('id', '=', me.companyId).execute();
      return prev?.picture_file ?? null;
    });
    return { url: fileUrl(id) };
  },

  // Credits arrive with the payments issue (ledger in integer COP); until then the summary is empty.
  'account.paymentsSummary': async () => ({ balance: 0, purchased: 0, spent: 0, movements: 0 }),
};
