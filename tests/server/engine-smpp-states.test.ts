// The message states an SMSC's refusals lead to, end to end on the database (PGlite, or PostgreSQL
// with DATABASE_URL) and a real SMPP server on loopback: a full queue past the adapter's patience
// leaves the message 'overflow' with status 70 (failed attempt) until its back-off is over, then it
// goes; a sender the operator refused (ESME_RINVSRCADR at submit, or a REJECTD receipt) reads
// 'unauthorized' with the network status UNAUTHORIZED, never 'failed' or a success code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import type { Database } from '../../src/engine/database.ts';
import { startMessaging, type MessagingRuntime } from '../../src/server/messaging/runtime.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import { Status } from '../../src/engine/channels/sms/wire.ts';
import { createHarness, type Harness } from './harness.ts';

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
  // Short patience with a throttling SMSC, so a full queue overflows within the test.
  runtime = await startMessaging({
    db: h.db, secrets: defaultSecretBox(), sandbox: true, dispatcher: { batchSize: 50, idleMs: 20, leaseMs: 900 },
    smpp: { window: 10, tps: null, throttleInitialMs: 20, throttleMaxMs: 40, throttleGiveUpMs: 100 },
  });
}, 120_000);
afterAll(async () => { await runtime?.close(); await h.close(); });

async function send(to: string, body: string): Promise<number> {
  const ids = await db.transaction().execute((trx) => enqueueMessages(trx, {
    companyId, channel: { id: channelId, platform: 'sms' }, purpose: 'transactional', source: 'api', items: [{ to, body }],
    duplicateWindowHours: 0, heldUntil: null, now: new Date(), onInsufficientCredits: 'reject',
  }));
  runtime.dispatcher.wake();
  return Number(ids.ids[0]);
}

const message = (id: number) => db.selectFrom('messages').select(['state', 'status_code', 'delivery_status', 'error_code']).where('id', '=', id).executeTakeFirstOrThrow();

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('SMSC refusals and the message states they lead to', () => {
  it('a full queue: overflow with 70 and an event saying why, then sent and delivered once the queue has room', async () => {
    const smsc = runtime.smsc!;
    smsc.configure({ queueFull: true });
    const id = await send('+573104440001', 'Tu cita es mañana');
    const overflowed = await until(() => message(id), (m) => m.state === 'overflow', 'overflow');
    expect(overflowed.status_code).toBe(70);
    const event = await db.selectFrom('message_events').select(['state', 'status_code', 'detail']).where('message_id', '=', id).where('state', '=', 'overflow').executeTakeFirstOrThrow();
    expect(event).toMatchObject({ status_code: 70, detail: expect.stringMatching(/limit/) });
    expect(smsc.messagesTo('573104440001')).toHaveLength(0);
    smsc.configure({ queueFull: false });
    const done = await until(() => message(id), (m) => m.state === 'delivered', 'delivered');
    expect(done.status_code).toBe(3);
    expect(smsc.messagesTo('573104440001')).toHaveLength(1);
  });

  it('a sender the operator refused at submit: unauthorized, UNAUTHORIZED, the SMSC\'s code kept, credits given back', async () => {
    const smsc = runtime.smsc!;
    smsc.configure({ rules: [{ suffix: '5555', submitStatus: Status.RINVSRCADR }] });
    const before = await db.selectFrom('company_credits').select(['balance', 'reserved']).where('company_id', '=', companyId).executeTakeFirstOrThrow();
    const id = await send('+573104445555', 'Promo');
    const m = await until(() => message(id), (r) => r.state !== 'queued' && r.state !== 'sending', 'an answer');
    expect(m).toEqual({ state: 'unauthorized', delivery_status: 'UNAUTHORIZED', status_code: 92, error_code: 'ESME_RINVSRCADR' });
    const after = await db.selectFrom('company_credits').select(['balance', 'reserved']).where('company_id', '=', companyId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    smsc.configure({ rules: [] });
  });

  it('a REJECTD receipt: the accepted message ends unauthorized with 92, not the 3 of its submit', async () => {
    const smsc = runtime.smsc!;
    smsc.configure({ rules: [{ suffix: '4444', stat: 'REJECTD' }] });
    const id = await send('+573104444444', 'Aviso');
    const m = await until(() => message(id), (r) => r.state === 'unauthorized', 'unauthorized');
    expect(m).toMatchObject({ delivery_status: 'UNAUTHORIZED', status_code: 92 });
    smsc.configure({ rules: [] });
  });
});
