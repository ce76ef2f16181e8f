// Report rollups: whatever happens to messages — inserts, state changes in any
// order, retries, receipts out of order through the real receipt statement, deletes, concurrent
// writers, transactions that die half-way — the rollups (totals + deltas, folded or not) equal
// the raw GROUP BY of the messages; and the rebuild command restores hours whose rollups were
// lost. PGlite, or PostgreSQL with DATABASE_URL (there the writers really run at once).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/engine/database.ts';
import { applyStatuses } from '../../src/engine/lifecycle/receipt.ts';
import { compactRollups, rawDailyRollupSql, rawRollupSql, rebuildRollups, ROLLUP_KEY, ROLLUP_MEASURES, summedDailyRollupsSql, summedRollupsSql } from '../../src/engine/lifecycle/rollups.ts';
import { rebuildRange } from '../../src/server/rollups-cli.ts';
import { fileHarness } from './file-harness.ts';
import { processDatabaseEnv } from './test-databases.ts';
import { seededRandom as random, type SeededRandom } from '../fixtures/seeded-random.ts';
import { NODE_FLAGS } from '../node-flags.ts';

const h = fileHarness();
let companyId: number;
let channels: number[];
beforeAll(async () => {
  const signed = await h.as('manager');
  companyId = (await h.db.selectFrom('users').select('company_id').where('id', '=', signed.session.idUser).executeTakeFirstOrThrow()).company_id;
  channels = (await h.db.selectFrom('channels').select('id').where('company_id', '=', companyId).execute()).map((c) => c.id);
}, 180_000);


const STATES = ['queued', 'sending', 'sent', 'in_doubt', 'delivered', 'read', 'failed', 'timeout', 'undefined', 'rejected', 'cancelled', 'paused'] as const;
const RECEIPTS = ['SENT', 'DELIVERED', 'READ', 'FAILED', 'TIME_OUT', 'UNDEFINED'] as const;
// 08:30 in Bogotá; nine hours before is the evening of the day before (two days in the day rollups).
const BASE = Date.UTC(2026, 10, 20, 13, 30);

type Row = Record<string, string>;
const normal = (rows: Record<string, unknown>[]): Row[] =>
  rows.map((r) => Object.fromEntries([...ROLLUP_KEY, ...ROLLUP_MEASURES].map((k) => [k, r[k] instanceof Date ? (r[k] as Date).toISOString() : String(r[k])])))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const rowsOf = async (db: Kysely<Database>, query: string): Promise<Row[]> => normal((await sql.raw<Record<string, unknown>>(query).execute(db)).rows);
/** Both grains the reports read: the hours and the Bogotá days. */
const rollups = async (db: Kysely<Database>) => ({ hours: await rowsOf(db, summedRollupsSql()), days: await rowsOf(db, summedDailyRollupsSql()) });
const raw = async (db: Kysely<Database>) => ({ hours: await rowsOf(db, rawRollupSql()), days: await rowsOf(db, rawDailyRollupSql()) });

async function insertMessages(rnd: SeededRandom, n: number) {
  const rows = Array.from({ length: n }, () => ({
    company_id: companyId, channel_id: rnd.pick(channels), source: rnd.pick(['api', 'campaign', 'event']), purpose: rnd.pick(['otp', 'transactional', 'commercial']),
    // Prefixes of every allocation block, one outside them all, a landline and a Messenger id.
    to_number: rnd.pick(['+57300', '+57312', '+57316', '+57319', '+57321', '+57350', '+57333', '+57601', '']) + String(rnd.int(1e7)).padStart(7, '0'), body: 'hola', parts: 1 + rnd.int(3), cost: 1 + rnd.int(3), state: 'queued', status_code: 0,
    provider_message_id: `p-${rnd.int(1e12)}`,
    // The sender's area: two areas and none (the API, a member without one).
    area_id: rnd.pick([null, 1, 2]),
    not_before: new Date(BASE), created_at: new Date(BASE + rnd.pick([-9, 0, 1, 2, 3]) * 3_600_000 + rnd.int(3_600_000)), updated_at: new Date(BASE),
  }));
  await h.db.insertInto('messages').values(rows).execute();
}

