// Several processes on one PostgreSQL. PostgreSQL only: PGlite is one
// process's database, so this file runs under `npm run test:pg` and is left out of the PGlite run
// (vitest.config.ts), not skipped.
//
// Two API servers (`npm start` with ENGINE_IN_SERVER=off), three workers (`npm run worker`) and
// the sandbox SMSC as a process of its own (`npm run smsc`) share one fresh schema. The messages
// go in through the public API (POST /v1/messages, batches of 1,000 spread over both servers)
// while the workers send them; a worker is killed with SIGKILL twice, each time once the SMSC
// has counted a given number of messages, and a new one starts in its place. Then: the SMSC
// received every message exactly once (one destination each, one submit per destination), every
// row is delivered under the id the SMSC gave it, the credits reconcile, and the API servers
// never claimed a message (only the workers appear in engine_workers).
//
// PROCESSES_COUNT sets the size: 4,000 by default, which still proves the rule (four API batches
// over both servers; each kill lands while the victim holds claimed rows, up to 1,000 of them,
// submitted or not, so both ways out of doubt are taken: adopted by a receipt, sent again). Its
// size only scales the time the test spends sending on a loaded CI machine, not what it shows;
// the 100,000-message run with the same kills is `npm run bench -- processes`.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { balanceOf } from '../../src/engine/credits.ts';
import { createSecretBox } from '../../src/server/security/secrets.ts';
import { crashSmppConnection, insertSmppChannel, workerProcess, type Incarnation } from './engine-crash-incarnations.ts';
import { createHarness, type Harness } from './harness.ts';
import { apiKeyOf } from './messaging-fixtures.ts';
import { processDatabaseEnv } from './test-databases.ts';
import { sendThroughApis, startApiProcess, startSmscProcess, type ApiProcess, type SmscProcess } from './processes-fleet.ts';
import { until } from './until.ts';

const COUNT = Number(process.env.PROCESSES_COUNT ?? 4_000);
const SYSTEM_ID = 'fleet';
const SMPP_PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
const KEY = randomBytes(32);
const TEXT = 'Colibri: su pedido va en camino';
// A dead worker's rows wait for the lease to run out, then for a receipt that names them: the
// live workers are bound to the same system_id, so the receipts of what the dead one submitted
// reach them within milliseconds. The grace only has to outlast that.
const LEASE_MS = 1_500;
const GRACE_MS = 10_000;
// However the receipts go, no row stays in doubt longer than this (ENGINE_IN_DOUBT_MAX_MS; the
// default ten minutes outlasts the wait below, so a row the receipt rule kept would have failed
// the test as a timeout instead of naming itself).
const IN_DOUBT_MAX_MS = 60_000;
/** Every row delivered once the API took them all: the in-doubt bound, the lease and the grace, and the sending itself. */
const DELIVERED_WITHIN_MS = 240_000;

/** +57 3xx mobile numbers, all distinct, none ending in the SMSC's failing suffix 0000. */
const recipient = (i: number) => `+573${String(i).padStart(8, '0')}7`;

let h: Harness;
let smsc: SmscProcess;
const apis: ApiProcess[] = [];
const workers: Incarnation[] = [];
let database: { DATABASE_URL: string; DATABASE_SCHEMA: string };
let companyId: number;
let channelId: number;
let apiKey: string;

function startWorker(name: string): Incarnation {
  const worker = workerProcess(
    { ...database, COLIBRI_SECRET_KEY: KEY.toString('base64'), ENGINE_IN_DOUBT_MAX_MS: String(IN_DOUBT_MAX_MS) },
    { workerId: name, leaseMs: LEASE_MS, inDoubtGraceMs: GRACE_MS, idleMs: 50 },
  );
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  h = await createHarness();
  database = await processDatabaseEnv(h.db);
  const manager = (await h.as('manager')).token;
  companyId = (await h.db.selectFrom('users').select('company_id').where('email', '=', 'manager@demo.colibri.co').executeTakeFirstOrThrow()).company_id!;
  apiKey = await apiKeyOf(h, manager, 'Bulk');
  smsc = await startSmscProcess({ [SYSTEM_ID]: SMPP_PASSWORD });
  channelId = await insertSmppChannel(h.db, createSecretBox(KEY), {
    companyId, name: 'SMPP fleet', sender: '890124', password: SMPP_PASSWORD, connection: crashSmppConnection(smsc, smsc.port, SYSTEM_ID, 50),
  });
  const env = { ...database, COLIBRI_SECRET_KEY: KEY.toString('base64') };
  apis.push(...(await Promise.all([startApiProcess(env), startApiProcess(env)])));
}, 180_000);

afterAll(async () => {
  await Promise.all([...workers, ...apis].map((p) => (p as { kill(): Promise<void> }).kill()));
  await smsc?.kill();
  await h?.close();
}, 60_000);

const openRows = async () => Number((await sql<{ n: string }>`
  select count(*) as n from messages where channel_id = ${channelId} and state <> 'delivered'`.execute(h.db)).rows[0].n);

