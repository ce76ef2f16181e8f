// Several processes on one PostgreSQL (npm run bench -- processes): 100,000 single-part
// SMS sent by 1, 2 and 3 worker processes (`src/server/worker.ts`) to the sandbox SMSC running as
// its own process (`src/sandbox/smsc/main.ts`), each on a fresh schema of BENCH_DATABASE_URL;
// then the whole fleet as the PostgreSQL test runs it (tests/server/processes.pg.test.ts) at
// 100,000 messages: two API servers (ENGINE_IN_SERVER=off) taking the messages through
// POST /v1/messages, three workers, one of them killed with SIGKILL at 30% and another at 60%
// of what the SMSC counted, each replaced; every message must reach the SMSC exactly once.
// The anchor is the bare `smpp` client→server with a receipt per message (tests/bench/smpp.ts),
// measured in the same run. The machine's load average goes in the notes: other work on the
// two cores moves these figures.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { sql, type Kysely } from 'kysely';
import { enqueueMessages } from '../../src/engine/lifecycle/enqueue.ts';
import type { Database } from '../../src/engine/database.ts';
import { createSecretBox } from '../../src/server/security/secrets.ts';
import { crashSmppConnection, insertSmppChannel, workerProcess, type Incarnation } from '../server/engine-crash-incarnations.ts';
import { createHarness, type Harness } from '../server/harness.ts';
import { sendThroughApis, startApiProcess, startSmscProcess, type ApiProcess, type SmscProcess } from '../server/processes-fleet.ts';
import { until } from '../server/until.ts';
import { rawSmppThroughput, type Record as BenchRecord } from './smpp.ts';

const COUNT = Number(process.env.BENCH_PROCESSES_COUNT ?? 100_000);
const TEXT = 'Hola, este es un mensaje de prueba de Colibri';
const SYSTEM_ID = 'bench';
const recipient = (i: number) => `+573${String(i).padStart(8, '0')}7`;
// The grace must outlast the receipt backlog a live worker reads before it reaches a dead one's
// receipts: with 5 s on this loaded machine (load average 20), 1,128 of 20,000 messages were sent
// again before their receipts were read.
const FLEET_GRACE_MS = 30_000;
const load = () => loadavg().map((l) => l.toFixed(1)).join('/');

interface Fleet {
  h: Harness;
  schema: string;
  smsc: SmscProcess;
  companyId: number;
  channelId: number;
  key: Buffer;
  workers: Incarnation[];
  apis: ApiProcess[];
  env: Record<string, string>;
}

async function openFleet(postgresUrl: string): Promise<Fleet> {
  process.env.DATABASE_URL = postgresUrl;
  const h = await createHarness();
  const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(h.db)).rows[0].s;
  const password = randomBytes(8).toString('hex');
  const key = randomBytes(32);
  const smsc = await startSmscProcess({ [SYSTEM_ID]: password });
  const companyId = (await h.db.selectFrom('users').select('company_id').where('email', '=', 'manager@demo.colibri.co').executeTakeFirstOrThrow()).company_id!;
  const channelId = await insertSmppChannel(h.db, createSecretBox(key), {
    companyId, name: 'SMPP bench', sender: '890125', password,
    // The dispatch benchmark's window (100) and no TPS limit: the engine is measured, not a contract.
    connection: { ...crashSmppConnection(smsc, smsc.port, SYSTEM_ID, 100), responseTimeoutMs: 30_000 },
  });
  const env = { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema, COLIBRI_SECRET_KEY: key.toString('base64') };
  return { h, schema, smsc, companyId, channelId, key, workers: [], apis: [], env };
}

async function closeFleet(f: Fleet) {
  await Promise.all([...f.workers, ...f.apis].map((p) => p.kill()));
  await f.smsc.kill();
  await f.h.close();
  delete process.env.DATABASE_URL;
}

function startWorker(f: Fleet, name: string, graceMs: number): Incarnation {
  const w = workerProcess(f.env, { workerId: name, leaseMs: 1_500, inDoubtGraceMs: graceMs, idleMs: 50 });
  f.workers.push(w);
  return w;
}

const registered = async (db: Kysely<Database>) => new Set((await db.selectFrom('engine_workers').select('id').execute()).map((r) => r.id));
const openRows = async (db: Kysely<Database>, channelId: number) => Number((await sql<{ n: string }>`
  select count(*) as n from messages where channel_id = ${channelId} and state <> 'delivered'`.execute(db)).rows[0].n);

