// The block-list rule is written once, in src/core/block-list.ts, with its SQL mirror beside it:
// on the same table of cases, PostgreSQL (PGlite, or the server of DATABASE_URL) answers what the
// TypeScript rule answers, for "blocks now" (entryBlocks / entryBlocksSql), the entry's status
// (blockStatus / blockStatusSql, and as a filter hasBlockStatusSql) and "still on the list" (listedSql).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockStatus, blockStatusSql, entryBlocks, entryBlocksSql, hasBlockStatusSql, listedSql, sqlInstant } from '../../src/core/block-list.ts';
import { createDatabase, type DatabaseHandle } from '../../src/server/db/database.ts';

const T = new Date('2026-03-02T15:00:00.000Z');
const at = (hours: number) => new Date(T.getTime() + hours * 3_600_000);
const MS = 1;

/** [name, effectiveAt, removalEffectiveAt]: every order of the two instants around now, and the edges. */
const CASES: [string, Date, Date | null][] = [
  ['an addition waiting', at(1), null],
  ['an addition taking effect this instant', T, null],
  ['an addition one millisecond from taking effect', new Date(T.getTime() + MS), null],
  ['an addition in force', at(-30), null],
  ['a removal waiting', at(-30), at(5)],
  ['a removal taking effect this instant', at(-30), T],
  ['a removal one millisecond from taking effect', at(-30), new Date(T.getTime() + MS)],
  ['a removal done', at(-30), at(-1)],
  ['removed before it took effect', at(10), at(-1)],
  ['added and removed, both waiting', at(2), at(20)],
  ['added and removed at the same future instant', at(3), at(3)],
];

let handle: DatabaseHandle;
beforeAll(() => {
  handle = createDatabase(process.env.DATABASE_URL ? { kind: 'postgres', url: process.env.DATABASE_URL, poolSize: 1 } : { kind: 'memory' });
});
afterAll(async () => { await handle.close(); });

async function inSql(effectiveAt: Date, removalEffectiveAt: Date | null) {
  const now = sqlInstant(T);
  const result = await sql<{ blocks: boolean; status: string; listed: boolean; removed: boolean; effective: boolean; pending: boolean }>`
    select ${sql.raw(entryBlocksSql('b', now))} as blocks, ${sql.raw(blockStatusSql('b', now))} as status, ${sql.raw(listedSql('b', now))} as listed,
           coalesce(${sql.raw(hasBlockStatusSql('b', now, 'removed'))}, false) as removed, coalesce(${sql.raw(hasBlockStatusSql('b', now, 'effective'))}, false) as effective,
           coalesce(${sql.raw(hasBlockStatusSql('b', now, 'pending'))}, false) as pending
    from (select ${effectiveAt}::timestamptz as effective_at, ${removalEffectiveAt}::timestamptz as removal_effective_at) as b`.execute(handle.db);
  return result.rows[0];
}

describe('the block-list rule and its SQL mirror agree', () => {
  it.each(CASES)('%s', async (_, effectiveAt, removalEffectiveAt) => {
    const entry = { effectiveAt, removalEffectiveAt };
    const row = await inSql(effectiveAt, removalEffectiveAt);
    expect(row.blocks).toBe(entryBlocks(entry, T));
    expect(row.status).toBe(blockStatus(entry, T).status);
    expect(row.listed).toBe(blockStatus(entry, T).status !== 'removed');
    // hasBlockStatusSql: true for the entry's status and for no other (NULL, as a WHERE reads it, is false).
    const status = blockStatus(entry, T).status;
    expect({ removed: row.removed, effective: row.effective, pending: row.pending }).toEqual({ removed: status === 'removed', effective: status === 'effective', pending: status === 'pending' });
  });

  it('covers blocking and not blocking, and every status', () => {
    const blocks = new Set(CASES.map(([, e, r]) => entryBlocks({ effectiveAt: e, removalEffectiveAt: r }, T)));
    const statuses = new Set(CASES.map(([, e, r]) => blockStatus({ effectiveAt: e, removalEffectiveAt: r }, T).status));
    expect([...blocks].sort()).toEqual([false, true]);
    expect([...statuses].sort()).toEqual(['effective', 'pending', 'removed']);
  });
});
