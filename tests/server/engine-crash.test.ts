// Crash test: a deployment of ENGINE_CRASH_COUNT single-part SMS (20,000 on PostgreSQL, 10,000 on
// PGlite by default: enough that every kill lands with messages claimed, submitted, in doubt and
// delivered at once; `npm run bench -- processes` and ENGINE_CRASH_COUNT=100000 run it at full
// size) goes out over SMPP to the sandbox SMSC while the worker
// is killed at seeded random points and once after the last submit, and restarted each time. At the end the SMSC has seen every
// recipient exactly once, every row is delivered with the SMSC's message id as its provider id,
// and the credits reconcile (consumed = messages, nothing left reserved).
//
// On PostgreSQL the worker is the real thing: `src/server/worker.ts` as a child process, killed
// with SIGKILL. Some restarts reuse the dead worker's WORKER_ID before its lease has run out (a
// supervisor restarting a named worker), others start under a new id, so both recoveries run:
// the restarted worker taking back its own claims, and a live worker taking over a dead one's
// after the lease. On PGlite (one process owns the database) the same runtime runs in the test
// process and dies as abruptly (see engine-crash-incarnations.ts); a new one takes over.
//
// Why exactly once holds: a claimed row is `sending`; once its worker is gone it is `in_doubt`,
// and it is sent again only if no receipt names it (destination + user_message_reference) within
// the grace period and once the channel's receipts have passed it. The SMSC keeps the receipts of a
// system_id while none of its sessions is bound and hands them over at the next bind, behind
// everything queued before them: under load that backlog outlasted the grace, and 2,557 of 100,000
// messages went twice before the receipts passed them (engine-in-doubt-expiry.test.ts).
// Single-part messages only: a long message's part map lives in the dead process's memory.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { balanceOf } from '../../src/engine/credits.ts';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import type { Database } from '../../src/engine/database.ts';
import { startSandboxSmsc, type SandboxSmsc } from '../../src/sandbox/smsc/index.ts';
import { seededRandom } from '../../src/sandbox/smsc/receipts.ts';
import { createSecretBox } from '../../src/server/security/secrets.ts';
import { createHarness, type Harness } from './harness.ts';
import { processDatabaseEnv } from './test-databases.ts';
import { crashSmppConnection, inProcessWorker, insertSmppChannel, workerProcess, type EngineSettings, type Incarnation } from './engine-crash-incarnations.ts';

const POSTGRES = Boolean(process.env.DATABASE_URL);
const COUNT = Number(process.env.ENGINE_CRASH_COUNT ?? (POSTGRES ? 20_000 : 10_000));
const KILLS = 4;
const SEED = Number(process.env.ENGINE_CRASH_SEED ?? 20_251);
const LEASE_MS = 1_500;
// The grace covers a restart (a process start, ~2 s), the lease and a bind; the receipts the SMSC
// kept meanwhile are waited for by the receipt progress, not by the grace. Short enough that the
// rows that never left (claimed, not yet submitted) go again soon.
const GRACE_MS = 15_000;
const TEXT = 'Colibri: su pedido 4 va en camino';
const SYSTEM_ID = 'crash';
const SMPP_PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
const KEY = randomBytes(32);
const secrets = createSecretBox(KEY);

let h: Harness;
let db: Kysely<Database>;
let smsc: SandboxSmsc;
let companyId: number;
let channelId: number;
let deploymentId: number;
const lives: Incarnation[] = [];
const kills: string[] = [];

/** +57 3xx mobile numbers, all distinct, none ending in the SMSC's failing suffix 0000. */
const recipient = (i: number) => `+573${String(i).padStart(8, '0')}7`;

