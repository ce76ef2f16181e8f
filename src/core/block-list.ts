// The block list's timing rule (spec 5 and 9: "block-list changes apply after 24 hours";
// constants.blockList.applyAfterHours). Every change takes effect after the delay: an added
// number starts blocking at effectiveAt; a removed number keeps blocking until
// removalEffectiveAt. The server stores both instants; the engine asks isBlocked before a send.
// Each rule has its SQL mirror beside it (the same rule over block_list columns, for set-based
// queries: the engine's enqueue, the campaign preview, the block-list screen and its writes);
// tests/server/block-list-rule-sql.test.ts proves each pair agrees on the same cases.
import type { BlockListAction, BlockListStatus } from '../generated/enums.gen.ts';
import { normalizeColombianPhone } from './phone.ts';

export interface BlockEntry {
  /** E.164 (+57…). */
  phone: string;
  effectiveAt: Date;
  /** Set when a removal was requested; the entry blocks until then. */
  removalEffectiveAt: Date | null;
}

export type BlockStatus = BlockListStatus | 'removed';
export type PendingAction = BlockListAction | null;

/** Where an entry stands at `now`: an addition or a removal waiting, in force, or gone. */
export function blockStatus(entry: Pick<BlockEntry, 'effectiveAt' | 'removalEffectiveAt'>, now: Date): { status: BlockStatus; pending: PendingAction } {
  const t = now.getTime();
  if (entry.removalEffectiveAt && entry.removalEffectiveAt.getTime() <= t) return { status: 'removed', pending: null };
  if (entry.effectiveAt.getTime() > t) return { status: 'pending', pending: 'add' };
  if (entry.removalEffectiveAt) return { status: 'pending', pending: 'remove' };
  return { status: 'effective', pending: null };
}

/**
 * blockStatus in SQL: 'removed', 'pending' or 'effective' for the block_list row `alias` at `now`
 * (an SQL instant, see sqlInstant), made of hasBlockStatusSql's predicates so the two never part.
 */
export function blockStatusSql(alias: string, now: string): string {
  return `(case when ${hasBlockStatusSql(alias, now, 'removed')} then 'removed' when ${hasBlockStatusSql(alias, now, 'pending')} then 'pending' else 'effective' end)`;
}

/**
 * blockStatus(...).status === `status` in SQL, as plain comparisons: a list filtered by status
 * evaluates it on every row it skips, and comparisons cost less per row than a CASE (the
 * block-list screen's filter).
 */
export function hasBlockStatusSql(alias: string, now: string, status: BlockStatus): string {
  const a = alias;
  switch (status) {
    case 'removed': return `(${a}.removal_effective_at <= ${now})`;
    case 'effective': return `(${a}.removal_effective_at is null and ${a}.effective_at <= ${now})`;
    case 'pending': return `(${a}.removal_effective_at > ${now} or (${a}.removal_effective_at is null and ${a}.effective_at > ${now}))`;
  }
}

/** The entries still on the list at `now` (not yet removed), in SQL: blockStatus(...).status !== 'removed'. */
export function listedSql(alias: string, now: string): string {
  return `(${alias}.removal_effective_at is null or ${alias}.removal_effective_at > ${now})`;
}

/** True when the entry stops a message to its number at `now`. */
export function entryBlocks(entry: Pick<BlockEntry, 'effectiveAt' | 'removalEffectiveAt'>, now: Date): boolean {
  const t = now.getTime();
  return entry.effectiveAt.getTime() <= t && (entry.removalEffectiveAt === null || entry.removalEffectiveAt.getTime() > t);
}

/** entryBlocks in SQL: the block_list row `alias` stops a message to its number at `now` (an SQL instant). */
export function entryBlocksSql(alias: string, now: string): string {
  return `(${alias}.effective_at <= ${now} and ${listedSql(alias, now)})`;
}

/** An instant as an SQL timestamptz literal for the mirrors above (an ISO string holds no quote). */
export const sqlInstant = (at: Date): string => `'${at.toISOString()}'::timestamptz`;

/** Whether a message to `number` (any accepted spelling) must be held as blacklisted (status 5). */
export function isBlocked(entries: readonly BlockEntry[], number: string, now: Date): boolean {
  const phone = normalizeColombianPhone(number);
  if (!phone) return false;
  return entries.some((e) => e.phone === phone && entryBlocks(e, now));
}

/** The instant a change requested at `at` takes effect. */
export const effectiveAfter = (at: Date, hours: number) => new Date(at.getTime() + hours * 3_600_000);
