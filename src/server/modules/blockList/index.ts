// Block list (schemas/api/block-list.yaml, component 6005): typed numbers, file uploads, removal,
// and the paged list with pending versus effective entries. Changes take effect after
// constants.blockList.applyAfterHours (src/core/block-list.ts).
import { sql, type Selectable } from 'kysely';
import { blockStatus, effectiveAfter, hasBlockStatusSql, listedSql, sqlInstant } from '../../../core/block-list.ts';
import { judgePhones, parsePhoneList, type PhoneListResult } from '../../../core/phone-list.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { BlockListEntry, BlockListResult, BlockListSource } from '../../../generated/types.gen.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { blockNumbers } from '../../../engine/block-list-writer.ts';
import type { BlockListTable } from '../../../engine/database.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { readNumberColumn } from './upload.ts';

const REJECTED_SHOWN = 100;

const toEntry = (now: Date) => (r: Selectable<BlockListTable>): BlockListEntry => {
  const { status, pending } = blockStatus({ effectiveAt: r.effective_at, removalEffectiveAt: r.removal_effective_at }, now);
  return {
    id: r.id,
    phone: r.phone,
    status: status === 'effective' ? 'effective' : 'pending',
    pendingAction: pending,
    source: r.source as BlockListEntry['source'],
    createdAt: r.created_at.toISOString(),
    effectiveAt: r.effective_at.toISOString(),
    removalRequestedAt: r.removal_requested_at?.toISOString() ?? null,
    removalEffectiveAt: r.removal_effective_at?.toISOString() ?? null,
  };
};

/**
 * Stores the valid numbers and answers what happened. With no valid number at all nothing is
 * written: 99960 when nothing was entered, 99963 otherwise (the refused values in `errors`).
 */
async function addJudged(deps: ServerDeps, me: Session, judged: PhoneListResult, source: BlockListSource, field: string): Promise<BlockListResult> {
  if (judged.valid.length === 0) {
    if (judged.rejected.every((r) => r.reason === 'emptyPhone')) throw failFields([fieldError(field, '99960')]);
    throw failFields(judged.rejected.slice(0, 20).map((r) => fieldError(field, '99963', `${r.position}: ${r.value}`)));
  }
  const { added, effectiveAt } = await blockNumbers(deps.db, { companyId: me.companyId, userId: me.userId, phones: judged.valid.map((v) => v.phone), source, now: deps.now() });
  const rejected = [
    ...judged.rejected,
    ...judged.valid.filter((v) => !added.has(v.phone)).map((v) => ({ position: v.position, value: v.phone, reason: 'alreadyListed' as const })),
  ].sort((a, b) => a.position - b.position);
  return { added: added.size, effectiveAt: effectiveAt.toISOString(), rejectedTotal: rejected.length, rejected: rejected.slice(0, REJECTED_SHOWN) };
}

/**
 * q as the first digits of a number: "300 12", "+57 300", "57300" all mean +57300…. A national
 * number starts with 3 or 6, so a leading 57 is always the country code.
 */
function phonePrefix(q: string): string | null {
  const digits = q.replace(/\D/g, '');
  if (digits === '') return null;
  return `+57${digits.startsWith('57') ? digits.slice(2) : digits}`;
}

export const blockListHandlers: DomainHandlers<'blockList'> = {
  'blockList.list': async (ctx) => {
    const me = caller(ctx);
    const now = ctx.deps.now();
    // Entries whose removal took effect are gone from the list.
    let base = ctx.deps.db
      .selectFrom('block_list')
      .selectAll()
      .where('company_id', '=', me.companyId)
      .where(sql<boolean>`${sql.raw(listedSql('block_list', sqlInstant(now)))}`);
    if (ctx.query.status) base = base.where(sql<boolean>`${sql.raw(hasBlockStatusSql('block_list', sqlInstant(now), ctx.query.status))}`);
    if (ctx.query.source) base = base.where('source', '=', ctx.query.source);
    const q = ctx.query.q?.trim();
    if (q) {
      const prefix = phonePrefix(q);
      // A prefix in the "C" collation uses the (company_id, phone) index; no digits matches nothing.
      base = prefix ? base.where('phone', 'like', `${prefix}%`) : base.where(sql<boolean>`false`);
    }
    return paginate(base, ctx.query, {
      sortable: { phone: 'phone', createdAt: 'created_at', effectiveAt: 'effective_at' },
      defaultSort: { column: 'created_at', order: 'desc' },
      tieBreaker: 'id',
      search: [], // q is the phone prefix above
      map: toEntry(now),
    });
  },

  'blockList.add': async (ctx) => {
    const me = caller(ctx);
    const judged = parsePhoneList(ctx.body.numbers);
    const count = judged.valid.length + judged.rejected.length;
    if (count > constants.blockList.maxTypedNumbers) {
      throw failFields([fieldError('numbers', '99931', `${constants.blockList.maxTypedNumbers} numbers at most`)]);
    }
    return addJudged(ctx.deps, me, judged, 'manual', 'numbers');
  },

  'blockList.upload': async (ctx) => {
    const me = caller(ctx);
    const values = await readNumberColumn(ctx.request);
    return addJudged(ctx.deps, me, judgePhones(values), 'file', 'file');
  },

  'blockList.remove': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const now = ctx.deps.now();
    const row = await db
      .selectFrom('block_list')
      .select(['id', 'effective_at', 'removal_requested_at', 'removal_effective_at'])
      .where('id', '=', ctx.params.id)
      .where('company_id', '=', me.companyId)
      .executeTakeFirst();
    if (!row || blockStatus({ effectiveAt: row.effective_at, removalEffectiveAt: row.removal_effective_at }, now).status === 'removed') throw fail('99959');
    if (!row.removal_requested_at) {
      await db
        .updateTable('block_list')
        .set({ removal_requested_at: now, removal_effective_at: effectiveAfter(now, constants.blockList.applyAfterHours) })
        .where('id', '=', row.id)
        .where('company_id', '=', me.companyId)
        .where('removal_requested_at', 'is', null)
        .execute();
    }
    return { ok: true as const };
  },
};
