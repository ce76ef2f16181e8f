// Long SMS across worker deaths, on PGlite or PostgreSQL (DATABASE_URL), over SMPP to
// the sandbox SMSC: a deployment of one-, two- and three-part messages (GSM-7 and UCS-2) whose
// parts get a seeded mix of DELIVRD and UNDELIV receipts. The worker dies abruptly twice
// (engine-crash-incarnations.ts: in the same step its database handle refuses every statement and
// its SMPP connections are cut):
//   1. while a batch is in flight, with the SMSC holding every receipt: messages the SMSC took
//      whose answers were never stored are in doubt, and only their parts' receipts (destination
//      and user_message_reference) can tell they left;
//   2. while receipts flow: some parts of a message were stored by the dead worker, the others
//      come to its successor, which has no memory of any id.
// At the end the SMSC saw each recipient exactly once, each message is delivered when all its
// parts were and failed when one was, no receipt is left waiting, and the credits reconcile.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { countSms } from '../../src/core/sms-parts.ts';
import { balanceOf } from '../../src/engine/credits.ts';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import type { Database } from '../../src/engine/database.ts';
import { startSandboxSmsc, type SandboxSmsc } from '../../src/sandbox/smsc/index.ts';
import { createSecretBox } from '../../src/server/security/secrets.ts';
import { createHarness, type Harness } from './harness.ts';
import { crashSmppConnection, inProcessWorker, insertSmppChannel, type Incarnation } from './engine-crash-incarnations.ts';

const COUNT = 600;
const SYSTEM_ID = 'largos';
const SMPP_PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
const KEY = randomBytes(32);
const secrets = createSecretBox(KEY);
// Long enough for a restart and a bind under load; rows that never reached the SMSC go again after it.
const GRACE_MS = 8_000;

let h: Harness;
let db: Kysely<Database>;
let smsc: SandboxSmsc;
let companyId: number;
let channelId: number;
let deploymentId: number;
const lives: Incarnation[] = [];

const recipient = (i: number) => `+5731${String(i).padStart(7, '0')}8`;
/** One, two or three parts (i % 3); every fourth in UCS-2. */
function textOf(i: number): string {
  const ucs2 = i % 4 === 3;
  const length = (ucs2 ? [40, 100, 180] : [40, 200, 400])[i % 3];
  const base = ucs2 ? `Canción ${i} ñá ` : `Pedido ${i} en camino `;
  return base.repeat(Math.ceil(length / base.length)).slice(0, length);
}

