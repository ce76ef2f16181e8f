// A person's saved lists of numbers and ranges (schemas/api/number-lists.yaml): read with
// core/number-ranges.ts, kept as written and expanded, scoped to the caller (user and company).
import { expandRanges } from '../../../core/number-ranges.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { NumberList } from '../../../generated/types.gen.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';

const REASONS = {
  invalidNumber: 'is not a Colombian number nor a range of them',
  reversedRange: 'is a range written backwards (first number after the last)',
  mixedRange: 'mixes a mobile and a fixed line',
  tooMany: `takes the list past ${constants.uploads.pastedNumbersMax} numbers`,
} as const;

const toList = (r: { id: number; name: string; ranges: string; count: number; numbers: string; created_at: Date }): NumberList => ({
  id: r.id, name: r.name, ranges: r.ranges, count: r.count, numbers: r.numbers, createdAt: new Date(r.created_at).toISOString(),
});

export const numberListsHandlers: DomainHandlers<'numberLists'> = {
  'numberLists.list': async (ctx) => {
    const me = caller(ctx);
    const base = ctx.deps.db.selectFrom('number_lists').selectAll().where('user_id', '=', me.userId).where('company_id', '=', me.companyId);
    return paginate(base, ctx.query, {
      sortable: { name: 'name', createdAt: 'created_at' },
      defaultSort: { column: 'name', order: 'asc' },
      tieBreaker: 'id',
      search: ['name'],
      map: toList,
    });
  },

  'numberLists.create': async (ctx) => {
    const me = caller(ctx);
    const db = ctx.deps.db;
    const name = ctx.body.name.trim();
    if (!name) throw failFields([fieldError('name', '99999')]);
    const { numbers, problems } = expandRanges(ctx.body.ranges, constants.uploads.pastedNumbersMax);
    if (problems.length) throw failFields(problems.slice(0, 20).map((p) => fieldError('ranges', '99931', `"${p.entry.slice(0, 60)}" ${REASONS[p.reason]}`)));
    if (!numbers.length) throw failFields([fieldError('ranges', '99999')]);
    const kept = await db.selectFrom('number_lists').select((eb) => eb.fn.countAll<string | number>().as('n')).where('user_id', '=', me.userId).executeTakeFirstOrThrow();
    if (Number(kept.n) >= constants.limits.savedRangeLists) throw failFields([fieldError('name', '99931', `a person keeps at most ${constants.limits.savedRangeLists} lists: delete one first`)]);
    const row = await uniqueOr(() => db.insertInto('number_lists').values({
      company_id: me.companyId, user_id: me.userId, name, ranges: ctx.body.ranges.trim(), numbers: numbers.join('\n'), count: numbers.length, created_at: ctx.deps.now(),
    }).returningAll().executeTakeFirstOrThrow(), () => failFields([fieldError('name', '99931', 'you have a list with that name')]));
    return toList(row);
  },

  'numberLists.delete': async (ctx) => {
    const me = caller(ctx);
    const gone = await ctx.deps.db.deleteFrom('number_lists').where('id', '=', ctx.params.id).where('user_id', '=', me.userId).where('company_id', '=', me.companyId).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw fail('99959');
    return { ok: true as const };
  },
};
