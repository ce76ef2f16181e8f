// Areas (branch offices) of the caller's company and the company's picture and payment summary
// (schemas/api/account.yaml). `?id=` names an area; without it the picture is the company's.
// Another company's area answers 99959, like one that does not exist.
import { sql, type Kysely } from 'kysely';
import { calendarDate, dayStart } from '../../../core/date-range.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { Area } from '../../../generated/types.gen.ts';
import { balanceOf } from '../../../engine/credits.ts';
import type { Database } from '../../../engine/database.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, fieldError } from '../../errors/api-error.ts';
import { readPictureUpload, storePicture } from '../../files/pictures.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { fileUrl } from '../clientAuth/users.ts';

const TIME_ZONE = constants.sendWindow.timeZone;

const toArea = (r: { id: number; name: string; picture_file: string | null }): Area =>
  r.picture_file ? { id: r.id, name: r.name, urlPicture: fileUrl(r.picture_file) } : { id: r.id, name: r.name };

const duplicateName = () => fail('99930', undefined, [fieldError('name', '99930')]);

/** Area names are unique within a company, case-insensitively: 99930 on `name`. */
async function assertNameFree(db: Kysely<Database>, companyId: number, name: string, exceptId?: number): Promise<void> {
  let q = db.selectFrom('areas').select('id').where('company_id', '=', companyId).where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw duplicateName();
}

export const accountHandlers: DomainHandlers<'account'> = {
  'account.list': async (ctx) => {
    const me = caller(ctx);
    const rows = await ctx.deps.db.selectFrom('areas').select(['id', 'name', 'picture_file']).where('company_id', '=', me.companyId).orderBy('id').execute();
    return rows.map(toArea);
  },

  'account.create': async (ctx) => {
    const me = caller(ctx);
    const name = ctx.body.name.trim();
    await assertNameFree(ctx.deps.db, me.companyId, name);
    const row = await uniqueOr(
      () => ctx.deps.db.insertInto('areas').values({ company_id: me.companyId, name, picture_file: null }).returning(['id', 'name', 'picture_file']).executeTakeFirstOrThrow(),
      duplicateName, // a concurrent request took the name
    );
    return toArea(row);
  },

  'account.page': async (ctx) => {
    const me = caller(ctx);
    const qb = ctx.deps.db.selectFrom('areas').select(['id', 'name', 'picture_file', 'created_at']).where('company_id', '=', me.companyId);
    return paginate(qb, ctx.query, {
      sortable: { name: 'name', createdAt: 'created_at' },
      defaultSort: { column: 'id', order: 'asc' },
      tieBreaker: 'id',
      search: ['name'],
      map: toArea,
    });
  },

  'account.update': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const area = await db.selectFrom('areas').select('id').where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).executeTakeFirst();
    if (!area) throw fail('99959');
    const name = ctx.body.name.trim();
    await assertNameFree(db, me.companyId, name, area.id);
    const row = await uniqueOr(
      () => db.updateTable('areas').set({ name }).where('id', '=', area.id).where('company_id', '=', me.companyId).returning(['id', 'name', 'picture_file']).executeTakeFirstOrThrow(),
      duplicateName,
    );
    return toArea(row);
  },

  'account.delete': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    // Team members of the area keep working with none (users.area_id: on delete set null).
    const gone = await db.deleteFrom('areas').where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).returning('picture_file').executeTakeFirst();
    if (!gone) throw fail('99959');
    if (gone.picture_file) await db.deleteFrom('files').where('id', '=', gone.picture_file).where('company_id', '=', me.companyId).execute();
    return { ok: true as const };
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

  // The balance and what is held come from the one owner of credits (engine/credits.ts); what was
  // added and spent are sums over the company's ledger.
  'account.paymentsSummary': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const { balance, reserved } = await balanceOf(db, me.companyId);
    const monthStart = dayStart(`${calendarDate(ctx.deps.now(), TIME_ZONE).slice(0, 7)}-01`, TIME_ZONE);
    const sums = await db
      .selectFrom('credit_ledger')
      .select([
        sql<string>`coalesce(sum(amount) filter (where kind in ('purchase', 'grant', 'adjust')), 0)`.as('purchased'),
        sql<string>`coalesce(sum(amount) filter (where kind = 'consume'), 0)`.as('spent'),
        sql<string>`coalesce(sum(amount) filter (where kind in ('purchase', 'grant', 'adjust') and created_at >= ${monthStart}), 0)`.as('purchasedThisMonth'),
        sql<string>`coalesce(sum(amount) filter (where kind = 'consume' and created_at >= ${monthStart}), 0)`.as('spentThisMonth'),
        sql<string>`count(*)`.as('movements'),
      ])
      .where('company_id', '=', me.companyId)
      .executeTakeFirstOrThrow();
    const promo = await db.selectFrom('promo_credits').select(sql<string>`coalesce(sum(remaining), 0)`.as('left'))
      .where('company_id', '=', me.companyId).where('remaining', '>', 0).where('expires_at', '>', ctx.deps.now()).executeTakeFirstOrThrow();
    return {
      balance, reserved, purchased: Number(sums.purchased), spent: Number(sums.spent),
      purchasedThisMonth: Number(sums.purchasedThisMonth), spentThisMonth: Number(sums.spentThisMonth), promotional: Number(promo.left), movements: Number(sums.movements),
    };
  },
};
