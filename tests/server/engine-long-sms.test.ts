// Long SMS on the database (PGlite, or PostgreSQL with DATABASE_URL): a message of N parts is
// decided by its parts' receipts, stored one by one, not by a worker's memory. The dispatcher
// stores the part ids with the submit answer; receipts arrive as 'part' (the adapter knew the id)
// or 'unknown' (a restarted worker, whose memory is empty); a receipt before the answer is stored
// waits as an orphan; a message whose worker died before storing the answer (in doubt) gets its
// parts from the receipts that name it by destination and user_message_reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { ChannelAdapter, StatusEvent, SubmitOutcome } from '../../src/engine/channel-adapter.ts';
import { addCredits, balanceOf } from '../../src/engine/credits.ts';
import { Dispatcher } from '../../src/engine/dispatcher.ts';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import { databaseSink, type DatabaseSink } from '../../src/engine/receipts.ts';
import type { Database } from '../../src/engine/database.ts';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
let db: Kysely<Database>;
let companyId: number;
let channelId: number;
let sink: DatabaseSink;

/** 161 plain characters: two parts (protocols.md section 0). */
const TWO_PARTS = 'a'.repeat(161);
/** 307 plain characters: three parts. */
const THREE_PARTS = 'b'.repeat(307);

beforeAll(async () => {
  h = await createHarness();
  db = h.db;
  const other = await h.addCompany('Largos S.A.S.', []);
  companyId = other.companyId;
  await addCredits(db, 'grant', { companyId, amount: 1000, now: new Date() });
  channelId = (await h.db.insertInto('channels').values({
    company_id: companyId, name: 'sms', platform: 'sms', type: 'MT', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: new Date(), updated_at: new Date(),
  } as never).returning('id').executeTakeFirstOrThrow()).id;
  sink = databaseSink({ db });
});
afterAll(async () => {
  await sink.close();
  await h.close();
});

let seq = 0;
/** An SMSC stand-in that accepts every message and gives each part its own id. */
function partsAdapter(partsOf: (text: string) => number): ChannelAdapter & { sent: Map<string, string[]> } {
  const sent = new Map<string, string[]>();
  return {
    platform: 'sms',
    sent,
    async submit(messages) {
      return messages.map((m): SubmitOutcome => {
        const ids = Array.from({ length: partsOf(m.text ?? '') }, () => `L${++seq}`);
        sent.set(m.id, ids);
        return ids.length > 1 ? { kind: 'accepted', providerMessageId: ids[0], partIds: ids } : { kind: 'accepted', providerMessageId: ids[0] };
      });
    },
    async close() {},
  };
}

const partsOf = (text: string) => (text.length > 300 ? 3 : text.length > 160 ? 2 : 1);

async function enqueue(items: { to: string; body: string }[]) {
  return (await db.transaction().execute((trx) => enqueueMessages(trx, {
    companyId, channel: { id: channelId, platform: 'sms' }, purpose: 'transactional', source: 'api', items,
    duplicateWindowHours: 0, heldUntil: null, now: new Date(), onInsufficientCredits: 'reject',
  }))).ids.map(String);
}

/** Sends the queued rows through a dispatcher and the given adapter; answers when none is left queued. */
async function dispatch(adapter: ChannelAdapter) {
  const dispatcher = new Dispatcher({ db, adapters: { adapterFor: async (id) => (id === channelId ? adapter : null) }, sendWindow: () => null, idleMs: 20 });
  await dispatcher.start();
  const end = Date.now() + 20_000;
  while ((await db.selectFrom('messages').select('id').where('channel_id', '=', channelId).where('state', 'in', ['queued', 'sending']).execute()).length) {
    if (Date.now() > end) throw new Error('timed out waiting for the rows to be handed over');
    await new Promise((r) => setImmediate(r));
  }
  return dispatcher;
}

const message = async (id: string) => db.selectFrom('messages').select(['state', 'delivery_status', 'error_code', 'provider_message_id', 'parts', 'billed']).where('id', '=', id).executeTakeFirstOrThrow();
const receipt = (pid: string, status: StatusEvent['status'], extra: Partial<StatusEvent> = {}): StatusEvent => ({ providerMessageId: pid, status, at: new Date(), ...extra });