/** N workers already running (registered), 100,000 rows committed at once: messages/s until the last is delivered. */
async function workersRun(postgresUrl: string, n: number): Promise<{ rate: number; load: string }> {
  const f = await openFleet(postgresUrl);
  try {
    for (let i = 1; i <= n; i++) startWorker(f, `bench-${i}`, 120_000);
    await until('the workers registered', async () => { const ids = await registered(f.h.db); return f.workers.every((w) => ids.has(w.name)); }, 180_000);
    await f.h.db.transaction().execute((trx) => enqueueMessages(trx, {
      companyId: f.companyId, channel: { id: f.channelId, platform: 'sms' }, purpose: 'transactional', source: 'api',
      items: Array.from({ length: COUNT }, (_, i) => ({ to: recipient(i), body: TEXT })),
      duplicateWindowHours: 0, heldUntil: null, now: new Date(), onInsufficientCredits: 'reject',
    }));
    const committed = performance.now();
    await until('every row delivered', async () => (await openRows(f.h.db, f.channelId)) === 0, 30 * 60_000);
    const seconds = (performance.now() - committed) / 1000;
    const counters = await f.smsc.counters();
    if (counters.messages !== COUNT || counters.repeatedDestinations !== 0) throw new Error(`not exactly once: ${JSON.stringify(counters)}`);
    return { rate: COUNT / seconds, load: load() };
  } finally {
    await closeFleet(f);
  }
}

/** The fleet with kills: two API servers, three workers, two SIGKILLs; from the first request to the last row delivered. */
async function fleetRun(postgresUrl: string): Promise<{ rate: number; load: string; detail: string }> {
  const f = await openFleet(postgresUrl);
  try {
    const manager = (await f.h.as('manager')).token;
    await f.h.op('credentials.updateSettings', { token: manager, body: { allowedIps: ['127.0.0.1'], notificationEmail: null, ftp: { host: null, port: null, user: null, directory: null, password: null } } });
    const apiKey = (await f.h.op('credentials.create', { token: manager, body: { name: 'Bench' } })).json().apiKey as string;
    f.apis.push(...(await Promise.all([startApiProcess(f.env), startApiProcess(f.env)])));
    for (let i = 1; i <= 3; i++) startWorker(f, `fleet-${i}`, FLEET_GRACE_MS);
    await until('the workers registered', async () => { const ids = await registered(f.h.db); return f.workers.every((w) => ids.has(w.name)); }, 180_000);
    const started = performance.now();
    const sending = sendThroughApis(f.apis.map((a) => a.url), apiKey, f.channelId, Array.from({ length: COUNT }, (_, i) => recipient(i)), TEXT);
    for (const [fraction, victim] of [[0.3, 0], [0.6, 1]] as const) {
      await f.smsc.waitForMessages(Math.floor(COUNT * fraction), 30 * 60_000);
      await f.workers[victim].kill();
      startWorker(f, `fleet-${f.workers.length + 1}`, FLEET_GRACE_MS);
    }
    const sentMs = (await sending, performance.now() - started);
    await until('every row delivered', async () => (await openRows(f.h.db, f.channelId)) === 0, 30 * 60_000);
    const seconds = (performance.now() - started) / 1000;
    const counters = await f.smsc.counters();
    const once = counters.messages === COUNT && counters.destinations === COUNT && counters.repeatedDestinations === 0;
    if (!once) throw new Error(`not exactly once: ${JSON.stringify(counters)}`);
    return { rate: COUNT / seconds, load: load(), detail: `the API took the ${COUNT} in ${Math.round(sentMs)} ms (${COUNT / 1000} requests of 1,000, 4 at a time over 2 servers); SMSC: ${counters.messages} messages, ${counters.destinations} destinations, ${counters.repeatedDestinations} repeated` };
  } finally {
    await closeFleet(f);
  }
}

export async function processesBench(record: BenchRecord, postgresUrl: string) {
  const raw = await rawSmppThroughput(COUNT, 100);
  const anchor = 'raw smpp client→server with a receipt per message, window 100, same run (messages/s)';
  for (const n of [1, 2, 3]) {
    const run = await workersRun(postgresUrl, n);
    record({
      name: `processes-${n}-worker${n > 1 ? 's' : ''}-${COUNT / 1000}k-postgresql`, value: Math.round(run.rate), unit: 'messages/s', anchor, anchor_value: Math.round(raw),
      goal: 'more workers send more until the two cores are full (each process runs its own SMPP session, the SMSC is a third process)',
      notes: `${COUNT} single-part SMS, ${n} \`npm run worker\` process(es) already running, the SMSC in its own process; from the enqueue's commit to the last row delivered; every message once at the SMSC; load average ${run.load} at the end (other work shares the 2 cores)`,
    });
  }
  const fleet = await fleetRun(postgresUrl);
  record({
    name: `processes-fleet-kills-${COUNT / 1000}k-postgresql`, value: Math.round(fleet.rate), unit: 'messages/s', anchor, anchor_value: Math.round(raw),
    goal: 'every message exactly once at the SMSC with two workers killed (SIGKILL) mid-run',
    notes: `2 API servers (ENGINE_IN_SERVER=off) + 3 workers + the SMSC process; a worker killed at 30% and another at 60% of the SMSC's count, each replaced; from the first API request to the last row delivered (grace ${FLEET_GRACE_MS / 1000} s); ${fleet.detail}; load average ${fleet.load} at the end`,
  });
}
