// Cost centers of the caller's company (schemas/api/cost-centers.yaml). The code is unique within
// the company, case-insensitively (99930 on `code`); another company's cost center answers 99959.
import { sql, type Kysely } from 'kysely';
import type { CostCenter } from '../../../generated/types.gen.ts';
import type { Database } from '../../../engine/database.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';

const duplicateCode = () => fail('99930', undefined, [fieldError('code', '99930')]);

const COLUMNS = ['id', 'name', 'code', 'created_at'] as const;

const toCostCenter = (r: { id: number; name: string; code: string; created_at: Date }): CostCenter => ({
  id: r.id,
  name: r.name,
  code: r.code,
  createdAt: new Date(r.created_at).toISOString(),
});

async function assertCodeFree(db: Kysely<Database>, companyId: number, code: string, exceptId?: number): Promise<void> {
  let q = db.selectFrom('cost_centers').select('id').where('company_id', '=', companyId).where(sql<string>`lower(code)`, '=', code.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw duplicateCode();
}

export const costCentersHandlers: DomainHandlers<'costCenters'> = {
  'costCenters.list': async (ctx) => {
    const me = caller(ctx);
    let qb = ctx.deps.db.selectFrom('cost_centers').select(COLUMNS).where('company_id', '=', me.companyId);
    if (ctx.query.code) qb = qb.where(sql<string>`lower(code)`, '=', ctx.query.code.toLowerCase());
    return paginate(qb, ctx.query, {
      sortable: { name: 'name', code: 'code', createdAt: 'created_at' },
      defaultSort: { column: 'name', order: 'asc' },
      tieBreaker: 'id',
      search: ['name', 'code'],
      map: toCostCenter,
    });
  },

  'costCenters.get': async (ctx) => {
    const me = caller(ctx);
    const row = await ctx.deps.db.selectFrom('cost_centers').select(COLUMNS).where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).executeTakeFirst();
    if (!row) throw fail('99959');
    return toCostCenter(row);
  },

  'costCenters.create': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const code = ctx.body.code;
    await assertCodeFree(db, me.companyId, code);
    const row = await uniqueOr(
      () => db.insertInto('cost_centers').values({ company_id: me.companyId, name: ctx.body.name.trim(), code }).returning(COLUMNS).executeTakeFirstOrThrow(),
      duplicateCode, // a concurrent request took the code
    );
    return toCostCenter(row);
  },

  'costCenters.update': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const found = await db.selectFrom('cost_centers').select('id').where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).executeTakeFirst();
    if (!found) throw fail('99959');
    await assertCodeFree(db, me.companyId, ctx.body.code, found.id);
    const row = await uniqueOr(
      () => db
        .updateTable('cost_centers')
        .set({ name: ctx.body.name.trim(), code: ctx.body.code })
        .where('id', '=', found.id)
        .where('company_id', '=', me.companyId)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
      duplicateCode,
    );
    return toCostCenter(row);
  },

  'costCenters.delete': async (ctx) => {
    const me = caller(ctx);
    // Team members of the cost center keep working with none (on delete set null).
    const gone = await ctx.deps.db.deleteFrom('cost_centers').where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).returning('id').executeTakeFirst();
    if (!gone) throw fail('99959');
    return { ok: true as const };
  },
};