beforeAll(async () => {
  h = await createHarness();
  db = h.db;
  smsc = await startSandboxSmsc({ accounts: { [SYSTEM_ID]: SMPP_PASSWORD }, seed: SEED });
  companyId = (await h.db.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  channelId = await insertSmppChannel(h.db, secrets, { companyId, name: 'SMPP crash', sender: '890123', password: SMPP_PASSWORD, connection: smppConnection(smsc.port) });
}, 120_000);

afterAll(async () => {
  for (const life of lives) await life.dispose();
  await smsc?.stop();
  await h?.close();
}, 120_000);

const smppConnection = (port: number) => crashSmppConnection(smsc, port, SYSTEM_ID, 50);

/** Worker names: some restarts reuse the name of the worker just killed, others take a new one. */
const workerIdOf = (n: number) => (n % 3 === 2 ? `crash-${n}` : 'crash-main');

async function startLife(n: number): Promise<Incarnation> {
  const settings: EngineSettings = { workerId: workerIdOf(n), leaseMs: LEASE_MS, inDoubtGraceMs: GRACE_MS, idleMs: 50 };
  if (POSTGRES) {
    return workerProcess({ ...(await processDatabaseEnv(db)), COLIBRI_SECRET_KEY: KEY.toString('base64') }, settings);
  }
  return inProcessWorker({
    db: h.db, secrets, smsc, channelId,
    useRelay: async (port) => {
      await h.db.updateTable('channels').set({ connection: JSON.stringify(smppConnection(port)) }).where('id', '=', channelId).execute();
    },
  }, settings);
}

async function enqueueDeployment(): Promise<number[]> {
  const now = new Date();
  const dep = await db.insertInto('deployments').values({
    company_id: companyId, channel_id: channelId, state: 'running', purpose: 'transactional', started_at: now, total: COUNT, reserved_credits: COUNT, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  deploymentId = Number(dep.id);
  const result = await db.transaction().execute((trx) => enqueueMessages(trx, {
    companyId, channel: { id: channelId, platform: 'sms' }, purpose: 'transactional', source: 'campaign', deploymentId,
    items: Array.from({ length: COUNT }, (_, i) => ({ to: recipient(i), body: TEXT })),
    duplicateWindowHours: 0, heldUntil: null, now, onInsufficientCredits: 'throw',
  }));
  return result.ids;
}

/** Waits for a database condition, re-checking after each SMSC event (or every 250 ms when it is quiet). */
async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs: number) {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${await diagnosis()}`);
    await new Promise<void>((resolve) => {
      const done = () => { clearTimeout(timer); smsc.events.off('change', done); resolve(); };
      const timer = setTimeout(done, 250);
      smsc.events.on('change', done);
    });
  }
}

const rowStates = async () => (await sql<{ state: string; n: string }>`
  select state, count(*) as n from messages where deployment_id = ${deploymentId} group by state`.execute(db)).rows.map((r) => `${r.state} ${r.n}`);

/** What a failure report needs: rows by state, a few open rows next to what the SMSC knows, orphans, the last worker's log. */
async function diagnosis(): Promise<string> {
  const open = await sql<{ id: string; to_number: string; state: string; provider_message_id: string | null; attempts: number }>`
    select id, to_number, state, provider_message_id, attempts from messages where deployment_id = ${deploymentId} and state <> 'delivered' limit 3`.execute(db);
  const orphans = await sql<{ n: string }>`select count(*) as n from orphan_receipts`.execute(db);
  const last = lives.at(-1)?.output().split('\n').slice(-15).join('\n');
  return [
    `rows by state ${JSON.stringify(await rowStates())}; orphan receipts ${orphans.rows[0].n}; SMSC ${JSON.stringify(smsc.counters)}`,
    ...open.rows.map((r) => `${JSON.stringify(r)} SMSC ids ${JSON.stringify(smsc.messagesTo(r.to_number).map((m) => m.parts[0].messageId))}`),
    `last worker:\n${last}`,
  ].join('\n');
}

/** A recipient's row history next to what the SMSC received (for a failure report). */
async function explain(numbers: string[]): Promise<string> {
  const out: string[] = [];
  for (const n of numbers) {
    const row = await sql<{ id: string; attempts: number; events: unknown }>`
      select m.id, m.attempts, (select json_agg(json_build_object('at', e.at, 'state', e.state, 'detail', e.detail) order by e.id) from message_events e where e.message_id = m.id) as events
      from messages m where m.deployment_id = ${deploymentId} and m.to_number = ${n}`.execute(db);
    out.push(`${n}: ${JSON.stringify(row.rows)} SMSC ${JSON.stringify(smsc.messagesTo(n).map((m) => ({ id: m.parts[0].messageId, at: m.at, ref: m.userMessageReference })))}`);
  }
  if (numbers.length) out.push(`kills at ${JSON.stringify(kills)}`);
  return out.join('\n');
}

const deploymentState = async () => (await db.selectFrom('deployments').select('state').where('id', '=', deploymentId).executeTakeFirstOrThrow()).state;

const openRows = async () => Number((await sql<{ n: string }>`
  select count(*) as n from messages where deployment_id = ${deploymentId} and state <> 'delivered'`.execute(db)).rows[0].n);

describe(POSTGRES ? 'worker processes killed with SIGKILL and restarted' : 'in-process workers killed abruptly and replaced', () => {
  it(`sends ${COUNT} messages exactly once across ${KILLS + 1} kills`, async () => {
    const before = await balanceOf(db, companyId);
    const ids = await enqueueDeployment();
    expect(ids).toHaveLength(COUNT);
    const afterEnqueue = await balanceOf(db, companyId);
    expect(afterEnqueue.reserved - before.reserved).toBe(COUNT);

    // Seeded kill points: after this many messages have reached the SMSC. The last one comes
    // after the last submit, when only receipts are left: the next life has nothing to send and
    // must still bind for them.
    const random = seededRandom(SEED);
    const points = [...Array.from({ length: KILLS }, () => Math.floor(COUNT * (0.05 + 0.85 * random()))).sort((a, b) => a - b), COUNT];
    let life = await startLife(0);
    lives.push(life);
    for (let k = 0; k < points.length; k++) {
      await smsc.until(() => smsc.counters.messages >= points[k], `${points[k]} messages at the SMSC`, 300_000);
      await life.kill();
      kills.push(new Date().toISOString());
      life = await startLife(k + 1);
      lives.push(life);
    }

    await waitFor(async () => (await openRows()) === 0 && (await deploymentState()) === 'completed', 'every row delivered', 120_000 + COUNT * 5);
    // Receipts are stored before they are acknowledged: none may be left at the SMSC.
    await smsc.until(() => smsc.pendingFor(SYSTEM_ID) === 0, 'every receipt acknowledged', 30_000);
    expect(await life.stop()).toBe(true);
    expect(await db.selectFrom('engine_workers').select('id').where('id', '=', life.name).execute()).toEqual([]);

    // The SMSC saw each recipient exactly once, and nobody else.
    const twice: string[] = [];
    for (let i = 0; i < COUNT; i++) if (smsc.messagesTo(recipient(i)).length !== 1) twice.push(recipient(i));
    expect({ notOnce: twice.length, first: await explain(twice.slice(0, 3)) }).toEqual({ notOnce: 0, first: '' });
    expect(smsc.counters.messages).toBe(COUNT);

    // The database agrees: every row delivered under the id the SMSC gave it.
    const rows = await sql<{ to_number: string; state: string; provider_message_id: string | null; billed: boolean }>`
      select to_number, state, provider_message_id, billed from messages where deployment_id = ${deploymentId}`.execute(db);
    expect(rows.rows).toHaveLength(COUNT);
    const wrong = rows.rows.filter((r) => r.state !== 'delivered' || !r.billed || r.provider_message_id !== smsc.messagesTo(r.to_number)[0]?.parts[0].messageId);
    expect({ wrong: wrong.length, first: wrong.slice(0, 3) }).toEqual({ wrong: 0, first: [] });
    expect(Number((await sql<{ n: string }>`select count(*) as n from orphan_receipts`.execute(db)).rows[0].n)).toBe(0);

    // Credits: the reservation was consumed once per message, nothing released or left reserved.
    const after = await balanceOf(db, companyId);
    expect(before.balance - after.balance).toBe(COUNT);
    expect(after.reserved).toBe(before.reserved);
    const consumed = await sql<{ amount: string; n: string }>`
      select coalesce(sum(amount), 0) as amount, coalesce(sum(message_count), 0) as n from credit_ledger
      where company_id = ${companyId} and kind = 'consume' and deployment_id = ${deploymentId}`.execute(db);
    expect(Number(consumed.rows[0].amount)).toBe(COUNT);
    expect(Number(consumed.rows[0].n)).toBe(COUNT);

    // Logs never carry the SMPP password or the master key.
    for (const l of lives) {
      expect(l.output()).not.toContain(SMPP_PASSWORD);
      expect(l.output()).not.toContain(KEY.toString('base64'));
    }
  }, 900_000);
});
