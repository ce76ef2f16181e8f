// The dispatcher and the credits on the database (PGlite, or PostgreSQL with DATABASE_URL), with
// a scripted in-process provider: claims, outcomes (accepted, retry, failed, fallback), receipts
// before and after the submit answer, monotonic statuses, and credits that reconcile.
import { beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { ChannelAdapter, OutboundMessage, SubmitOutcome } from '../../src/engine/channel-adapter.ts';
import { addCredits, balanceOf } from '../../src/engine/credits.ts';
import { Dispatcher } from '../../src/engine/dispatcher.ts';
import { markDeadWorkersRowsInDoubt } from '../../src/engine/lifecycle/in-doubt.ts';
import { enqueueMessages, InsufficientCreditsError, type EnqueueRequest } from '../../src/engine/lifecycle/enqueue.ts';
import { databaseSink, reconcileOrphans } from '../../src/engine/receipts.ts';
import { createDatabase } from '../../src/server/db/database.ts';
import type { Database } from '../../src/engine/database.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();
let db: Kysely<Database>;
let companyId: number;
let smsChannel: number;
let rcsChannel: number;

beforeAll(async () => {
  db = h.db;
  const company = await h.db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
  companyId = company.id;
  smsChannel = (await h.db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('platform', '=', 'sms').orderBy('id').executeTakeFirstOrThrow()).id;
  rcsChannel = (await h.db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('platform', '=', 'rcs').executeTakeFirstOrThrow()).id;
});

const request = (items: EnqueueRequest['items'], extra: Partial<EnqueueRequest> = {}): EnqueueRequest => ({
  companyId, channel: { id: smsChannel, platform: 'sms' }, purpose: 'transactional', source: 'api', items,
  duplicateWindowHours: 24, heldUntil: null, now: new Date(), onInsufficientCredits: 'reject', ...extra,
});

/** A provider stand-in scripted per destination: ...01 retry once, ...02 refuse, ...03 not RCS-capable. */
function scriptedAdapter(onAccepted: (m: OutboundMessage, pid: string) => void): ChannelAdapter & { seen: string[] } {
  const retried = new Set<string>();
  const seen: string[] = [];
  let n = 0;
  return {
    platform: 'sms',
    seen,
    async submit(messages) {
      return messages.map((m): SubmitOutcome => {
        if (m.to.endsWith('01') && !retried.has(m.id)) { retried.add(m.id); return { kind: 'retry', reason: 'throttled', afterMs: 0 }; }
        if (m.to.endsWith('02')) return { kind: 'failed', statusCode: 94, errorCode: '0x0B', reason: 'invalid destination' };
        if (m.to.endsWith('03')) return { kind: 'fallback', reason: 'not RCS-capable' };
        seen.push(m.to);
        const pid = `p${++n}`;
        onAccepted(m, pid);
        return { kind: 'accepted', providerMessageId: pid };
      });
    },
    async close() {},
  };
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

describe('the embedded database', () => {
  it('plans for data in memory: a random page read costs about a sequential one (index lookups over table scans)', async () => {
    const handle = createDatabase({ kind: 'memory' });
    try {
      const shown = await sql<{ random_page_cost: string }>`show random_page_cost`.execute(handle.db);
      expect(Number(shown.rows[0].random_page_cost)).toBeCloseTo(1.1);
    } finally {
      await handle.close();
    }
  });

  it('neither zero-fills new WAL segments nor writes full-page images, which stalled commits of a big launch', async () => {
    const handle = createDatabase({ kind: 'memory' });
    try {
      const shown = await sql<{ wal_init_zero: string; full_page_writes: string }>`select current_setting('wal_init_zero') as wal_init_zero, current_setting('full_page_writes') as full_page_writes`.execute(handle.db);
      expect(shown.rows[0]).toEqual({ wal_init_zero: 'off', full_page_writes: 'off' });
    } finally {
      await handle.close();
    }
  });
});

describe('credits', () => {
  it('reserves only what the balance covers, even when requests race', async () => {
    const other = await h.addCompany('Carrera S.A.S.', []);
    await addCredits(db, 'grant', { companyId: other.companyId, amount: 10, now: new Date() });
    const channel = await h.db.insertInto('channels').values({ company_id: other.companyId, name: 'sms', platform: 'sms', type: 'MT', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: new Date(), updated_at: new Date() } as never).returning('id').executeTakeFirstOrThrow();
    const attempt = (i: number) => db.transaction().execute((trx) => enqueueMessages(trx, request(
      Array.from({ length: 4 }, (_, k) => ({ to: `+5730010${i}00${k}`, body: 'hola' })),
      { companyId: other.companyId, channel: { id: channel.id, platform: 'sms' }, onInsufficientCredits: 'throw' },
    )));
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map(attempt));
    const won = results.filter((r) => r.status === 'fulfilled').length;
    expect(won).toBe(2);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(InsufficientCreditsError);
    expect(await balanceOf(db, other.companyId)).toEqual({ balance: 2, reserved: 8 });
  });
});

describe('dispatch', () => {
  it('sends each queued row once, settles credits per message and applies receipts in any order', async () => {
    await addCredits(db, 'grant', { companyId, amount: 1000, now: new Date() });
    const before = await balanceOf(db, companyId);
    const sink = databaseSink({ db, flushMs: 5 });
    const early: Promise<void>[] = [];
    const adapter = scriptedAdapter((m, pid) => {
      // Half of the receipts arrive before the dispatcher stores the submit answer.
      if (Number(m.id) % 2 === 0) early.push(Promise.resolve(sink.status(smsChannel, { providerMessageId: pid, status: 'DELIVERED', at: new Date() })));
    });
    const items = [
      ...Array.from({ length: 40 }, (_, i) => ({ to: `+5730020${String(i).padStart(3, '0')}9`, body: 'Hola {{x}}' })),
      { to: '+573002000001', body: 'retry me' },
      { to: '+573002000002', body: 'refuse me' },
      { to: '+573002000002', body: 'refuse me' }, // duplicate of the line above
    ];
    const enq = await db.transaction().execute((trx) => enqueueMessages(trx, request(items)));
    expect(enq.rejected.duplicate).toBe(1);
    expect(enq.reservedCredits).toBe(42);
    const dispatcher = new Dispatcher({ db, adapters: { adapterFor: async (id) => (id === smsChannel ? adapter : null) }, sendWindow: () => null, batchSize: 7, idleMs: 20 });
    await dispatcher.start();
    await until(async () => (await db.selectFrom('messages').select('id').where('id', 'in', enq.ids).where('state', 'in', ['queued', 'sending']).execute()).length === 0, 'all handed over');
    await Promise.all(early);
    // The other half's receipts come after the answer was stored.
    const sent = await db.selectFrom('messages').select(['id', 'provider_message_id']).where('id', 'in', enq.ids).where('state', '=', 'sent').execute();
    await Promise.all(sent.map((m) => sink.status(smsChannel, { providerMessageId: m.provider_message_id!, status: 'DELIVERED', at: new Date() })));
    // A late, lower status changes nothing.
    await Promise.all(sent.slice(0, 3).map((m) => sink.status(smsChannel, { providerMessageId: m.provider_message_id!, status: 'SENT', at: new Date() })));
    await until(async () => { await dispatcher.maintain(); return (await db.selectFrom('orphan_receipts').select('id').execute()).length === 0; }, 'orphans reconciled');
    await dispatcher.stop();
    // The first full batch refreshed the planner's statistics (PGlite has no autovacuum): the
    // table is no longer believed empty.
    expect(dispatcher.statistics.refreshed).toBeGreaterThanOrEqual(1);
    const size = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = 'messages'::regclass`.execute(db);
    expect(size.rows[0].n).toBeGreaterThan(0);

    const rows = await db.selectFrom('messages').select(['to_number', 'state', 'status_code', 'delivery_status']).where('id', 'in', enq.ids).execute();
    const byState = (s: string) => rows.filter((r) => r.state === s).length;
    expect(byState('delivered')).toBe(41);
    expect(rows.find((r) => r.to_number === '+573002000001')?.state).toBe('delivered');
    expect(rows.filter((r) => r.to_number === '+573002000002').map((r) => r.status_code).sort()).toEqual([93, 94]);
    expect(new Set(adapter.seen).size).toBe(adapter.seen.length);
    const after = await balanceOf(db, companyId);
    expect(after.reserved).toBe(before.reserved);
    expect(before.balance - after.balance).toBe(41);
  });

  it('an adapter that keeps throwing on a message ends it with 99 (general) after its attempts, and gives its credits back', async () => {
    const other = await h.addCompany('Falla S.A.S.', []);
    await addCredits(db, 'grant', { companyId: other.companyId, amount: 10, now: new Date() });
    const channel = await h.db.insertInto('channels').values({ company_id: other.companyId, name: 'sms', platform: 'sms', type: 'MT', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: new Date(), updated_at: new Date() } as never).returning('id').executeTakeFirstOrThrow();
    const enq = await db.transaction().execute((trx) => enqueueMessages(trx, request([{ to: '+573003200001', body: 'uno' }], { companyId: other.companyId, channel: { id: channel.id, platform: 'sms' } })));
    let calls = 0;
    const broken: ChannelAdapter = { platform: 'sms', async submit() { calls++; throw new Error('an answer the adapter could not read'); }, async close() {} };
    const dispatcher = new Dispatcher({ db, adapters: { adapterFor: async (id) => (id === channel.id ? broken : null) }, sendWindow: () => null, batchSize: 5, idleMs: 5, log: () => {} });
    // Each retry waits a second: move its turn to now instead of sleeping through it.
    await dispatcher.start();
    await until(async () => {
      await db.updateTable('messages').set({ not_before: new Date(0) }).where('id', '=', enq.ids[0]).where('state', '=', 'queued').execute();
      dispatcher.wake();
      return (await db.selectFrom('messages').select('state').where('id', '=', enq.ids[0]).executeTakeFirstOrThrow()).state === 'failed';
    }, 'failed with 99');
    await dispatcher.stop();
    const m = await db.selectFrom('messages').select(['status_code', 'error_code', 'attempts']).where('id', '=', enq.ids[0]).executeTakeFirstOrThrow();
    expect(m).toEqual({ status_code: 99, error_code: 'adapterError', attempts: 5 });
    expect(calls).toBe(5);
    expect(await balanceOf(db, other.companyId)).toEqual({ balance: 10, reserved: 0 });
  });

  it('a replayed or repeated receipt changes nothing: no second event, no second status callback', async () => {
    const other = await h.addCompany('Eco S.A.S.', []);
    await addCredits(db, 'grant', { companyId: other.companyId, amount: 10, now: new Date() });
    const channel = await h.db.insertInto('channels').values({ company_id: other.companyId, name: 'sms', platform: 'sms', type: 'MT', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: new Date(), updated_at: new Date() } as never).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('messaging_settings').values({ company_id: other.companyId, callback_url: 'https://hooks.example.co/estados', updated_at: new Date() } as never).execute();
    const enq = await db.transaction().execute((trx) => enqueueMessages(trx, request(
      [{ to: '+573003000001', body: 'uno' }, { to: '+573003000002', body: 'dos' }],
      { companyId: other.companyId, channel: { id: channel.id, platform: 'sms' } },
    )));
    // Handed to the provider (as the dispatcher leaves them): state sent with the provider's ids.
    for (const [i, id] of enq.ids.entries()) await db.updateTable('messages').set({ state: 'sent', provider_message_id: `r${i}` }).where('id', '=', id).execute();
    const sink = databaseSink({ db });
    const delivered = (pid: string) => ({ providerMessageId: pid, status: 'DELIVERED' as const, at: new Date() });
    await Promise.all([sink.status(channel.id, delivered('r0')), sink.status(channel.id, delivered('r1'))]);
    // The provider sends the same webhook again, and then a late lower status.
    await sink.status(channel.id, delivered('r0'));
    await sink.status(channel.id, delivered('r1'));
    await sink.status(channel.id, { providerMessageId: 'r0', status: 'SENT', at: new Date() });
    await sink.close();
    const callbacks = await db.selectFrom('status_callbacks').select(['message_id', 'payload']).where('company_id', '=', other.companyId).execute();
    expect(callbacks.map((c) => Number(c.message_id)).sort()).toEqual([...enq.ids].map(Number).sort());
    expect(callbacks.map((c) => (c.payload as { state: string }).state)).toEqual(['delivered', 'delivered']);
    const events = await db.selectFrom('message_events').select('message_id').where('message_id', 'in', enq.ids).where('detail', '=', 'receipt').execute();
    expect(events).toHaveLength(2);
    // Matched, not orphans: nothing waits to be reconciled.
    expect(await db.selectFrom('orphan_receipts').select('id').where('channel_id', '=', channel.id).execute()).toEqual([]);
  });

  it('a watermark stored to wait while the answer was being recorded is applied at once, not at the next maintenance round', async () => {
    const other = await h.addCompany('Ritmo S.A.S.', []);
    await addCredits(db, 'grant', { companyId: other.companyId, amount: 10, now: new Date() });
    const channel = await h.db.insertInto('channels').values({ company_id: other.companyId, name: 'sms', platform: 'sms', type: 'MT', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: new Date(), updated_at: new Date() } as never).returning('id').executeTakeFirstOrThrow();
    const enq = await db.transaction().execute((trx) => enqueueMessages(trx, request([{ to: '+573003100001', body: 'uno' }], { companyId: other.companyId, channel: { id: channel.id, platform: 'sms' } })));
    const id = enq.ids[0];
    await db.updateTable('messages').set({ state: 'sending', claimed_at: new Date(), worker_id: 'w-race' }).where('id', '=', id).execute();
    // The race, made certain: the watermark (Messenger: "all up to T delivered") finds the message
    // still in flight, then the dispatcher records the submit answer and runs its reconcile — all
    // before the mark's "wait for the message" row is written.
    let raced = false;
    const racing = new Proxy(db, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop !== 'insertInto') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        return (table: 'orphan_receipts') => {
          const builder = target.insertInto(table);
          if (table !== 'orphan_receipts' || raced) return builder;
          raced = true;
          return { values: (rows: never) => ({ execute: async () => {
            await db.updateTable('messages').set({ state: 'sent', provider_message_id: 'race-1', sent_at: new Date(), billed: true }).where('id', '=', id).execute();
            await reconcileOrphans(db, new Date());
            return builder.values(rows).execute();
          } }) };
        };
      },
    });
    const sink = databaseSink({ db: racing });
    const mark = new Date(Date.now() + 1_000);
    await sink.status(channel.id, { providerMessageId: '', status: 'DELIVERED', at: mark, watermark: mark, recipient: '+573003100001' });
    await sink.close();
    expect(raced).toBe(true);
    const row = await db.selectFrom('messages').select(['state', 'delivery_status']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'delivered', delivery_status: 'DELIVERED' });
    expect(await db.selectFrom('orphan_receipts').select('id').where('channel_id', '=', channel.id).execute()).toEqual([]);
  });

  it('drops receipts that matched no message within the orphan TTL, and keeps the recent ones', async () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const logged: string[] = [];
    const row = (pid: string, hoursAgo: number) => ({
      channel_id: smsChannel, provider_message_id: pid, delivery_status: 'DELIVERED', error_code: null, destination: '+573009990001',
      user_reference: null, at: new Date(now.getTime() - hoursAgo * 3_600_000), received_at: new Date(now.getTime() - hoursAgo * 3_600_000),
    });
    await db.insertInto('orphan_receipts').values([row('never-1', 73), row('never-2', 100), row('recent-1', 71)]).execute();
    const dispatcher = new Dispatcher({ db, adapters: { adapterFor: async () => null }, sendWindow: () => null, now: () => now, log: (m) => logged.push(m) });
    await dispatcher.maintain();
    const left = await db.selectFrom('orphan_receipts').select('provider_message_id').where('provider_message_id', 'in', ['never-1', 'never-2', 'recent-1']).execute();
    expect(left.map((r) => r.provider_message_id)).toEqual(['recent-1']);
    expect(logged).toContain('dropped 2 receipt(s) that matched no message within 72 h');
    await db.deleteFrom('orphan_receipts').where('provider_message_id', '=', 'recent-1').execute();
  });

  it('falls back to SMS when the RCS number is not capable', async () => {
    const adapter = scriptedAdapter(() => {});
    const enq = await db.transaction().execute((trx) => enqueueMessages(trx, request([{ to: '+573002200003', body: 'rcs' }], { channel: { id: rcsChannel, platform: 'rcs' } })));
    const smsAdapter = scriptedAdapter(() => {});
    const dispatcher = new Dispatcher({
      db, sendWindow: () => null, idleMs: 20,
      adapters: { adapterFor: async (id) => (id === rcsChannel ? adapter : { ...smsAdapter, submit: async (ms: readonly OutboundMessage[]) => ms.map((_, i) => ({ kind: 'accepted' as const, providerMessageId: `sms${i}` })) }), fallbackFor: async () => ({ id: smsChannel, platform: 'sms' }) },
    });
    await dispatcher.start();
    await until(async () => (await db.selectFrom('messages').select('state').where('id', '=', enq.ids[0]).executeTakeFirstOrThrow()).state === 'sent', 'fallback sent');
    await dispatcher.stop();
    const row = await db.selectFrom('messages').select(['channel_id', 'held_reason']).where('id', '=', enq.ids[0]).executeTakeFirstOrThrow();
    expect(row).toEqual({ channel_id: smsChannel, held_reason: 'fallbackSms' });
  });

  it('a worker declared dead while it stalled does not send the rows put in doubt, and rejoins', async () => {
    const enq = await db.transaction().execute((trx) => enqueueMessages(trx, request([{ to: '+573002207771', body: 'stall 1' }, { to: '+573002207772', body: 'stall 2' }])));
    const submitted: string[] = [];
    const adapter: ChannelAdapter = {
      platform: 'sms',
      async submit(ms) { submitted.push(...ms.map((m) => m.to)); return ms.map((m) => ({ kind: 'accepted' as const, providerMessageId: `stall-${m.id}` })); },
      async close() {},
    };
    let stalled = false;
    const logged: string[] = [];
    const dispatcher = new Dispatcher({
      db, sendWindow: () => null, idleMs: 20, workerId: 'stalled', log: (m) => logged.push(m),
      adapters: {
        // The stall, once, between the claim and the submit: meanwhile another worker found this
        // one's heartbeat stale, removed it and put its rows in doubt.
        adapterFor: async () => {
          const claimed = await db.selectFrom('messages').select('id').where('id', 'in', enq.ids).where('state', '=', 'sending').execute();
          if (!stalled && claimed.length) {
            stalled = true;
            await db.deleteFrom('engine_workers').where('id', '=', 'stalled').execute();
            await markDeadWorkersRowsInDoubt(db, 'another', new Date());
          }
          return adapter;
        },
      },
    });
    await dispatcher.start();
    await until(async () => logged.some((m) => m.includes('put in doubt before their submit')), 'the stalled batch skipped');
    const states = await db.selectFrom('messages').select('state').where('id', 'in', enq.ids).execute();
    expect(states.map((r) => r.state)).toEqual(['in_doubt', 'in_doubt']);
    expect(submitted).toEqual([]);
    await dispatcher.maintain();
    expect(await db.selectFrom('engine_workers').select('id').where('id', '=', 'stalled').execute()).toEqual([{ id: 'stalled' }]);
    expect(logged.some((m) => m.startsWith('heartbeat lapsed'))).toBe(true);
    await dispatcher.stop();
    await db.updateTable('messages').set({ state: 'failed', in_doubt_since: null }).where('id', 'in', enq.ids).execute();
  });
});