/** One writer's step: a random change to a few random messages, in its own transaction; some die half-way. */
async function change(rnd: SeededRandom) {
  const ids = (await sql<{ id: string }>`select id::text as id from messages where company_id = ${companyId} order by random() limit ${1 + rnd.int(20)}`.execute(h.db)).rows.map((r) => r.id);
  if (!ids.length) return;
  const kind = rnd.int(6);
  const crash = rnd.int(5) === 0;
  try {
    await h.db.transaction().execute(async (tx) => {
      if (kind === 0) {
        // Sent: billed, submitted now, on its way.
        await sql`update messages set state = 'sent', delivery_status = 'SENT', billed = true, attempts = attempts + 1,
                  sent_at = created_at + make_interval(secs => ${rnd.int(30)}) where id = any(${ids}::bigint[])`.execute(tx);
      } else if (kind === 1) {
        // Receipts through the lifecycle's own statement, in any order (a late SENT after DELIVERED changes nothing).
        const pids = (await sql<{ pid: string; channel_id: number; sent_at: Date | null }>`select provider_message_id as pid, channel_id, sent_at from messages where id = any(${ids}::bigint[])`.execute(tx)).rows;
        for (const channelId of new Set(pids.map((p) => p.channel_id))) {
          const events = pids.filter((p) => p.channel_id === channelId).map((p) => ({
            providerMessageId: p.pid, status: rnd.pick(RECEIPTS), errorCode: rnd.pick([null, '000', '001', '131047']), at: new Date((p.sent_at ?? new Date(BASE)).getTime() + rnd.int(90_000)),
            // The serving network, when the receipt says it (a ported number's differs from its prefix; 310260 is abroad).
            ...(rnd.int(2) === 0 ? { network: rnd.pick(['732101', '732123', '732103', '732130', '732154', '310260']) } : {}),
          }));
          await applyStatuses(tx, channelId, events as never, new Date(BASE));
        }
      } else if (kind === 2) {
        // A retry: back to the queue (a claim that moves nothing the rollups count writes no delta).
        await sql`update messages set state = 'queued', worker_id = 'w', attempts = attempts + 1 where id = any(${ids}::bigint[])`.execute(tx);
        await sql`update messages set claimed_at = now() where id = any(${ids}::bigint[])`.execute(tx);
      } else if (kind === 3) {
        await sql`update messages set state = ${rnd.pick(STATES)}, status_code = ${rnd.int(4)}, parts = ${1 + rnd.int(3)}, billed = ${rnd.int(2) === 0},
                  done_at = coalesce(sent_at, created_at) + make_interval(secs => ${rnd.int(100)}) where id = any(${ids}::bigint[])`.execute(tx);
      } else if (kind === 4) {
        await sql`delete from messages where id = any(${ids.slice(0, 2)}::bigint[])`.execute(tx);
      } else {
        await compactRollups(tx);
      }
      if (crash) throw new Error('crash');
    });
  } catch (error) {
    // A crash, or PostgreSQL choosing this writer as a deadlock's victim (40P01: receipts update
    // one channel's rows after another's while another writer locks them in id order): either way
    // the transaction is rolled back, which is what the rollups must survive.
    if ((error as Error).message !== 'crash' && (error as { code?: string }).code !== '40P01') throw error;
  }
}

