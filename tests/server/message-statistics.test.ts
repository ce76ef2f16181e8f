// The planner's statistics of messages follow the processes that change many rows:
// PGlite has no autovacuum, and a launch that starts on a (nearly) empty table with statistics
// saying so made every chunk's refusal rules scan the table, each chunk slower than the last.
// The rule (src/engine/message-statistics.ts): a refresh after `first` rows, then each time the
// rows since reach the table's size (at least `floor`); a launch refreshes once, after 1,000 rows.
// PGlite, or PostgreSQL with DATABASE_URL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageStatistics } from '../../src/engine/message-statistics.ts';
import { JobRunner } from '../../src/engine/jobs/runner.ts';
import { jobHandlers } from '../../src/server/messaging/jobs.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { createHarness, multipart, type Harness } from './harness.ts';

let h: Harness;
let manager: string;
let companyId: number;

beforeAll(async () => {
  // The request's chunk and the job's steps alike (on PostgreSQL the job's steps are bigger by default).
  process.env.LAUNCH_CHUNK_SIZE = '100';
  process.env.LAUNCH_JOB_CHUNK_SIZE = '100';
  h = await createHarness();
  const signed = await h.as('manager');
  manager = signed.token;
  companyId = (await h.db.selectFrom('users').select('company_id').where('id', '=', signed.session.idUser).executeTakeFirstOrThrow()).company_id;
});
afterAll(async () => {
  delete process.env.LAUNCH_CHUNK_SIZE;
  delete process.env.LAUNCH_JOB_CHUNK_SIZE;
  await h.close();
});

/** What the planner believes the messages table holds. */
const believed = async () => Number((await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = 'messages'::regclass`.execute(h.db)).rows[0].n);
const actual = async () => Number((await sql<{ n: string }>`select count(*)::text as n from messages`.execute(h.db)).rows[0].n);

/** `n` queued messages of the demo company, written set-based (the enqueue itself is tested elsewhere). */
async function addMessages(n: number, from: number) {
  await sql`insert into messages (company_id, channel_id, source, purpose, to_number, body, parts, cost, state, status_code, not_before, created_at, updated_at)
            select ${companyId}, c.id, 'api', 'transactional', '+5731' || lpad((${from} + g)::text, 8, '0'), 'hola', 1, 1, 'queued', 0, now(), now(), now()
            from generate_series(1, ${n}) g, (select id from channels where company_id = ${companyId} and platform = 'sms' order by id limit 1) c`.execute(h.db);
}

describe('message statistics', () => {
  it('refreshes after the first rows, then when the rows since reach the table size (at least the floor)', async () => {
    await sql`analyze messages`.execute(h.db);
    const stats = new MessageStatistics(h.db, { first: 300, floor: 500 });
    await addMessages(200, 0);
    await stats.note(200);
    expect(stats.refreshed).toBe(0);
    await addMessages(700, 1000);
    await stats.note(700);
    expect(stats.refreshed).toBe(1);
    expect(await believed()).toBe(await actual());
    // Next threshold: the table's size, here above the floor of 500.
    const size = await actual();
    expect(size).toBeGreaterThan(500);
    await stats.note(size - 1);
    expect(stats.refreshed).toBe(1);
    await stats.note(1);
    expect(stats.refreshed).toBe(2);
  });

  it('with an endless floor refreshes once', async () => {
    const stats = new MessageStatistics(h.db, { first: 10, floor: Number.POSITIVE_INFINITY });
    await stats.note(10);
    await stats.note(10_000_000);
    expect(stats.refreshed).toBe(1);
  });

  it('a launch that writes more than 1,000 messages leaves the planner knowing them', async () => {
    await sql`delete from messages`.execute(h.db);
    await sql`analyze messages`.execute(h.db);
    expect(await believed()).toBeLessThan(1);
    const channels = (await h.op('channels.list', { token: manager, query: { platform: 'sms', enabled: 'true' } })).json();
    const lines = Array.from({ length: 1200 }, (_, i) => `${3005000000 + i};Cliente ${i}`).join('\n');
    const campaign = (await h.op('campaigns.create', { token: manager, body: { kind: 'open', purpose: 'transactional', channelId: channels.items[0].id, name: 'Estadísticas', content: 'Hola {{nombre}}' } })).json();
    expect((await h.op('campaigns.uploadRecipients', { token: manager, params: { id: campaign.id }, ...multipart('file', 'clientes.csv', 'text/csv', Buffer.from(`telefono;nombre\n${lines}\n`, 'utf8')) })).statusCode).toBe(200);
    expect((await h.op('campaigns.launch', { token: manager, params: { id: campaign.id } })).json()).toMatchObject({ state: 'preparing', total: 1200 });
    const handlers = jobHandlers({ db: h.db, now: () => h.clock.now, messaging: { sendWindow: companySendWindow(h.db), wake: () => {} }, storage: h.storage });
    await new JobRunner({ db: h.db, handlers, workerId: 'statistics', now: () => h.clock.now, idleMs: 10 }).drain();
    expect(await actual()).toBe(1200);
    // Refreshed once its job had written 1,000 rows (the first chunk came with the request).
    expect(await believed()).toBeGreaterThanOrEqual(1000);
  });
});