describe('a long SMS is decided by all its parts', () => {
  it('stores the part ids with the submit answer; delivered only when every part is', async () => {
    const adapter = partsAdapter(partsOf);
    const [id] = await enqueue([{ to: '+573101000001', body: THREE_PARTS }]);
    const dispatcher = await dispatch(adapter);
    await dispatcher.stop();
    const ids = adapter.sent.get(id)!;
    expect(ids).toHaveLength(3);
    const stored = await db.selectFrom('message_parts').select('provider_part_id').where('message_id', '=', id).orderBy('provider_part_id').execute();
    expect(stored.map((p) => p.provider_part_id).sort()).toEqual([...ids].sort());
    expect(await message(id)).toMatchObject({ state: 'sent', provider_message_id: ids[0], parts: 3 });

    await sink.status(channelId, receipt(ids[0], 'DELIVERED', { scope: 'part' }));
    await sink.status(channelId, receipt(ids[2], 'DELIVERED', { scope: 'part' }));
    // An intermediate receipt of a part decides nothing and is no orphan.
    await sink.status(channelId, receipt(ids[1], 'SENT', { scope: 'part' }));
    expect(await message(id)).toMatchObject({ state: 'sent', delivery_status: 'SENT' });
    await sink.status(channelId, receipt(ids[1], 'DELIVERED', { scope: 'part' }));
    expect(await message(id)).toMatchObject({ state: 'delivered', delivery_status: 'DELIVERED' });
    const events = await db.selectFrom('message_events').select('state').where('message_id', '=', id).where('detail', '=', 'receipt').execute();
    expect(events.map((e) => e.state)).toEqual(['delivered']);
    expect(await db.selectFrom('orphan_receipts').select('id').where('channel_id', '=', channelId).execute()).toEqual([]);
  });

  it('fails at the first failed part, and later parts change nothing', async () => {
    const adapter = partsAdapter(partsOf);
    const [id] = await enqueue([{ to: '+573101000002', body: THREE_PARTS }]);
    await (await dispatch(adapter)).stop();
    const ids = adapter.sent.get(id)!;
    await sink.status(channelId, receipt(ids[1], 'FAILED', { scope: 'part', errorCode: '034' }));
    expect(await message(id)).toMatchObject({ state: 'failed', delivery_status: 'FAILED', error_code: '034' });
    await sink.status(channelId, receipt(ids[0], 'DELIVERED', { scope: 'part' }));
    await sink.status(channelId, receipt(ids[2], 'DELIVERED', { scope: 'part' }));
    expect(await message(id)).toMatchObject({ state: 'failed', delivery_status: 'FAILED' });
  });

  it('times out when a part expired and none failed', async () => {
    const adapter = partsAdapter(partsOf);
    const [id] = await enqueue([{ to: '+573101000003', body: TWO_PARTS }]);
    await (await dispatch(adapter)).stop();
    const [a, b] = adapter.sent.get(id)!;
    await sink.status(channelId, receipt(a, 'DELIVERED', { scope: 'part' }));
    await sink.status(channelId, receipt(b, 'TIME_OUT', { scope: 'part', errorCode: '027' }));
    expect(await message(id)).toMatchObject({ state: 'timeout', delivery_status: 'TIME_OUT', error_code: '027' });
  });

  it('a restarted worker (receipts of unknown scope) finishes a message whose first parts the dead one had stored', async () => {
    const adapter = partsAdapter(partsOf);
    const [id] = await enqueue([{ to: '+573101000004', body: THREE_PARTS }]);
    await (await dispatch(adapter)).stop();
    const ids = adapter.sent.get(id)!;
    // The first worker stored part 2's receipt, then died.
    await sink.status(channelId, receipt(ids[1], 'DELIVERED', { scope: 'part' }));
    // Its successor knows none of the ids: the first part's receipt names the message's own
    // provider id, and must not decide the message on its own.
    await sink.status(channelId, receipt(ids[0], 'DELIVERED', { scope: 'unknown', destination: '+573101000004' }));
    expect(await message(id)).toMatchObject({ state: 'sent' });
    await sink.status(channelId, receipt(ids[2], 'DELIVERED', { scope: 'unknown', destination: '+573101000004' }));
    expect(await message(id)).toMatchObject({ state: 'delivered' });
    expect(await db.selectFrom('orphan_receipts').select('id').where('channel_id', '=', channelId).execute()).toEqual([]);
  });

  it('a worker that died between storing the last part and deciding the message: the receipt delivered again decides it', async () => {
    const adapter = partsAdapter(partsOf);
    const [id] = await enqueue([{ to: '+573101000010', body: TWO_PARTS }]);
    await (await dispatch(adapter)).stop();
    const [a, b] = adapter.sent.get(id)!;
    await sink.status(channelId, receipt(a, 'DELIVERED', { scope: 'part' }));
    // The dead worker stored part b's status; its decision never ran, its acknowledgement never left.
    await db.updateTable('message_parts').set({ delivery_status: 'DELIVERED', at: new Date() }).where('provider_part_id', '=', b).execute();
    expect(await message(id)).toMatchObject({ state: 'sent' });
    await sink.status(channelId, receipt(b, 'DELIVERED', { scope: 'unknown' }));
    expect(await message(id)).toMatchObject({ state: 'delivered' });
  });

  it('a single-part message is still decided by a receipt of unknown scope', async () => {
    const adapter = partsAdapter(partsOf);
    const [id] = await enqueue([{ to: '+573101000005', body: 'corto' }]);
    await (await dispatch(adapter)).stop();
    const [only] = adapter.sent.get(id)!;
    expect(await db.selectFrom('message_parts').select('provider_part_id').where('message_id', '=', id).execute()).toEqual([]);
    await sink.status(channelId, receipt(only, 'DELIVERED', { scope: 'unknown' }));
    expect(await message(id)).toMatchObject({ state: 'delivered' });
  });

  it('a long message cut between parts (its worker died) goes again whole after the grace period; its cut parts\' receipts are dropped', async () => {
    const [id] = await enqueue([{ to: '+573101000009', body: THREE_PARTS }]);
    const at = new Date(Date.now() - 60_000);
    await db.updateTable('messages').set({ state: 'in_doubt', in_doubt_since: at, claimed_at: at, attempts: 1 }).where('id', '=', id).execute();
    const reference = Number(BigInt(id) % 65536n);
    await sink.status(channelId, receipt('C1', 'DELIVERED', { scope: 'unknown', destination: '+573101000009', userReference: reference }));
    const logged: string[] = [];
    const dispatcher = new Dispatcher({ db, adapters: { adapterFor: async () => null }, sendWindow: () => null, inDoubtGraceMs: 30_000, log: (m) => logged.push(m) });
    await dispatcher.maintain();
    expect(await message(id)).toMatchObject({ state: 'queued', billed: false });
    expect(await db.selectFrom('orphan_receipts').select('id').where('channel_id', '=', channelId).execute()).toEqual([]);
    expect(logged).toContain('dropped 1 receipt(s) of long messages cut between parts, which go again whole');
    // Sent again whole: decided by the new attempt's parts.
    const adapter = partsAdapter(partsOf);
    await (await dispatch(adapter)).stop();
    const ids = adapter.sent.get(id)!;
    for (const pid of ids) await sink.status(channelId, receipt(pid, 'DELIVERED', { scope: 'part' }));
    expect(await message(id)).toMatchObject({ state: 'delivered', billed: true });
  });

  it('a receipt of unknown scope naming a long message whose parts are not stored (yet) waits, and never decides it alone', async () => {
    const [id] = await enqueue([{ to: '+573101000008', body: TWO_PARTS }]);
    // The answer is being stored by another worker's transaction: the message row carries the
    // first part's id, its part rows are not visible yet.
    await db.updateTable('messages').set({ state: 'sent', provider_message_id: 'W1', delivery_status: 'SENT' }).where('id', '=', id).execute();
    await sink.status(channelId, receipt('W1', 'DELIVERED', { scope: 'unknown' }));
    expect(await message(id)).toMatchObject({ state: 'sent' });
    expect((await db.selectFrom('orphan_receipts').select('provider_message_id').where('channel_id', '=', channelId).execute()).map((o) => o.provider_message_id)).toEqual(['W1']);
    const dispatcher = new Dispatcher({ db, adapters: { adapterFor: async () => null }, sendWindow: () => null });
    await dispatcher.maintain();
    expect(await message(id)).toMatchObject({ state: 'sent' });
    // The part rows land: the waiting receipt is applied as the part it is.
    await db.insertInto('message_parts').values([{ channel_id: channelId, provider_part_id: 'W1', message_id: id }, { channel_id: channelId, provider_part_id: 'W2', message_id: id }]).execute();
    await dispatcher.maintain();
    expect(await db.selectFrom('message_parts').select('delivery_status').where('provider_part_id', '=', 'W1').executeTakeFirstOrThrow()).toEqual({ delivery_status: 'DELIVERED' });
    expect(await message(id)).toMatchObject({ state: 'sent' });
    await sink.status(channelId, receipt('W2', 'DELIVERED', { scope: 'unknown' }));
    expect(await message(id)).toMatchObject({ state: 'delivered' });
  });

  it('part receipts that come before the submit answer is stored wait, and are applied once it is', async () => {
    const early: Promise<void>[] = [];
    const inner = partsAdapter(partsOf);
    const adapter: ChannelAdapter = {
      platform: 'sms',
      async submit(messages) {
        const outcomes = await inner.submit(messages);
        for (const o of outcomes) if (o.kind === 'accepted') for (const pid of o.partIds ?? []) early.push(Promise.resolve(sink.status(channelId, receipt(pid, 'DELIVERED', { scope: 'part' }))));
        await Promise.all(early);
        return outcomes;
      },
      async close() {},
    };
    const [id] = await enqueue([{ to: '+573101000006', body: TWO_PARTS }]);
    const dispatcher = await dispatch(adapter);
    const end = Date.now() + 20_000;
    while ((await message(id)).state !== 'delivered') {
      if (Date.now() > end) throw new Error(`still ${JSON.stringify(await message(id))}`);
      await dispatcher.maintain();
    }
    await dispatcher.stop();
    expect(early).toHaveLength(2);
    expect(await db.selectFrom('orphan_receipts').select('id').where('channel_id', '=', channelId).execute()).toEqual([]);
  });

  it('an in-doubt long message is adopted from its parts\' receipts, billed once, and decided by all of them', async () => {
    const before = await balanceOf(db, companyId);
    const [id] = await enqueue([{ to: '+573101000007', body: THREE_PARTS }]);
    // Its worker handed it over and died before storing the answers.
    const now = new Date();
    await db.updateTable('messages').set({ state: 'in_doubt', in_doubt_since: now, claimed_at: now, attempts: 1 }).where('id', '=', id).execute();
    const reference = Number(BigInt(id) % 65536n);
    const named = (pid: string, status: StatusEvent['status']) => receipt(pid, status, { scope: 'unknown', destination: '+573101000007', userReference: reference });
    await sink.status(channelId, named('D1', 'DELIVERED'));
    await sink.status(channelId, named('D2', 'DELIVERED'));
    const dispatcher = new Dispatcher({ db, adapters: { adapterFor: async () => null }, sendWindow: () => null });
    await dispatcher.maintain();
    // Two of three parts named: it may have been cut between parts, it stays in doubt.
    expect(await message(id)).toMatchObject({ state: 'in_doubt', billed: false });
    await sink.status(channelId, named('D3', 'DELIVERED'));
    await dispatcher.maintain();
    expect(await message(id)).toMatchObject({ state: 'delivered', billed: true });
    const parts = await db.selectFrom('message_parts').select(['provider_part_id', 'delivery_status']).where('message_id', '=', id).orderBy('provider_part_id').execute();
    expect(parts).toEqual([{ provider_part_id: 'D1', delivery_status: 'DELIVERED' }, { provider_part_id: 'D2', delivery_status: 'DELIVERED' }, { provider_part_id: 'D3', delivery_status: 'DELIVERED' }]);
    const after = await balanceOf(db, companyId);
    expect(before.balance - after.balance).toBe(3);
    expect(after.reserved).toBe(before.reserved);
    const left = await sql<{ n: string }>`select count(*) as n from orphan_receipts where channel_id = ${channelId}`.execute(db);
    expect(Number(left.rows[0].n)).toBe(0);
  });
});
