// End to end on the database (PGlite, or PostgreSQL with DATABASE_URL) and a real SMPP server on
// loopback: a campaign's worth of API messages goes through the dispatcher and the SMPP adapter
// to the sandbox SMSC, every message reaches DELIVERED with its receipt, each recipient was seen
// exactly once, and the credits reconcile to the message count; then the same with failures,
// throttling and a dropped connection mid-run. SALIR from a handset adds it to the block list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { balanceOf } from '../../src/engine/credits.ts';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import type { Database } from '../../src/engine/database.ts';
import { startMessaging, type MessagingRuntime } from '../../src/server/messaging/runtime.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import { servingNetwork } from '../../src/sandbox/smsc/receipts.ts';
import { createHarness, type Harness } from './harness.ts';

const COUNT = Number(process.env.ENGINE_SMPP_COUNT ?? 10_000);
let h: Harness;
let db: Kysely<Database>;
let runtime: MessagingRuntime;
let companyId: number;
let channelId: number;

beforeAll(async () => {
  h = await createHarness();
  db = h.db;
  const channel = await h.db.selectFrom('channels').select(['id', 'company_id']).where('platform', '=', 'sms').where('type', '=', 'MT').orderBy('id').executeTakeFirstOrThrow();
  ({ id: channelId, company_id: companyId } = channel);
  runtime = await startMessaging({ db: h.db, secrets: defaultSecretBox(), sandbox: true, dispatcher: { batchSize: 500, idleMs: 50, leaseMs: 2000 }, smpp: { window: 50, tps: null } });
}, 120_000);
afterAll(async () => { await runtime?.close(); await h.close(); });

async function send(numbers: string[], body: string) {
  const ids = await db.transaction().execute((trx) => enqueueMessages(trx, {
    companyId, channel: { id: channelId, platform: 'sms' }, purpose: 'transactional', source: 'api', items: numbers.map((to) => ({ to, body })),
    duplicateWindowHours: 0, heldUntil: null, now: new Date(), onInsufficientCredits: 'reject',
  }));
  runtime.dispatcher.wake();
  return ids.ids;
}

/** Waits until none of this test's API messages is still open (queued, sending, sent or in doubt). */
async function settled(timeoutMs = 240_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const row = await db.selectFrom('messages').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('deployment_id', 'is', null).where('channel_id', '=', channelId).where('state', 'in', ['queued', 'sending', 'sent', 'in_doubt']).executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    if (Date.now() > end) throw new Error(`${row.n} messages still open`);
    await new Promise((r) => setImmediate(r));
  }
}

/** Distinct mobile numbers that never end in 0000 (the SMSC's failing suffix) unless asked. */
const numbers = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `+57${prefix}${String(i).padStart(6, '0')}7`);

describe('SMS over SMPP through the engine', () => {
  it(`delivers ${COUNT} messages exactly once and the credits reconcile`, async () => {
    const before = await balanceOf(db, companyId);
    const ids = await send(numbers('301', COUNT), 'Colibri: tu pedido va en camino');
    await settled();
    const states = await db.selectFrom('messages').select(['state']).select((eb) => eb.fn.countAll<string>().as('n')).where('id', 'in', ids).groupBy('state').execute();
    expect(states.map((s) => [s.state, Number(s.n)])).toEqual([['delivered', COUNT]]);
    const smsc = runtime.smsc!;
    expect(smsc.destinations().size).toBeGreaterThanOrEqual(COUNT);
    for (const n of numbers('301', COUNT)) expect(smsc.messagesTo(n.slice(1)).length).toBe(1);
    const after = await balanceOf(db, companyId);
    expect(before.balance - after.balance).toBe(COUNT);
    expect(after.reserved).toBe(before.reserved);
    // Every receipt named the handset's serving network (the sandbox ports one number in eight).
    const networks = await db.selectFrom('messages').select(['to_number', 'network']).where('id', 'in', ids).execute();
    for (const m of networks) expect(m.network).toBe(servingNetwork(m.to_number));
  }, 300_000);

  it('keeps going through failures, throttling and a dropped connection', async () => {
    const smsc = runtime.smsc!;
    smsc.configure({ rules: [{ suffix: '0000', stat: 'UNDELIV' }], throttlePerSecond: 2000 });
    const list = [...numbers('302', 2990), ...Array.from({ length: 10 }, (_, i) => `+573029${String(i).padStart(2, '0')}0000`)];
    const ids = await send(list, 'Recordatorio de tu cita');
    await smsc.until(() => smsc.messages().length >= 1000 + COUNT, 'a third sent', 60_000);
    smsc.dropConnections();
    await settled();
    smsc.configure({ rules: [], throttlePerSecond: null });
    const rows = await db.selectFrom('messages').select(['to_number', 'state', 'status_code']).where('id', 'in', ids).execute();
    for (const r of rows) expect(r.state).toBe(r.to_number.endsWith('0000') ? 'failed' : 'delivered');
    // A delivery the network failed never keeps the 3 (success) of its accepted submit.
    for (const r of rows) expect(r.status_code).toBe(r.to_number.endsWith('0000') ? 92 : 3);
    // A drop may repeat at most one window of messages whose answers were lost (SMPP has no idempotency).
    const repeated = list.filter((n) => smsc.messagesTo(n.slice(1)).length > 1).length;
    expect(repeated).toBeLessThanOrEqual(50);
  }, 300_000);

  it('SALIR from a handset puts it on the block list', async () => {
    const smsc = runtime.smsc!;
    smsc.injectMo({ from: '573009998877', to: '573151234567', text: 'salir', systemId: `ch${channelId}` });
    const end = Date.now() + 30_000;
    let entry;
    while (!(entry = await h.db.selectFrom('block_list').select(['phone', 'effective_at']).where('company_id', '=', companyId).where('phone', '=', '+573009998877').executeTakeFirst())) {
      if (Date.now() > end) throw new Error('not blocked');
      await new Promise((r) => setImmediate(r));
    }
    expect(entry.effective_at.getTime()).toBeGreaterThan(Date.now());
  });
});
