// A big launch never stalls the server: the launch writes the deployment and its first
// chunk in the request and answers 'preparing'; the engine's job runner writes the rest chunk by
// chunk, each chunk's messages and the job's cursor in one transaction, so every recipient gets
// exactly one message across a stop, a failing chunk or a crash; requests are served between
// chunks; a launch the credits stop covering mid-way is cancelled with its reason.
// PGlite, or PostgreSQL with DATABASE_URL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobHandlers } from '../../src/engine/jobs/kinds.ts';
import { JobRunner } from '../../src/engine/jobs/runner.ts';
import { jobHandlers } from '../../src/server/messaging/jobs.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { createHarness, multipart, type Harness } from './harness.ts';

const CHUNK = 4;
let h: Harness;
let manager: string;
let smsChannelId: number;
let handlers: JobHandlers;
let demoCompanyId: number;

beforeAll(async () => {
  // The request's chunk and the job's steps alike (on PostgreSQL the job's steps are bigger by default).
  process.env.LAUNCH_CHUNK_SIZE = String(CHUNK);
  process.env.LAUNCH_JOB_CHUNK_SIZE = String(CHUNK);
  h = await createHarness();
  const signed = await h.as('manager');
  manager = signed.token;
  demoCompanyId = (await h.db.selectFrom('users').select('company_id').where('id', '=', signed.session.idUser).executeTakeFirstOrThrow()).company_id;
  const channels = (await h.op('channels.list', { token: manager, query: { platform: 'sms', enabled: 'true' } })).json();
  smsChannelId = channels.items[0].id;
  handlers = jobHandlers({ db: h.db, now: () => h.clock.now, messaging: { sendWindow: companySendWindow(h.db), wake: () => {} }, storage: h.storage });
});
afterAll(async () => {
  delete process.env.LAUNCH_CHUNK_SIZE;
  delete process.env.LAUNCH_JOB_CHUNK_SIZE;
  await h.close();
});

const runner = (options: Partial<ConstructorParameters<typeof JobRunner>[0]> = {}) =>
  new JobRunner({ db: h.db, handlers, workerId: `test-${Math.random()}`, now: () => h.clock.now, idleMs: 10, ...options });

let base = 3001000000;