describe('two API servers and three workers on one PostgreSQL, the SMSC in its own process', () => {
  it(`sends ${COUNT} messages exactly once while a worker is killed twice`, async () => {
    const before = await balanceOf(h.db, companyId);
    for (const n of [1, 2, 3]) startWorker(`fleet-${n}`);
    const recipients = Array.from({ length: COUNT }, (_, i) => recipient(i));
    const sending = sendThroughApis(apis.map((a) => a.url), apiKey, channelId, recipients, TEXT);

    // The kills follow the SMSC's count, not the clock: at 30% the first worker dies, at 60%
    // one of those still running; each is replaced by a worker under a new name (its rows wait
    // for the lease, then for their receipts, then the grace).
    const killed: string[] = [];
    for (const [fraction, victim] of [[0.3, 0], [0.6, 1]] as const) {
      await smsc.waitForMessages(Math.floor(COUNT * fraction), 240_000);
      // Only workers claim: the API servers (ENGINE_IN_SERVER=off) never register as one.
      const registered = (await h.db.selectFrom('engine_workers').select('id').execute()).map((r) => r.id);
      expect(registered.every((id) => id.startsWith('fleet-'))).toBe(true);
      await workers[victim].kill();
      killed.push(workers[victim].name);
      startWorker(`fleet-${workers.length + 1}`);
    }
    // The replacements take part: each registers as a worker (a SIGTERM before its process has
    // started would end it uncleanly, and a worker that never started proves nothing).
    const replacements = workers.slice(3).map((w) => w.name);
    await until('the replacement workers registered', async () => {
      const registered = new Set((await h.db.selectFrom('engine_workers').select('id').execute()).map((r) => r.id));
      return replacements.every((name) => registered.has(name));
    }, 120_000).catch(async (error: Error) => {
      const activity = await sql`select pid, state, wait_event_type, wait_event, left(query, 120) as q from pg_stat_activity where datname = current_database() and state <> 'idle'`.execute(h.db);
      const registered = await h.db.selectFrom('engine_workers').selectAll().execute();
      throw new Error(`${error.message}\nregistered ${JSON.stringify(registered)}\nactivity ${JSON.stringify(activity.rows)}\n${workers.slice(3).map((w) => `${w.name}: ${w.output().slice(-2000)}`).join('\n')}\nSMSC ${JSON.stringify(await smsc.counters())}`);
    });
    const ids = await sending;
    expect(new Set(ids).size).toBe(COUNT);

    // A timeout names the rows left, by state, and what the workers said.
    await until('every row delivered', async () => (await openRows()) === 0, DELIVERED_WITHIN_MS).catch(async (error: Error) => {
      const states = await sql`select state, held_reason, count(*) as n, min(in_doubt_since) as since, min(claimed_at) as claimed, max(claimed_at) as last_claimed, max(attempts) as attempts from messages where channel_id = ${channelId} and state <> 'delivered' group by 1, 2`.execute(h.db);
      const progress = await sql`select * from receipt_progress`.execute(h.db);
      const orphans = await sql`select count(*) as n from orphan_receipts`.execute(h.db);
      throw new Error(`${error.message}\nstates ${JSON.stringify(states.rows)}\nprogress ${JSON.stringify(progress.rows)} orphans ${JSON.stringify(orphans.rows)}\nnow ${new Date().toISOString()}\nSMSC ${JSON.stringify(await smsc.counters())}\n${workers.map((w) => `${w.name}: ${w.output().slice(-1500)}`).join('\n')}`);
    });
    // Receipts are stored before they are acknowledged: none may be left at the SMSC.
    await until('every receipt acknowledged', async () => (await smsc.counters()).pending[SYSTEM_ID] === 0, 60_000);

    // The SMSC received each recipient exactly once, and nobody else.
    const received = await smsc.received();
    const counters = await smsc.counters();
    const notOnce = recipients.filter((r) => received.get(r.slice(1))?.length !== 1);
    expect({ notOnce: notOnce.length, first: notOnce.slice(0, 3).map((r) => [r, received.get(r.slice(1))]) }).toEqual({ notOnce: 0, first: [] });
    expect(counters.messages).toBe(COUNT);
    expect(received.size).toBe(COUNT);

    // The database agrees: every row delivered, billed, under the id the SMSC gave it.
    const rows = await sql<{ to_number: string; state: string; provider_message_id: string | null; billed: boolean }>`
      select to_number, state, provider_message_id, billed from messages where channel_id = ${channelId}`.execute(h.db);
    expect(rows.rows).toHaveLength(COUNT);
    const wrong = rows.rows.filter((r) => r.state !== 'delivered' || !r.billed || r.provider_message_id !== received.get(r.to_number.replace(/^\+/, ''))?.[0]);
    expect({ wrong: wrong.length, first: wrong.slice(0, 3) }).toEqual({ wrong: 0, first: [] });

    // Credits: one per message consumed, nothing left reserved, the ledger says the same.
    const after = await balanceOf(h.db, companyId);
    expect(before.balance - after.balance).toBe(COUNT);
    expect(after.reserved).toBe(before.reserved);
    const ledger = await sql<{ kind: string; amount: string; n: string }>`
      select kind, coalesce(sum(amount), 0) as amount, coalesce(sum(message_count), 0) as n from credit_ledger
      where company_id = ${companyId} and kind in ('reserve', 'consume', 'release') group by kind`.execute(h.db);
    const byKind = Object.fromEntries(ledger.rows.map((r) => [r.kind, { amount: Number(r.amount), n: Number(r.n) }]));
    expect(byKind.consume).toEqual({ amount: COUNT, n: COUNT });
    expect(byKind.release).toBeUndefined();

    // The survivors stop cleanly; the API servers too. Logs never carry the SMPP password or the key.
    const alive = workers.filter((w) => !killed.includes(w.name));
    const stopped = await Promise.all(alive.map(async (w) => ({ name: w.name, clean: await w.stop() })));
    expect(stopped.filter((s) => !s.clean).map((s) => `${s.name}: ${workers.find((w) => w.name === s.name)!.output().slice(-1500)}`)).toEqual([]);
    expect(await Promise.all(apis.map((a) => a.stop()))).toEqual([0, 0]);
    for (const p of [...workers, ...apis]) {
      expect(p.output()).not.toContain(SMPP_PASSWORD);
      expect(p.output()).not.toContain(KEY.toString('base64'));
    }
  }, 600_000);
});
