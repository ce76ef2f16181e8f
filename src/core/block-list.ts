// The block list's timing rule (spec 5 and 9: "block-list changes apply after 24 hours";
// constants.blockList.applyAfterHours). Every change takes effect after the delay: an added
// number starts blocking at effectiveAt; a removed number keeps blocking until
// removalEffectiveAt. The server stores both instants; the engine asks isBlocked before a send.
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

/** True when the entry stops a message to its number at `now`. */
export function entryBlocks(entry: Pick<BlockEntry, 'effectiveAt' | 'removalEffectiveAt'>, now: Date): boolean {
  const t = now.getTime();
  return entry.effectiveAt.getTime() <= t && (entry.removalEffectiveAt === null || entry.removalEffectiveAt.getTime() > t);
}

/** Whether a message to `number` (any accepted spelling) must be held as blacklisted (status 5). */
export function isBlocked(entries: readonly BlockEntry[], number: string, now: Date): boolean {
  const phone = normalizeColombianPhone(number);
  if (!phone) return false;
  return entries.some((e) => e.phone === phone && entryBlocks(e, now));
}

/** The instant a change requested at `at` takes effect. */
export const effectiveAfter = (at: Date, hours: number) => new Date(at.getTime() + hours * 3_600_000);
