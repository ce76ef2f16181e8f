// When an in-doubt message goes again (found by the crash test under load): not only
// after its grace, but once the channel's receipts have passed it. A restarted worker reads what
// the SMSC kept behind everything queued before it; a grace that ran out inside that backlog sent
// 2,557 of 100,000 messages a second time although their receipts were on their way.
// On PGlite, and on PostgreSQL with DATABASE_URL.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import { RECEIPT_ORDER_SLACK_MS, recordReceiptProgress, resendExpiredInDoubt } from '../../src/engine/lifecycle/in-doubt.ts';
import { databaseSink } from '../../src/engine/receipts.ts';
import type { Database } from '../../src/engine/database.ts';
import { createSecretBox } from '../../src/server/security/secrets.ts';
import { fileHarness } from './file-harness.ts';
import { insertSmppChannel } from './engine-crash-incarnations.ts';

const h = fileHarness();
let db: Kysely<Database>;
let companyId: number;
const secrets = createSecretBox(randomBytes(32));
let channels = 0;

beforeAll(async () => {
  db = h.db;
  companyId = (await db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
});

const NOW = new Date();
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const GRACE = 15_000;
const expiry = { graceBefore: ago(GRACE), maxBefore: ago(10 * 60_000), now: NOW };

type Row = { state: 'sent' | 'in_doubt'; claimedAgo: number; inDoubtAgo?: number };

/** A channel of its own with one message per row, in the given states; answers the ids in order. */
async function scene(rows: Row[]): Promise<{ channelId: number; ids: string[] }> {
  const n = ++channels;
  const channelId = await insertSmppChannel(db, secrets, { companyId, name: `in-doubt ${n}`, sender: `7766${n}`, password: 'x', connection: { host: '127.0.0.1', port: 1 } });
  const enq = await db.transaction().execute((trx) => enqueueMessages(trx, {
    companyId, channel: { id: channelId, platform: 'sms' }, purpose: 'transactional', source: 'api',
    items: rows.map((_, i) => ({ to: `+5730055${String(n).padStart(2, '0')}${String(i).padStart(3, '0')}`, body: 'hola' })),
    duplicateWindowHours: 0, heldUntil: null, now: ago(20 * 60_000), onInsufficientCredits: 'reject',
  }));
  const ids = enq.ids.map(String);
  for (const [i, row] of rows.entries()) {
    await db.updateTable('messages').set({
      state: row.state, claimed_at: ago(row.claimedAgo),
      provider_message_id: row.state === 'sent' ? `pid-${ids[i]}` : null,
      in_doubt_since: row.state === 'in_doubt' ? ago(row.inDoubtAgo ?? 0) : null,
    }).where('id', '=', ids[i]).execute();
  }
  return { channelId, ids };
}

const stateOf = async (id: string) => (await db.selectFrom('messages').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;

async function receipt(channelId: number, providerMessageId: string, extra: { destination?: string; userReference?: number } = {}) {
  const sink = databaseSink({ db });
  await sink.status(channelId, { providerMessageId, status: 'DELIVERED', at: NOW, ...extra });
  await sink.close();
}

describe('an in-doubt message goes again', () => {
  it('never before its grace, even when nothing else waits', async () => {
    const { ids } = await scene([{ state: 'in_doubt', claimedAgo: 20_000, inDoubtAgo: GRACE - 1_000 }]);
    await resendExpiredInDoubt(db, expiry);
    expect(await stateOf(ids[0])).toBe('in_doubt');
  });

  it('after its grace when nothing handed over before it still waits for a receipt, and no receipt came for a moment', async () => {
    const { channelId, ids } = await scene([
      { state: 'sent', claimedAgo: 25_000 + RECEIPT_ORDER_SLACK_MS + 1_000 },
      { state: 'in_doubt', claimedAgo: 25_000, inDoubtAgo: GRACE + 1_000 },
    ]);
    // The last receipt of a backlog just came: the ones right behind it (its own, maybe) may follow.
    await receipt(channelId, `pid-${ids[0]}`);
    expect(await stateOf(ids[0])).toBe('delivered');
    expect(await resendExpiredInDoubt(db, expiry)).toEqual({ requeued: 0, dropped: 0 });
    expect(await stateOf(ids[1])).toBe('in_doubt');
    // Quiet for longer than the slack: what the channel had to say has been said.
    await recordReceiptProgress(db, channelId, null, ago(RECEIPT_ORDER_SLACK_MS + 1_000));
    expect(await resendExpiredInDoubt(db, expiry)).toEqual({ requeued: 1, dropped: 0 });
    expect(await stateOf(ids[1])).toBe('queued');
  });

  it('not while the receipts of what was handed over before it are still coming, until one passes it', async () => {
    const { channelId, ids } = await scene([
      { state: 'sent', claimedAgo: 60_000 },
      { state: 'in_doubt', claimedAgo: 40_000, inDoubtAgo: 30_000 },
      { state: 'sent', claimedAgo: 40_000 - RECEIPT_ORDER_SLACK_MS / 2 },
      { state: 'sent', claimedAgo: 20_000 },
    ]);
    await resendExpiredInDoubt(db, expiry);
    expect(await stateOf(ids[1])).toBe('in_doubt');
    // A receipt of a message handed over just after it (within the slack) says nothing yet …
    await receipt(channelId, `pid-${ids[2]}`);
    await resendExpiredInDoubt(db, expiry);
    expect(await stateOf(ids[1])).toBe('in_doubt');
    // … one of a message handed over well after it does: its own receipt would have come first.
    await receipt(channelId, `pid-${ids[3]}`);
    expect((await db.selectFrom('receipt_progress').select('through').where('channel_id', '=', channelId).executeTakeFirstOrThrow()).through).toEqual(ago(20_000));
    expect(await resendExpiredInDoubt(db, expiry)).toEqual({ requeued: 1, dropped: 0 });
    expect(await stateOf(ids[1])).toBe('queued');
    expect(await stateOf(ids[0])).toBe('sent');
  });

  it('not when its own receipt is already stored (it is adopted instead)', async () => {
    const { channelId, ids } = await scene([
      { state: 'in_doubt', claimedAgo: 40_000, inDoubtAgo: 30_000 },
      { state: 'sent', claimedAgo: 20_000 },
    ]);
    const to = (await db.selectFrom('messages').select('to_number').where('id', '=', ids[0]).executeTakeFirstOrThrow()).to_number;
    await receipt(channelId, 'smsc-own', { destination: to, userReference: Number(ids[0]) % 65536 });
    await receipt(channelId, `pid-${ids[1]}`);
    expect(await resendExpiredInDoubt(db, expiry)).toEqual({ requeued: 0, dropped: 0 });
    expect(await stateOf(ids[0])).toBe('in_doubt');
  });

  it('after ENGINE_IN_DOUBT_MAX_MS whatever the receipts say', async () => {
    const { ids } = await scene([
      { state: 'sent', claimedAgo: 12 * 60_000 },
      { state: 'in_doubt', claimedAgo: 11 * 60_000, inDoubtAgo: 10 * 60_000 + 1_000 },
      { state: 'in_doubt', claimedAgo: 9 * 60_000, inDoubtAgo: 9 * 60_000 },
    ]);
    expect(await resendExpiredInDoubt(db, expiry)).toEqual({ requeued: 1, dropped: 0 });
    expect([await stateOf(ids[1]), await stateOf(ids[2])]).toEqual(['queued', 'in_doubt']);
  });
});