describe('report rollups', () => {
  it('equal the raw GROUP BY after random traffic, concurrent writers, crashes and folds', async () => {
    for (const seed of [1, 2, 3]) {
      const rnd = random(seed);
      await insertMessages(rnd, 200);
      for (let round = 0; round < 12; round++) {
        // Four writers at once (concurrent on PostgreSQL), a fold among them now and then.
        await Promise.all([change(rnd), change(rnd), change(rnd), rnd.int(3) === 0 ? compactRollups(h.db) : change(rnd)]);
        if (round % 4 === 0) await insertMessages(rnd, 30);
      }
      expect(await rollups(h.db), `seed ${seed}, before folding`).toEqual(await raw(h.db));
      await compactRollups(h.db);
      expect(await rollups(h.db), `seed ${seed}, folded`).toEqual(await raw(h.db));
    }
    // The measures are really there: messages delivered with a latency, credits spent.
    const totals = (await sql<{ latency: string; credits: string; messages: string }>`select sum(latency_count)::text as latency, sum(credits)::text as credits, sum(messages)::text as messages from message_rollups`.execute(h.db)).rows[0];
    expect(Number(totals.latency)).toBeGreaterThan(0);
    expect(Number(totals.credits)).toBeGreaterThan(0);
    expect(Number(totals.messages)).toBe(Number((await sql<{ n: string }>`select count(*)::text as n from messages`.execute(h.db)).rows[0].n));
  }, 300_000);

  it('fold every delta into the totals, and a statement that moves nothing writes none', async () => {
    await compactRollups(h.db);
    const deltas = async () => Number((await sql<{ n: string }>`select count(*)::text as n from message_rollup_deltas`.execute(h.db)).rows[0].n);
    expect(await deltas()).toBe(0);
    await sql`update messages set worker_id = 'w2', claimed_at = now() where company_id = ${companyId}`.execute(h.db);
    expect(await deltas()).toBe(0);
    await sql`update messages set state = 'cancelled' where id = (select min(id) from messages where state <> 'cancelled')`.execute(h.db);
    expect(await deltas()).toBe(2);
    expect(await compactRollups(h.db)).toBe(2);
    expect(await deltas()).toBe(0);
    expect(await rollups(h.db)).toEqual(await raw(h.db));
  });

  it('are rebuilt from the raw rows for a range of hours', async () => {
    const before = await raw(h.db);
    // Lost: the totals of two hours, and a stray delta of one.
    await sql`delete from message_rollup_totals where bucket >= ${new Date(BASE + 3_600_000)} and bucket < ${new Date(BASE + 3 * 3_600_000)}`.execute(h.db);
    await sql`insert into message_rollup_deltas select * from message_rollup_totals where bucket >= ${new Date(BASE + 3 * 3_600_000)} limit 1`.execute(h.db);
    // And the day that holds them (its other hours' share too).
    await sql`delete from message_rollup_days where bucket = date_trunc('day', ${new Date(BASE + 3_600_000)}::timestamptz, 'America/Bogota')`.execute(h.db);
    const lost = await rollups(h.db);
    expect(lost.hours).not.toEqual(before.hours);
    expect(lost.days).not.toEqual(before.days);
    await rebuildRollups(h.db, new Date(BASE + 3_600_000), new Date(BASE + 5 * 3_600_000));
    expect(await rollups(h.db)).toEqual(before);
  });
});

describe('the rebuild command', () => {
  it('takes Bogotá days, both included, and refuses anything else', () => {
    expect(rebuildRange('2026-11-01', '2026-11-02')).toEqual({ from: new Date('2026-11-01T05:00:00Z'), to: new Date('2026-11-03T05:00:00Z') });
    expect(rebuildRange('2026-11-02', '2026-11-01')).toBe('the last day comes before the first');
    for (const bad of [[undefined, undefined], ['2026-11-01', undefined], ['yesterday', '2026-11-01'], ['2026-11-01', '2026-11-01T00:00']]) {
      expect(rebuildRange(bad[0], bad[1])).toMatch(/^usage: npm run rollups -- rebuild/);
    }
  });

  it('runs as `npm run rollups -- rebuild` on the database the environment names', async () => {
    const run = promisify(execFile);
    const cli = (args: string[], env: NodeJS.ProcessEnv) => run(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'src/server/rollups-cli.ts', ...args], { env: { ...process.env, ...env } });
    await expect(cli(['rebuild', '2026-11-30', '2026-11-01'], {})).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('the last day comes before the first') });
    if (process.env.DATABASE_URL) {
      // The test's own database: its rollups lost, then rebuilt by the command.
      const before = await raw(h.db);
      await sql`delete from message_rollup_totals`.execute(h.db);
      const { stdout } = await cli(['rebuild', '2026-11-19', '2026-11-21'], await processDatabaseEnv(h.db));
      expect(stdout).toMatch(/rebuilt from the messages \([1-9]\d* rollup rows\)/);
      expect(await rollups(h.db)).toEqual(before);
    } else {
      // PGlite is one process's: the command opens a data folder of its own (the server stopped).
      const folder = mkdtempSync(join(tmpdir(), 'colibri-rollups-'));
      try {
        const { stdout } = await cli(['rebuild', '2026-11-01', '2026-11-25'], { DATA_DIR: folder, DATABASE_URL: '' });
        expect(stdout).toContain('rollups: 2026-11-01 to 2026-11-25 rebuilt from the messages (0 rollup rows)');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    }
  }, 120_000);
});
