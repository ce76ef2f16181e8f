// PostgreSQL ends every connection of the fleet mid-campaign (pg_terminate_backend, as a failover
// or an operator does), twice. PostgreSQL only, like processes.pg.test.ts (several processes on
// one database).
//
// Two API servers (ENGINE_IN_SERVER=off) and two workers on one schema, the SMSC in its own
// process. The messages go in through POST /v1/messages, each batch with an Idempotency-Key and
// sent again on a 5xx (as a client should: it cannot know whether the commit under a dropped
// connection happened). When the SMSC has counted 30% and then 60%, every connection the fleet
// holds is terminated — found by the application_name its processes give them (PGAPPNAME), so
// the test's own connections and other schemas' stay. Then: no process died (each pool replaced
// what it lost), the API servers still serve, the workers still heartbeat and send, the SMSC
// received every message exactly once, every row is delivered and billed once, and each
// process stops cleanly.
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

const COUNT = 2_000;
const SYSTEM_ID = 'dropped';
const SMPP_PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
const KEY = randomBytes(32);
/** The fleet's connections, and only theirs, carry this name. */
const APP = `colibri-dropped-${randomBytes(4).toString('hex')}`;
const TEXT = 'Colibri: su cita es mañana';
const recipient = (i: number) => `+573${String(i).padStart(8, '0')}5`;

let h: Harness;
let smsc: SmscProcess;
const apis: ApiProcess[] = [];
const workers: Incarnation[] = [];
let env: Record<string, string>;
let companyId: number;
let channelId: number;
let apiKey: string;

beforeAll(async () => {
  h = await createHarness();
  const database = await processDatabaseEnv(h.db);
  const manager = (await h.as('manager')).token;
  companyId = (await h.db.selectFrom('users').select('company_id').where('email', '=', 'manager@demo.colibri.co').executeTakeFirstOrThrow()).company_id!;
  apiKey = await apiKeyOf(h, manager, 'Bulk');
  smsc = await startSmscProcess({ [SYSTEM_ID]: SMPP_PASSWORD });
  channelId = await insertSmppChannel(h.db, createSecretBox(KEY), {
    companyId, name: 'SMPP dropped', sender: '890126', password: SMPP_PASSWORD, connection: crashSmppConnection(smsc, smsc.port, SYSTEM_ID, 50),
  });
  env = { ...database, COLIBRI_SECRET_KEY: KEY.toString('base64'), PGAPPNAME: APP };
  apis.push(...(await Promise.all([startApiProcess(env), startApiProcess(env)])));
  for (const n of [1, 2]) {
    // The grace and the in-doubt bound are short: a row whose batch the drop cut goes again soon.
    workers.push(workerProcess({ ...env, ENGINE_IN_DOUBT_MAX_MS: '30000' }, { workerId: `dropped-${n}`, leaseMs: 1_500, inDoubtGraceMs: 10_000, idleMs: 50 }));
  }
}, 180_000);

afterAll(async () => {
  await Promise.all([...workers, ...apis].map((p) => p.kill()));
  await smsc?.kill();
  await h?.close();
}, 60_000);

/** Ends every connection the fleet holds; answers how many. */
async function terminateFleetConnections(): Promise<number> {
  const rows = await sql<{ n: string }>`
    select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity
    where datname = current_database() and application_name = ${APP} and pid <> pg_backend_pid()`.execute(h.db);
  return Number(rows.rows[0].n);
}

const openRows = async () => Number((await sql<{ n: string }>`
  select count(*) as n from messages where channel_id = ${channelId} and state <> 'delivered'`.execute(h.db)).rows[0].n);