beforeAll(async () => {
  h = await createHarness();
  db = h.db;
  smsc = await startSandboxSmsc({ accounts: { [SYSTEM_ID]: SMPP_PASSWORD }, seed: 4242, outcomes: { DELIVRD: 4, UNDELIV: 1 }, holdDeliveries: true });
  companyId = (await h.db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  channelId = await insertSmppChannel(h.db, secrets, { companyId, name: 'SMPP largos', sender: '890124', password: SMPP_PASSWORD, connection: connection(smsc.port) });
}, 120_000);

afterAll(async () => {
  for (const life of lives) await life.dispose();
  await smsc?.stop();
  await h?.close();
}, 120_000);

const connection = (port: number) => crashSmppConnection(smsc, port, SYSTEM_ID, 20);

async function startLife(n: number): Promise<Incarnation> {
  const life = await inProcessWorker({
    db: h.db, secrets, smsc, channelId,
    useRelay: async (port) => {
      await h.db.updateTable('channels').set({ connection: JSON.stringify(connection(port)) }).where('id', '=', channelId).execute();
    },
  }, { workerId: `largos-${n}`, leaseMs: 1_500, inDoubtGraceMs: GRACE_MS, idleMs: 50 });
  lives.push(life);
  return life;
}

/** Kills the life in the same turn as the SMSC completes its nth message (its answer cannot be stored). */
function killAt(life: Incarnation, n: number, timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      smsc.events.off('change', onMessage);
      void byState().then((states) => reject(new Error(`the SMSC never completed ${n} messages: ${JSON.stringify(states)} SMSC ${JSON.stringify(smsc.counters)}\n${life.output()}`)));
    }, timeoutMs);
    const onMessage = () => {
      if (smsc.counters.messages < n) return;
      smsc.events.off('change', onMessage);
      clearTimeout(timer);
      void life.kill().then(resolve);
    };
    smsc.events.on('change', onMessage);
  });
}

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await byState())} SMSC ${JSON.stringify(smsc.counters)}\n${await diagnosis()}`);
    await new Promise<void>((resolve) => {
      const done = () => { clearTimeout(timer); smsc.events.off('change', done); resolve(); };
      const timer = setTimeout(done, 250);
      smsc.events.on('change', done);
    });
  }
}

/** The undecided messages next to their parts, the receipts waiting, and what the SMSC did with them. */
async function diagnosis(): Promise<string> {
  const open = await sql<{ id: string; to_number: string; state: string; parts: number; provider_message_id: string | null; attempts: number }>`
    select id, to_number, state, parts, provider_message_id, attempts from messages
    where deployment_id = ${deploymentId} and state not in ('delivered', 'failed') limit 3`.execute(db);
  const out: string[] = [];
  for (const m of open.rows) {
    const parts = await sql`select provider_part_id, delivery_status from message_parts where message_id = ${m.id}`.execute(db);
    const events = await sql`select at, state, detail from message_events where message_id = ${m.id} order by id`.execute(db);
    const seen = smsc.messagesTo(m.to_number).map((x) => x.parts.map((p) => `${p.messageId}:${p.stat}`));
    out.push(`${JSON.stringify(m)} parts ${JSON.stringify(parts.rows)} events ${JSON.stringify(events.rows)} SMSC ${JSON.stringify(seen)}`);
  }
  const orphans = await sql`select provider_message_id, delivery_status, destination, user_reference from orphan_receipts where channel_id = ${channelId} limit 5`.execute(db);
  out.push(`orphans ${JSON.stringify(orphans.rows)}`);
  out.push(...lives.map((l, i) => `life ${i + 1}: ${l.output().split('\n').slice(-8).join(' | ')}`));
  return out.join('\n');
}

/** Messages of the deployment with some parts' receipts stored and some not. */
const splitMessages = async () => Number((await sql<{ n: string }>`
  select count(*) as n from (select p.message_id from message_parts p join messages m on m.id = p.message_id
    where m.deployment_id = ${deploymentId} group by p.message_id
    having count(p.delivery_status) > 0 and count(p.delivery_status) < count(*)) s`.execute(db)).rows[0].n);

const byState = async () => (await sql<{ state: string; n: string }>`
  select state, count(*) as n from messages where deployment_id = ${deploymentId} group by state order by state`.execute(db)).rows.map((r) => `${r.state} ${r.n}`);

const open = async () => Number((await sql<{ n: string }>`
  select count(*) as n from messages where deployment_id = ${deploymentId} and state not in ('delivered', 'failed')`.execute(db)).rows[0].n);

describe('long SMS whose worker dies', () => {
  it(`decides ${COUNT} one-to-three-part messages from all their parts across two deaths`, async () => {
    const texts = Array.from({ length: COUNT }, (_, i) => textOf(i));
    const partCounts = texts.map((t) => countSms(t).parts);
    expect(new Set(partCounts)).toEqual(new Set([1, 2, 3]));
    const before = await balanceOf(db, companyId);
    const now = new Date();
    deploymentId = Number((await db.insertInto('deployments').values({
      company_id: companyId, channel_id: channelId, state: 'running', purpose: 'transactional', started_at: now, total: COUNT, reserved_credits: 0, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow()).id);
    await db.transaction().execute((trx) => enqueueMessages(trx, {
      companyId, channel: { id: channelId, platform: 'sms' }, purpose: 'transactional', source: 'campaign', deploymentId,
      items: texts.map((body, i) => ({ to: recipient(i), body })), duplicateWindowHours: 0, heldUntil: null, now, onInsufficientCredits: 'throw',
    }));

    // 1. Death while a batch is in flight; the SMSC has handed over no receipt yet.
    let life = await startLife(1);
    await killAt(life, Math.floor(COUNT / 3));
    const inDoubtOrSending = await sql<{ n: string }>`select count(*) as n from messages where deployment_id = ${deploymentId} and state = 'sending' and parts > 1`.execute(db);
    expect(Number(inDoubtOrSending.rows[0].n)).toBeGreaterThan(0);
    smsc.configure({ holdDeliveries: false });

    // 2. Death while receipts flow, each part's receipt a little apart from its siblings': the
    // worker dies once some message has some parts stored and others not.
    smsc.configure({ receiptDelayMs: 100, receiptJitterMs: 1_500 });
    life = await startLife(2);
    await waitFor(async () => smsc.counters.messages >= Math.floor((2 * COUNT) / 3) && (await splitMessages()) >= 5, 'messages split between stored and unstored parts', 120_000);
    await life.kill();
    const split = await splitMessages();

    // 3. A last life finishes.
    life = await startLife(3);
    await waitFor(async () => (await open()) === 0, 'every message decided', 180_000);
    await smsc.until(() => smsc.pendingFor(SYSTEM_ID) === 0, 'every receipt acknowledged', 30_000);
    expect(await life.stop()).toBe(true);

    // Each recipient reached once, its fate the one its parts' receipts told.
    const rows = await sql<{ to_number: string; state: string; parts: number; billed: boolean; cost: number }>`
      select to_number, state, parts, billed, cost from messages where deployment_id = ${deploymentId}`.execute(db);
    expect(rows.rows).toHaveLength(COUNT);
    const wrong: string[] = [];
    for (const row of rows.rows) {
      const seen = smsc.messagesTo(row.to_number);
      if (seen.length !== 1) { wrong.push(`${row.to_number} reached ${seen.length} times`); continue; }
      const stats = seen[0].parts.map((p) => p.stat);
      const expected = stats.every((s) => s === 'DELIVRD') ? 'delivered' : 'failed';
      if (row.state !== expected || seen[0].parts.length !== row.parts || !row.billed) wrong.push(`${row.to_number}: ${row.state} (${row.parts} parts) but the SMSC said ${stats.join(',')}`);
    }
    expect({ wrong: wrong.length, first: wrong.slice(0, 3) }).toEqual({ wrong: 0, first: [] });
    // The two kinds of death happened as intended, and both kinds of fate occurred.
    const adopted = await sql<{ n: string }>`select count(distinct e.message_id) as n from message_events e join messages m on m.id = e.message_id
      where m.deployment_id = ${deploymentId} and m.parts > 1 and e.detail = 'in doubt: its receipt names it'`.execute(db);
    expect(Number(adopted.rows[0].n)).toBeGreaterThan(0);
    expect(split).toBeGreaterThan(0);
    expect(new Set(rows.rows.map((r) => r.state))).toEqual(new Set(['delivered', 'failed']));
    expect(Number((await sql<{ n: string }>`select count(*) as n from orphan_receipts where channel_id = ${channelId}`.execute(db)).rows[0].n)).toBe(0);

    // Credits: every message consumed once at its price, nothing left reserved.
    const after = await balanceOf(db, companyId);
    const price = rows.rows.reduce((a, r) => a + Number(r.cost), 0);
    expect(before.balance - after.balance).toBe(price);
    expect(after.reserved).toBe(before.reserved);
  }, 300_000);
});
