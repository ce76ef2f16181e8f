// A batch that fails after its claim, in a worker that stays alive: the database connection drops
// (pg_terminate_backend, a failover) or a deadlock aborts the write of the submit answers. The
// answers are written on a retry; rows that still end up held by no batch go in doubt at the
// worker's next maintenance round instead of staying 'sending' under a heartbeat that never goes
// stale (nobody else would ever recover them), and their receipts adopt them.
// On PGlite, and on PostgreSQL with DATABASE_URL.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Kysely, KyselyPlugin, RootOperationNode } from 'kysely';
import type { ChannelAdapter, SubmitOutcome } from '../../src/engine/channel-adapter.ts';
import { balanceOf } from '../../src/engine/credits.ts';
import { Dispatcher } from '../../src/engine/dispatcher.ts';
import { claimQueued } from '../../src/engine/lifecycle/dispatch.ts';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import { databaseSink, reconcileOrphans } from '../../src/engine/receipts.ts';
import { userReferenceOf } from '../../src/engine/user-reference.ts';
import type { Database } from '../../src/engine/database.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();
let db: Kysely<Database>;
let companyId: number;
let smsChannel: number;
let numbers = 0;

beforeAll(async () => {
  db = h.db;
  companyId = (await db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  smsChannel = (await db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('platform', '=', 'sms').orderBy('id').executeTakeFirstOrThrow()).id;
});

async function enqueue(count: number, now = new Date()): Promise<string[]> {
  const enq = await db.transaction().execute((trx) => enqueueMessages(trx, {
    companyId, channel: { id: smsChannel, platform: 'sms' }, purpose: 'transactional', source: 'api',
    items: Array.from({ length: count }, () => ({ to: `+57300770${String(++numbers).padStart(4, '0')}`, body: 'hola' })),
    duplicateWindowHours: 0, heldUntil: null, now, onInsufficientCredits: 'reject',
  }));
  return enq.ids.map(String);
}

const stateOf = async (id: string) => (await db.selectFrom('messages').select(['state', 'provider_message_id', 'worker_id']).where('id', '=', id).executeTakeFirstOrThrow());

/** A provider that accepts everything, as `p<id>`. */
const accepting: ChannelAdapter = {
  platform: 'sms',
  async submit(messages) {
    return messages.map((m): SubmitOutcome => ({ kind: 'accepted', providerMessageId: `p${m.id}` }));
  },
  async close() {},
};

/** The database handle with the connection "terminated" under the first `times` writes of submit answers, as pg reports it. */
function droppingRecords(times: number): { db: Kysely<Database>; dropped: () => number } {
  let dropped = 0;
  const isRecord = (node: RootOperationNode) => node.kind === 'RawNode' && node.sqlFragments.join('').includes("set state = 'sent', status_code");
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (dropped < times && isRecord(args.node)) {
        dropped++;
        throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), dropped: () => dropped };
}

describe('a batch that fails after its claim in a live worker', () => {
  it('writes the submit answers on a new connection when the first one was dropped', async () => {
    const ids = await enqueue(3);
    const faulty = droppingRecords(2);
    const dispatcher = new Dispatcher({ db: faulty.db, adapters: { adapterFor: async () => accepting }, sendWindow: () => null, batchSize: 3 });
    const before = await balanceOf(db, companyId);
    expect(await dispatcher.runOnce()).toBe(3);
    expect(faulty.dropped()).toBe(2);
    for (const id of ids) expect(await stateOf(id)).toMatchObject({ state: 'sent', provider_message_id: `p${id}`, worker_id: null });
    // Billed once (the reservation consumed): the two aborted writes took nothing.
    expect(before.reserved - (await balanceOf(db, companyId)).reserved).toBe(3);
  });

  it('puts the rows it claimed and no longer holds in doubt at its next maintenance round; their receipt adopts them', async () => {
    const [old, young] = await enqueue(2, new Date(Date.now() - 60_000));
    const dispatcher = new Dispatcher({ db, adapters: { adapterFor: async () => accepting }, sendWindow: () => null, leaseMs: 5_000 });
    // What a batch whose record failed for good (or whose claim's commit answer was lost) leaves:
    // rows 'sending' under this live worker, one claimed a lease ago, one just now.
    await claimQueued(db, dispatcher.workerId, 1, new Date(Date.now() - 6_000));
    await claimQueued(db, dispatcher.workerId, 1, new Date());
    expect((await stateOf(old)).state).toBe('sending');
    await dispatcher.maintain();
    expect(await stateOf(old)).toMatchObject({ state: 'in_doubt', worker_id: null });
    // A claim younger than the lease may be a batch still on its way.
    expect(await stateOf(young)).toMatchObject({ state: 'sending', worker_id: dispatcher.workerId });

    // It had left: the provider's receipt names it by destination and user reference.
    const to = (await db.selectFrom('messages').select('to_number').where('id', '=', old).executeTakeFirstOrThrow()).to_number;
    const sink = databaseSink({ db });
    await sink.status(smsChannel, { providerMessageId: 'smsc-77', status: 'DELIVERED', at: new Date(), destination: to, userReference: userReferenceOf(old), scope: 'unknown' });
    await sink.close();
    await reconcileOrphans(db, new Date());
    expect(await stateOf(old)).toMatchObject({ state: 'delivered', provider_message_id: 'smsc-77' });
  });
});