describe('every connection of the fleet terminated mid-campaign, twice', () => {
  it(`sends ${COUNT} messages exactly once and every process keeps serving`, async () => {
    const before = await balanceOf(h.db, companyId);
    await until('both workers registered', async () => (await h.db.selectFrom('engine_workers').select('id').execute()).length === 2, 120_000);
    const recipients = Array.from({ length: COUNT }, (_, i) => recipient(i));
    const retried = { count: 0 };
    const sending = sendThroughApis(apis.map((a) => a.url), apiKey, channelId, recipients, TEXT, 4, 5, retried);

    const terminated: number[] = [];
    for (const fraction of [0.3, 0.6]) {
      await smsc.waitForMessages(Math.floor(COUNT * fraction), 240_000);
      // The fleet's connections at that moment (2 API servers and 2 workers, a pool each). A pool
      // may hold none for an instant (between a claim and the next, or replacing the ones just
      // ended), so the cut is made as soon as one is held.
      let n = 0;
      await until('a fleet connection to terminate', async () => (n = await terminateFleetConnections()) > 0, 30_000);
      terminated.push(n);
    }
    expect(terminated.every((n) => n > 0)).toBe(true);

    const ids = await sending;
    expect(new Set(ids).size).toBe(COUNT);
    // The workers' pools (and the API servers', without a request in flight) replaced the connections.
    await until('every row delivered', async () => (await openRows()) === 0, 180_000).catch(async (error: Error) => {
      const states = await sql`select state, count(*) as n from messages where channel_id = ${channelId} group by 1`.execute(h.db);
      throw new Error(`${error.message}\nstates ${JSON.stringify(states.rows)}\n${workers.map((w) => `${w.name}: ${w.output().slice(-1500)}`).join('\n')}`);
    });
    await until('every receipt acknowledged', async () => (await smsc.counters()).pending[SYSTEM_ID] === 0, 60_000);

    // No process died.
    expect(apis.map((a) => a.alive())).toEqual([true, true]);
    const now = Date.now();
    const beats = await h.db.selectFrom('engine_workers').select(['id', 'heartbeat_at']).execute();
    expect(beats.map((b) => b.id).sort()).toEqual(['dropped-1', 'dropped-2']);
    expect(beats.every((b) => now - new Date(b.heartbeat_at).getTime() < 10_000)).toBe(true);

    // The SMSC received each recipient exactly once; every row delivered under the SMSC's id, billed once.
    const received = await smsc.received();
    expect(recipients.filter((r) => received.get(r.slice(1))?.length !== 1)).toEqual([]);
    expect((await smsc.counters()).messages).toBe(COUNT);
    const rows = await sql<{ to_number: string; state: string; provider_message_id: string | null; billed: boolean }>`
      select to_number, state, provider_message_id, billed from messages where channel_id = ${channelId}`.execute(h.db);
    expect(rows.rows).toHaveLength(COUNT);
    expect(rows.rows.filter((r) => r.state !== 'delivered' || !r.billed || r.provider_message_id !== received.get(r.to_number.slice(1))?.[0])).toEqual([]);
    const after = await balanceOf(h.db, companyId);
    expect(before.balance - after.balance).toBe(COUNT);
    expect(after.reserved).toBe(before.reserved);

    // Still serving after the drops: each API server takes one more message, and a worker sends it.
    for (const [i, api] of apis.entries()) expect(await sendThroughApis([api.url], apiKey, channelId, [`+5739999999${i}5`], TEXT, 1, 1)).toHaveLength(1);
    for (const api of apis) expect((await fetch(`${api.url}/health`)).status).toBe(200);
    await until('the messages after the drops delivered', async () => (await openRows()) === 0, 60_000);

    // Everyone stops cleanly (a process that had died would not answer SIGTERM with 0).
    const stopped = await Promise.all(workers.map(async (w) => ({ name: w.name, clean: await w.stop() })));
    expect(stopped.filter((s) => !s.clean).map((s) => `${s.name}: ${workers.find((w) => w.name === s.name)!.output().slice(-1500)}`)).toEqual([]);
    expect(await Promise.all(apis.map((a) => a.stop()))).toEqual([0, 0]);
    for (const p of [...workers, ...apis]) expect(p.output()).not.toContain(SMPP_PASSWORD);
    // Told in the logs, not thrown.
    expect([...workers, ...apis].some((p) => p.output().includes('database connection lost'))).toBe(true);
    console.log(`[dropped] terminated ${terminated.join(' + ')} connections; ${retried.count} API request(s) sent again`);
  }, 600_000);
});