/** A campaign with `n` recipients no other campaign here has (the duplicate rule stays out of it), launched. */
async function launched(name: string, n: number) {
  base += 1000;
  const lines = Array.from({ length: n }, (_, i) => `${base + i};Cliente ${i}`).join('\n');
  const campaign = (await h.op('campaigns.create', { token: manager, body: { kind: 'open', purpose: 'transactional', channelId: smsChannelId, name, content: 'Hola {{nombre}}, tu pedido está listo' } })).json();
  const up = await h.op('campaigns.uploadRecipients', { token: manager, params: { id: campaign.id }, ...multipart('file', 'clientes.csv', 'text/csv', Buffer.from(`telefono;nombre\n${lines}\n`, 'utf8')) });
  expect(up.statusCode).toBe(200);
  const res = await h.op('campaigns.launch', { token: manager, params: { id: campaign.id } });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function messagesOf(deploymentId: number) {
  const rows = await sql<{ n: string | number; phones: string | number }>`
    select count(*) as n, count(distinct to_number) as phones from messages where deployment_id = ${deploymentId}`.execute(h.db);
  return { n: Number(rows.rows[0].n), phones: Number(rows.rows[0].phones) };
}

const balance = async () => (await h.op('credits.balance', { token: manager })).json() as { balance: number; reserved: number };

describe('a big launch', () => {
  it('answers preparing with its first chunk; the job writes the rest, one message per recipient', async () => {
    const before = await balance();
    const deployment = await launched('Lanzamiento grande', 4 * CHUNK + 2);
    // The answer comes before the launch's messages exist: only the first chunk is written.
    expect(deployment).toMatchObject({ state: 'preparing', total: 4 * CHUNK + 2, enqueued: CHUNK, stopReason: null });
    // What goes counts only what is written: the rest may yet be refused (a notice never promises more).
    expect(deployment.going).toBe(CHUNK);
    expect(await messagesOf(deployment.id)).toEqual({ n: CHUNK, phones: CHUNK });
    // While preparing it can only be cancelled.
    expect((await h.op('deployments.control', { token: manager, params: { id: deployment.id, action: 'pause' } })).json().code).toBe('99984');

    await runner().drain();
    const done = (await h.op('deployments.get', { token: manager, params: { id: deployment.id } })).json();
    expect(done).toMatchObject({ state: 'running', total: 4 * CHUNK + 2, enqueued: 4 * CHUNK + 2, reservedCredits: 4 * CHUNK + 2, going: 4 * CHUNK + 2 });
    expect(await messagesOf(deployment.id)).toEqual({ n: 4 * CHUNK + 2, phones: 4 * CHUNK + 2 });
    expect(await balance()).toEqual({ balance: before.balance - (4 * CHUNK + 2), reserved: before.reserved + 4 * CHUNK + 2 });
    expect(await h.db.selectFrom('jobs').select(['state', 'done']).execute()).toEqual([{ state: 'done', done: 4 * CHUNK + 2 }]);
  });

  it('resumes after a stop and after a failing chunk without duplicates or losses', async () => {
    const n = 6 * CHUNK + 1;
    const deployment = await launched('Tras una caída', n);
    // A process stops after two chunks (SIGTERM: the step in flight finishes, the job is let go).
    let steps = 0;
    let stopping: Promise<void> | null = null;
    let twoSteps: () => void = () => {};
    const stepped = new Promise<void>((resolve) => { twoSteps = resolve; });
    const first = runner({ onStep: () => { if (++steps === 2) { stopping = first.stop(); twoSteps(); } } });
    first.start();
    await stepped;
    await stopping;
    expect((await messagesOf(deployment.id)).n).toBe(3 * CHUNK);
    // A chunk fails after writing its messages (the database refuses the cursor's move): all of it is rolled back.
    await sql.raw(`create function refuse_cursor() returns trigger language plpgsql as $$ begin
      raise exception 'disk full'; end $$`).execute(h.db);
    await sql.raw('create trigger refuse_cursor before update of cursor on jobs for each row execute function refuse_cursor()').execute(h.db);
    await expect(runner().drain()).rejects.toThrow(/disk full/);
    // That process died holding the job: its lease runs out.
    h.clock.advance(61_000);
    expect((await messagesOf(deployment.id)).n).toBe(3 * CHUNK);
    await sql.raw('drop trigger refuse_cursor on jobs').execute(h.db);
    await sql.raw('drop function refuse_cursor()').execute(h.db);
    // Another process takes the job up at its cursor.
    await runner().drain();
    expect(await messagesOf(deployment.id)).toEqual({ n, phones: n });
    expect((await h.op('deployments.get', { token: manager, params: { id: deployment.id } })).json()).toMatchObject({ state: 'running', total: n, enqueued: n });
  });

  it('serves a request that comes in between chunks before the job completes', async () => {
    const deployment = await launched('Mientras tanto', 6 * CHUNK);
    const events: string[] = [];
    let asked = false;
    await runner({
      onStep: (_job, result) => {
        events.push(result === 'done' ? 'done' : 'step');
        if (!asked) {
          asked = true;
          void h.app.inject({ method: 'GET', url: '/health' }).then((res) => events.push(`health ${res.statusCode}`));
        }
      },
    }).drain();
    expect(events).toContain('health 200');
    expect(events.indexOf('health 200')).toBeLessThan(events.indexOf('done'));
    expect((await messagesOf(deployment.id)).n).toBe(6 * CHUNK);
  });

  it('is cancelled with its reason when the credits stop covering it mid-way, giving back what it held', async () => {
    const deployment = await launched('Sin saldo a mitad', 5 * CHUNK);
    const start = await balance();
    // Enough for one more chunk only.
    await sql`update company_credits set balance = ${CHUNK} where company_id = ${demoCompanyId}`.execute(h.db);
    await runner().drain();
    const seen = (await h.op('deployments.get', { token: manager, params: { id: deployment.id } })).json();
    expect(seen).toMatchObject({ state: 'cancelled', stopReason: 'insufficientCredits', total: 2 * CHUNK, enqueued: 2 * CHUNK, counts: { cancelled: 2 * CHUNK, queued: 0 } });
    // What the launch held is given back: CHUNK from the first chunk plus the one more chunk.
    expect(await balance()).toEqual({ balance: 2 * CHUNK, reserved: start.reserved - CHUNK });
  });

  it('a launch within one chunk is written whole in its request, as before', async () => {
    const deployment = await launched('Pequeño', CHUNK);
    expect(deployment).toMatchObject({ state: 'running', total: CHUNK, enqueued: CHUNK, counts: { queued: CHUNK } });
    expect(await h.db.selectFrom('jobs').select('id').where('state', '=', 'pending').execute()).toEqual([]);
  });
});
