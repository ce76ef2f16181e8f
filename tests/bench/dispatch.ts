// The engine's dispatch (npm run bench -- dispatch): 100,000 messages enqueued, then claimed by
// the dispatcher, submitted over SMPP to the sandbox SMSC with a delivery receipt each, and
// persisted until every row is delivered — on PGlite and on PostgreSQL (BENCH_DATABASE_URL,
// default the local server, a fresh schema). The anchor is the bare `smpp` package client→server
// with a receipt per message (tests/bench/smpp.ts rawSmppThroughput), measured in the same run.
// Everything runs in this one process, as the anchor does: the dispatcher, the adapter, the
// receipt sink and the SMSC (which does not record messages here).
// Rollup upkeep: on each database the run is made twice on an emptied table, first
// with the rollup triggers (the product as it is), then with them disabled; the second run has a
// warm JIT, so the upkeep's measured cost errs on the high side.
import { sql, type Kysely } from 'kysely';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import type { Database } from '../../src/engine/database.ts';
import { startMessaging } from '../../src/server/messaging/runtime.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import type { Harness } from '../server/harness.ts';
import { onEachDatabase } from './databases.ts';
import { rawSmppThroughput, type Record } from './smpp.ts';

const COUNT = Number(process.env.BENCH_DISPATCH_COUNT ?? 100_000);
const TEXT = 'Hola, este es un mensaje de prueba de Colibri';

async function openRows(db: Kysely<Database>, channelId: number): Promise<number> {
  const row = await sql<{ n: string }>`select count(*) as n from messages where channel_id = ${channelId} and state <> 'delivered'`.execute(db);
  return Number(row.rows[0].n);
}

/** Messages per second from the enqueue's commit until the last row is delivered. */
async function dispatchRun(h: Harness): Promise<{ rate: number; enqueueMs: number; binds: number }> {
  const db = h.db;
  const channel = await h.db.selectFrom('channels').select(['id', 'company_id']).where('platform', '=', 'sms').where('type', '=', 'MT').orderBy('id').executeTakeFirstOrThrow();
  const runtime = await startMessaging({
    db: h.db, secrets: defaultSecretBox(), sandbox: true, callbacks: false,
    smsc: { record: false },
    dispatcher: { idleMs: 50 },
    // The anchor's window; no TPS limit (the benchmark measures the engine, not an operator's contract).
    smpp: { tps: null, window: 100 },
  });
  try {
    const smsc = runtime.smsc!;
    const started = performance.now();
    await db.transaction().execute((trx) => enqueueMessages(trx, {
      companyId: channel.company_id, channel: { id: channel.id, platform: 'sms' }, purpose: 'transactional', source: 'api',
      // Distinct mobiles, none ending in 0000 (the sandbox SMSC's failing suffix).
      items: Array.from({ length: COUNT }, (_, i) => ({ to: `+573${String(i).padStart(8, '0')}7`, body: TEXT })),
      duplicateWindowHours: 0, heldUntil: null, now: new Date(), onInsufficientCredits: 'reject',
    }));
    const committed = performance.now();
    runtime.dispatcher.wake();
    // Every receipt acknowledged means every receipt stored; a few may wait as orphans for the
    // reconcile that follows their batch's record.
    await smsc.until(() => smsc.counters.receiptsAcked >= COUNT, 'every receipt stored', 30 * 60_000);
    const deadline = Date.now() + 120_000;
    while ((await openRows(db, channel.id)) > 0) {
      if (Date.now() > deadline) {
        const open = await sql`select id, state, provider_message_id, delivery_status from messages where channel_id = ${channel.id} and state <> 'delivered' limit 5`.execute(db);
        throw new Error(`rows not delivered, e.g. ${JSON.stringify(open.rows)}; SMSC ${JSON.stringify(smsc.counters)}`);
      }
      await new Promise<void>((resolve) => setTimeout(resolve, 20));
    }
    const seconds = (performance.now() - committed) / 1000;
    return { rate: COUNT / seconds, enqueueMs: committed - started, binds: smsc.counters.binds };
  } finally {
    await runtime.close();
  }
}

/** Empties what a run wrote (TRUNCATE fires no delete trigger) and refreshes the statistics. */
async function emptied(db: Kysely<Database>): Promise<void> {
  await sql`truncate messages, message_rollup_deltas, message_rollup_totals, message_rollup_days cascade`.execute(db);
  await sql`analyze`.execute(db);
}

const ROLLUP_TRIGGERS = ['messages_rollup_insert', 'messages_rollup_update', 'messages_rollup_delete'];

export async function dispatchBench(record: Record, postgresUrl: string) {
  const raw = await rawSmppThroughput(COUNT, 100);
  await onEachDatabase(postgresUrl, async (h, target) => {
    const run = await dispatchRun(h);
    await emptied(h.db);
    for (const t of ROLLUP_TRIGGERS) await sql.raw(`alter table messages disable trigger ${t}`).execute(h.db);
    const bare = await dispatchRun(h);
    for (const t of ROLLUP_TRIGGERS) await sql.raw(`alter table messages enable trigger ${t}`).execute(h.db);
    record({
      name: `dispatch-rollup-upkeep-${target.toLowerCase()}`, value: Math.round(run.rate), unit: 'messages/s with the rollup triggers',
      anchor: 'the same dispatch with the rollup triggers disabled, same run (messages/s)', anchor_value: Math.round(bare.rate),
      goal: 'ratio >= 0.90 (rollup upkeep costs at most 10 % of dispatch throughput)',
      notes: `${COUNT} single-part SMS on ${target}, each run on an emptied table; with the triggers first, then without (warm JIT: errs against the triggers)`,
    });
    record({
      name: `dispatch-smpp-100k-${target.toLowerCase()}`, value: Math.round(run.rate), unit: 'messages/s',
      anchor: 'raw smpp client→server with a receipt per message, window 100, same run (messages/s)', anchor_value: Math.round(raw),
      goal: `ratio >= ${target === 'PostgreSQL' ? '0.35' : '0.25'}: claimed in batches, submitted over SMPP, receipt stored, every row delivered`,
      notes: `${COUNT} single-part SMS on ${target}, from the enqueue's commit to the last row delivered (enqueue ${Math.round(run.enqueueMs)} ms); dispatcher, adapter (window 100, no TPS limit), receipt sink and sandbox SMSC in one process; ${run.binds} bind(s)`,
    });
  });
}
