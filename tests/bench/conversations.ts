// Chatbot conversations under load: 10,000 conversations of one published flow on
// the demo company's two-way SMS channel, on PGlite (on disk, as `npm start` keeps it) and on
// PostgreSQL (BENCH_DATABASE_URL, default the local server, a fresh schema; the product's pool of
// 10 connections, as `npm start` opens it).
//
// Turns: the first 500 conversations are opened by messages in that carry the agent's keyword
// (measured), the other 9,500 copied from the first by SQL; then every conversation answers the
// menu once, CONCURRENCY messages in flight (closed loop: the machine saturated, its throughput);
// then at a human pace (PACED_SECONDS_BETWEEN_ANSWERS: Poisson arrivals, open loop, each turn timed
// from its message's arrival) — the issue's p99 target is read there: a latency target means at a
// load, and a closed loop of 20 on 2 cores measures the queue (Little's law: 20 / 388 per s ≈ 52 ms). Each message goes through
// routeInbound with the engine's conversations, as the server's inbound path hands it over; a turn
// counts from that call until the turn's transaction committed (its reply is then a queued row in
// `messages`, the engine's queue: the operator is excluded, no dispatcher runs; the reply's credits
// are reserved when the dispatcher claims it, migration 0496). The anchor: a
// hand-written minimal turn (lock the conversation, insert one reply row, save the session,
// commit) on the same pool, at the same concurrency, same run.
//
// Timers: the same 10,000 conversations, all waiting, get timer_at = T (a few seconds ahead, set
// by SQL); the conversations' poller runs as the server runs it (startConversations: every 250 ms,
// rounds of fireDueTimers, TIMER_BATCH a transaction, their turns taken together). Each conversation fired when its batch committed
// (the poller wakes the dispatcher right after each batch); lag = that instant − T. The anchor:
// the same 10,000 due rows fired set-based in one statement (lock, one reply row and one
// transcript row each, sessions saved), same run.
//
// On PostgreSQL a profile follows on a pool with Kysely's query log: per-statement time of turns
// at concurrency 1 and at CONCURRENCY (time waited on row locks shows in the statement that
// waited), with pg_stat_activity sampled for the lock waits. It goes in the turn result's notes.
// `npm run bench conversations` (BENCH_CONVERSATIONS, BENCH_CONVERSATIONS_CONCURRENCY override).
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import { startConversations, TIMER_BATCH, type Conversations } from '../../src/engine/conversations/index.ts';
import type { Database } from '../../src/engine/database.ts';
import type { FlowDefinition } from '../../src/generated/types.gen.ts';
import { routeInbound } from '../../src/engine/inbound.ts';
import { answerEdges, step } from '../../src/core/flows/build.ts';
import type { Harness } from '../server/harness.ts';
import { onEachDatabase, type BenchDatabase } from './databases.ts';
import type { Record } from './server-lists.ts';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONVERSATIONS_CONCURRENCY ?? 20);
const KEYWORD = 'CONSULTA';
const CHANNEL = 'SMS Respuestas 85432';
const SHORT_CODE = '85432';
/** How far ahead of the poller's start the timers are due. */
const TIMER_AHEAD_MS = 3000;
/** Conversations opened through the real path (measured as opening turns); the rest are copied from the first by SQL. */
const OPENED_THROUGH_INBOUND = Math.min(CONVERSATIONS, 500);
const REFERENCE_TURNS = 300;
const PROFILE_TURNS = 2000;
const ANCHOR_TURNS = Math.min(CONVERSATIONS, 5000);
const PROFILE_APP = 'colibri-bench-profile';
/**
 * Paced load: the 10,000 conversations with people answering at a human pace — on average once a
 * minute, then every 40 s and every 30 s (Poisson arrivals, open loop: a message arrives whether
 * or not the ones before got their turn, and its latency counts from its arrival, so a backlog
 * shows as latency instead of slowing the arrivals down).
 */
const PACED_SECONDS_BETWEEN_ANSWERS = [60, 40, 30];
const PACED_TURNS = Math.min(2000, Math.floor(CONVERSATIONS / (PACED_SECONDS_BETWEEN_ANSWERS.length + 1)));
/** The conversations the paced runs move (0 … PACED_TOTAL-1); the later phases use the ones after. */
const PACED_TOTAL = PACED_TURNS * PACED_SECONDS_BETWEEN_ANSWERS.length;

/** Distinct Colombian mobiles 3185000000…: ten digits starting with 3, E.164 as the SMPP adapter hands them in. */
const phone = (i: number) => `+573185${String(i).padStart(6, '0')}`;

/** Hola → menu (saldo, pagos, horario; 3 retries, 5 min) → an answer that asks whether there is more → back to the menu. */
function benchFlow(): FlowDefinition {
  return {
    steps: [
      step('start', 'initialCall', { keywords: [KEYWORD], text: 'Hola, soy el asistente de Colibri.' }),
      step('menu', 'send', {
        text: '¿Qué quieres consultar? Responde saldo, pagos u horario.', obligatoryMatch: true, noMatch: 'retry', nonMatchMessage: 'No entendí.',
        maxRetries: 3, waitMinutes: 5, assignTo: 'opcion',
        responses: [{ id: 'saldo', label: 'Saldo', keywords: ['saldo'] }, { id: 'pagos', label: 'Pagos', keywords: ['pagos', 'pago'] }, { id: 'horario', label: 'Horario', keywords: ['horario'] }],
      }),
      step('info', 'send', {
        text: 'Consultaste {{opcion}}: te llega el detalle en un momento. ¿Algo más? Responde menu.', obligatoryMatch: false, maxRetries: 3, waitMinutes: 5,
        responses: [{ id: 'otra', label: 'Menú', keywords: ['menu', 'si'] }],
      }),
      step('bye', 'end', { text: 'Hasta pronto.' }),
    ],
    edges: [
      { from: 'start', output: 'next', to: 'menu' },
      ...answerEdges('menu', { saldo: 'info', pagos: 'info', horario: 'info' }, 'bye'),
      { from: 'info', output: 'otra', to: 'menu' },
      { from: 'info', output: 'noMatch', to: 'menu' },
      { from: 'info', output: 'timeout', to: 'bye' },
    ],
  };
}

function pct(sorted: number[], p: number): number {
  return Number(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))].toFixed(1));
}
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return { count: s.length, p50: pct(s, 0.5), p95: pct(s, 0.95), p99: pct(s, 0.99), max: pct(s, 1) };
};
const show = (s: ReturnType<typeof summary>) => `p50 ${s.p50} ms, p95 ${s.p95} ms, p99 ${s.p99} ms, max ${s.max} ms`;

/** Runs `work(i)` for i in 0..count-1, `concurrency` at a time; answers the seconds it took. */
async function inFlight(count: number, concurrency: number, work: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await work(next++);
  }));
  return (performance.now() - start) / 1000;
}

/**
 * Runs `work(i)` for i in 0..count-1 as Poisson arrivals at `rate` a second (open loop); each
 * `work` gets its arrival instant, from which its latency counts. Answers the seconds it took.
 */
async function paced(count: number, rate: number, work: (i: number, arrival: number) => Promise<void>): Promise<number> {
  const start = performance.now();
  // A fixed seed: every run offers the same arrivals (a linear congruential generator).
  let seed = 0x2545f491;
  const uniform = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) + 0.5) / 2 ** 32;
  const running: Promise<void>[] = [];
  let arrival = start;
  for (let i = 0; i < count; i++) {
    arrival += (-Math.log(uniform()) / rate) * 1000;
    const wait = arrival - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    running.push(work(i, arrival));
  }
  await Promise.all(running);
  return (performance.now() - start) / 1000;
}

/** A load: so many in flight at once (closed loop), or arrivals at a rate (open loop, `paced`). */
type Load = number | { rate: number };
const drive = (count: number, load: Load, work: (i: number, arrival?: number) => Promise<void>): Promise<number> =>
  typeof load === 'number' ? inFlight(count, load, (k) => work(k)) : paced(count, load.rate, work);

interface TurnRun { turn: ReturnType<typeof summary>; routed: ReturnType<typeof summary>; samples: { turn: number[]; routed: number[] }; perSecond: number; seconds: number; replies: number }

/**
 * Messages in from phone(first … first+count-1) through routeInbound; per message the time until
 * the conversations' transaction committed (turn) and until routeInbound returned (routed).
 */
async function turns(db: Kysely<Database>, conversations: Conversations, channelId: number, tag: string, count: number, concurrency: Load, text: (i: number) => string, first = 0): Promise<TurnRun> {
  const turn: number[] = [];
  const routed: number[] = [];
  let replies = 0;
  const one = async (k: number, arrival?: number) => {
    const i = (first + k) % CONVERSATIONS;
    let committed = 0;
    let sent = 0;
    // The conversations the server hands the message to, with the instant their transaction committed noted.
    const tap: Conversations = {
      ...conversations,
      receive: async (m) => {
        const received = await conversations.receive(m);
        committed = performance.now();
        sent = received?.outcome?.sent ?? 0;
        return received;
      },
    };
    // Paced: from the message's arrival (a backlog counts); else from the call.
    const start = arrival ?? performance.now();
    await routeInbound(db, channelId, { to: SHORT_CODE, from: phone(i), text: text(i), providerMessageId: `bench-${tag}-${k}`, at: new Date() }, tap);
    const end = performance.now();
    if (!committed || !sent) throw new Error(`${tag}: the message from ${phone(i)} (${text(i)}) took no turn with a reply`);
    turn.push(committed - start);
    routed.push(end - start);
    replies += sent;
  };
  const seconds = await drive(count, concurrency, one);
  console.log(`bench conversations: ${tag}: ${count} turns in ${seconds.toFixed(1)} s, ${show(summary(turn))}`);
  return { turn: summary(turn), routed: summary(routed), samples: { turn, routed }, perSecond: count / seconds, seconds, replies };
}

/** The floor of a turn on this database: lock the conversation, insert one reply row, save the session, commit. */
async function minimalTurns(db: Kysely<Database>, companyId: number, channelId: number, count: number, concurrency: Load): Promise<{ s: ReturnType<typeof summary>; perSecond: number }> {
  const ms: number[] = [];
  const one = async (k: number, arrival?: number) => {
    const contact = phone(k % CONVERSATIONS);
    const start = arrival ?? performance.now();
    await db.transaction().execute(async (trx) => {
      const c = await sql<{ id: string; session: unknown }>`select id, session from conversations
        where channel_id = ${channelId} and contact = ${contact} and state in ('waitingReply', 'waitingIntegration') for update`.execute(trx);
      const id = c.rows[0].id;
      const now = new Date();
      await sql`insert into messages (company_id, channel_id, source, purpose, to_number, body, parts, cost, state, status_code, not_before, created_at, updated_at)
        values (${companyId}, ${channelId}, 'flow', 'transactional', ${contact}, 'Consultaste Saldo: te llega el detalle en un momento.', 1, 0, 'rejected', 94, ${now}, ${now}, ${now})`.execute(trx);
      await sql`update conversations set session = ${JSON.stringify(c.rows[0].session)}::jsonb, timer_at = ${new Date(now.getTime() + 300_000)}, updated_at = ${now} where id = ${id}`.execute(trx);
    });
    ms.push(performance.now() - start);
  };
  const seconds = await drive(count, concurrency, one);
  return { s: summary(ms), perSecond: count / seconds };
}

/** The same due rows fired set-based in one statement: the floor of firing them on this database. */
async function setBasedFire(db: Kysely<Database>, flowId: number, due: Date): Promise<{ ms: number; fired: number }> {
  const now = new Date();
  const start = performance.now();
  const result = await sql<{ n: string }>`
    with due as (select id, company_id, channel_id, contact from conversations where timer_at <= ${due} and flow_id = ${flowId}
                 order by timer_at for update skip locked),
    sent as (insert into messages (company_id, channel_id, source, purpose, to_number, body, parts, cost, state, status_code, not_before, created_at, updated_at)
             select company_id, channel_id, 'flow', 'transactional', contact, '¿Qué quieres consultar? Responde saldo, pagos u horario.', 1, 0, 'rejected', 94, ${now}, ${now}, ${now}
             from due returning id, to_number),
    turns as (insert into conversation_turns (conversation_id, company_id, direction, step_id, body, message_id, at)
              select due.id, due.company_id, 'out', 'menu', '¿Qué quieres consultar? Responde saldo, pagos u horario.', sent.id, ${now}
              from due join sent on sent.to_number = due.contact),
    saved as (update conversations c set session = jsonb_set(c.session, '{retries}', to_jsonb(coalesce((c.session->>'retries')::int, 0) + 1)),
                     timer_at = ${new Date(now.getTime() + 300_000)}, updated_at = ${now}
              from due where c.id = due.id returning c.id)
    select count(*) as n from saved`.execute(db);
  return { ms: performance.now() - start, fired: Number(result.rows[0].n) };
}

/** The database's statements by time, from Kysely's query log: per turn, and the ones that cost most. */
function profiler() {
  const byStatement = new Map<string, { n: number; ms: number }>();
  return {
    log(event: LogEvent) {
      const key = event.query.sql.replace(/\s+/g, ' ').trim().slice(0, 70);
      const kept = byStatement.get(key) ?? { n: 0, ms: 0 };
      kept.n += 1;
      kept.ms += event.queryDurationMillis;
      byStatement.set(key, kept);
    },
    reset: () => byStatement.clear(),
    report(turnCount: number, turnMsTotal: number, shown: number): string {
      const rows = [...byStatement.entries()].sort((a, b) => b[1].ms - a[1].ms);
      const statements = rows.reduce((a, [, v]) => a + v.n, 0);
      const inQueries = rows.reduce((a, [, v]) => a + v.ms, 0);
      const top = rows.slice(0, shown).map(([k, v]) => `"${k}…" ${(v.ms / turnCount).toFixed(2)} ms/turn (${(v.n / turnCount).toFixed(1)}×)`).join('; ');
      return `${(statements / turnCount).toFixed(1)} statements/turn, ${(inQueries / turnCount).toFixed(2)} ms/turn in statements of ${(turnMsTotal / turnCount).toFixed(2)} ms/turn (the rest: pool wait, begin/commit, JS); most time: ${top}`;
    },
  };
}

/**
 * Conversations OPENED_THROUGH_INBOUND..CONVERSATIONS-1 as the real path opens them, set-based: the
 * first opened conversation's row (its session with the number put in its variables, its timer),
 * its transcript and its inbound row, copied once per number.
 */
async function openInBulk(db: Kysely<Database>, flowId: number): Promise<number> {
  const start = performance.now();
  const template = await sql<{ id: string }>`select id from conversations where flow_id = ${flowId} and contact = ${phone(0)}`.execute(db);
  const id = template.rows[0].id;
  const number = sql`'+573185' || lpad(g::text, 6, '0')`;
  await sql`insert into conversations (company_id, channel_id, agent_id, flow_id, flow_version, contact, state, step_id, session, timer_at, started_at, updated_at)
    select c.company_id, c.channel_id, c.agent_id, c.flow_id, c.flow_version, ${number}, c.state, c.step_id,
           jsonb_set(c.session, '{vars,phone}', to_jsonb(${number})), c.timer_at, c.started_at, c.updated_at
    from conversations c, generate_series(${OPENED_THROUGH_INBOUND}::int, ${CONVERSATIONS - 1}::int) g where c.id = ${id}`.execute(db);
  await sql`insert into conversation_turns (conversation_id, company_id, direction, step_id, body, message_id, at)
    select n.id, t.company_id, t.direction, t.step_id, t.body, null, t.at
    from conversations n join conversation_turns t on t.conversation_id = ${id}
    where n.flow_id = ${flowId} and n.id > ${id} and n.contact >= ${phone(OPENED_THROUGH_INBOUND)} order by n.id, t.id`.execute(db);
  await sql`insert into inbound_messages (company_id, channel_id, from_number, to_address, body, keyword, action, provider_message_id, received_at)
    select i.company_id, i.channel_id, ${number}, i.to_address, i.body, i.keyword, i.action, 'bench-bulk-' || g, i.received_at
    from inbound_messages i, generate_series(${OPENED_THROUGH_INBOUND}::int, ${CONVERSATIONS - 1}::int) g
    where i.channel_id = (select channel_id from conversations where id = ${id}) and i.from_number = ${phone(0)}`.execute(db);
  return performance.now() - start;
}

/**
 * Samples pg_stat_activity every few ms for the backends of application_name PROFILE_APP: of
 * the samples in which a backend was busy in a turn, the share waiting on a lock, by statement.
 */
function lockSampler(postgresUrl: string) {
  const client = new pg.Client({ connectionString: postgresUrl });
  const waits = new Map<string, number>();
  let busy = 0;
  let running = false;
  let loop: Promise<void> = Promise.resolve();
  return {
    async start() {
      await client.connect();
      running = true;
      loop = (async () => {
        while (running) {
          const r = await client.query<{ query: string; wait_event_type: string | null; wait_event: string | null }>(
            `select query, wait_event_type, wait_event from pg_stat_activity where application_name = $1 and state = 'active'`, [PROFILE_APP]);
          for (const row of r.rows) {
            busy += 1;
            if (row.wait_event_type === 'Lock') {
              const key = `${row.wait_event}: ${row.query.replace(/\s+/g, ' ').trim().slice(0, 50)}`;
              waits.set(key, (waits.get(key) ?? 0) + 1);
            }
          }
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
    },
    async stop(): Promise<string> {
      running = false;
      await loop;
      await client.end();
      const rows = [...waits.entries()].sort((a, b) => b[1] - a[1]);
      const waited = rows.reduce((a, [, n]) => a + n, 0);
      return `${busy} samples of a busy backend, ${(100 * waited / Math.max(1, busy)).toFixed(0)} % of them waiting on a lock: ${rows.slice(0, 4).map(([k, n]) => `"${k}…" ${(100 * n / Math.max(1, busy)).toFixed(0)} %`).join('; ')}`;
    },
  };
}

async function conversationsRun(h: Harness, target: BenchDatabase, record: Record, postgresUrl: string): Promise<void> {
  const slug = target.toLowerCase();
  const { token } = await h.as('manager');
  const channel = await h.db.selectFrom('channels').select(['id', 'company_id']).where('name', '=', CHANNEL).executeTakeFirstOrThrow();
  const companyId = channel.company_id;
  const created = await h.op('flows.create', { token, body: { name: 'Consultas (benchmark)', draft: benchFlow() } });
  if (created.statusCode !== 200) throw new Error(`flows.create answered ${created.statusCode}: ${created.body}`);
  const flowId = created.json().id as number;
  const published = await h.op('flows.publish', { token, params: { id: flowId } });
  if (published.statusCode !== 200) throw new Error(`flows.publish answered ${published.statusCode}: ${published.body}`);
  const agent = await h.op('agents.create', { token, body: { name: 'Consultas', channelId: channel.id, flowId, keywords: [KEYWORD] } });
  if (agent.statusCode !== 200) throw new Error(`agents.create answered ${agent.statusCode}: ${agent.body}`);
  // Every reply is paid for like any message: enough credits for the whole run.
  await sql`update company_credits set balance = balance + ${CONVERSATIONS * 1000} where company_id = ${companyId}`.execute(h.db);

  // PostgreSQL: the product's pool (10 connections, as `npm start` opens it) on the harness's schema.
  let db = h.db;
  let pool: pg.Pool | null = null;
  let schema = '';
  if (target === 'PostgreSQL') {
    schema = (await sql<{ s: string }>`select current_schema() as s`.execute(h.db)).rows[0].s;
    pool = new pg.Pool({ connectionString: postgresUrl, max: 10, options: `-c search_path=${schema}` });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const conversations = startConversations({ db, wake: () => {} });
  const loadBefore = loadavg()[0];
  try {
    // Open: the first numbers write the keyword (the agent starts the flow: greeting and menu, two
    // replies), measured; the others are copied from the first by SQL (opening them all this way is
    // the same turn 10,000 times, and would take minutes).
    const opened = await turns(db, conversations, channel.id, 'open', OPENED_THROUGH_INBOUND, CONCURRENCY, () => KEYWORD);
    const bulkMs = OPENED_THROUGH_INBOUND < CONVERSATIONS ? await openInBulk(db, flowId) : 0;
    const open = Number((await sql<{ n: string }>`select count(*) as n from conversations where flow_id = ${flowId} and state = 'waitingReply' and step_id = 'menu'`.execute(db)).rows[0].n);
    if (open !== CONVERSATIONS) throw new Error(`${open} conversations open at the menu, ${CONVERSATIONS} expected`);
    await sql`analyze`.execute(db);

    // The measured turns: every conversation answers the menu (saldo, pagos or horario: one reply, the answer step).
    const choices = ['saldo', 'pagos', 'horario'];
    const answer = await turns(db, conversations, channel.id, 'answer', CONVERSATIONS, CONCURRENCY, (i) => choices[i % 3]);
    // Every reply a queued message (none refused: block list, credits, an unusable number).
    const states = await sql<{ state: string; n: string }>`select state, count(*) as n from messages where channel_id = ${channel.id} and source = 'flow' group by state`.execute(db);
    const queued = Number(states.rows.find((r) => r.state === 'queued')?.n ?? 0);
    if (states.rows.length !== 1 || queued !== 2 * OPENED_THROUGH_INBOUND + CONVERSATIONS) throw new Error(`the replies: ${JSON.stringify(states.rows)}`);
    const measured = answer.turn;
    const measuredRouted = answer.routed;
    const measuredCount = CONVERSATIONS;
    const seconds = answer.seconds;
    const perSecond = answer.perSecond;

    // Paced: the people answer at a human pace (open loop), conversations 0 … PACED_TOTAL-1 each
    // writing "menu" once (the answer step's output back to the menu: one reply, the menu's question).
    const pacedRuns: { everySeconds: number; rate: number; run: TurnRun; anchor: { s: ReturnType<typeof summary>; perSecond: number } }[] = [];
    for (const [j, everySeconds] of PACED_SECONDS_BETWEEN_ANSWERS.entries()) {
      const rate = CONVERSATIONS / everySeconds;
      const run = await turns(db, conversations, channel.id, `paced-${everySeconds}s`, PACED_TURNS, { rate }, () => 'menu', j * PACED_TURNS);
      const pacedAnchor = await minimalTurns(db, companyId, channel.id, PACED_TURNS, { rate });
      pacedRuns.push({ everySeconds, rate, run, anchor: pacedAnchor });
    }

    // One at a time: a turn's own cost, without queueing behind the others (conversations 0.. ask for the menu again: one reply).
    const single = await turns(db, conversations, channel.id, 'single', REFERENCE_TURNS, 1, () => 'menu', PACED_TOTAL);
    const anchor = await minimalTurns(db, companyId, channel.id, ANCHOR_TURNS, CONCURRENCY);

    let profile = '';
    if (pool) {
      const p = profiler();
      const logged = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: postgresUrl, max: 10, options: `-c search_path=${schema}`, application_name: PROFILE_APP }) }), log: p.log });
      try {
        const loggedConversations = startConversations({ db: logged, wake: () => {} });
        // Conversations from PACED_TOTAL + REFERENCE_TURNS on wait at the answer step (the paced and one-at-a-time runs moved the ones before): each asks for the menu again.
        const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
        const one = await turns(logged, loggedConversations, channel.id, 'profile-1', REFERENCE_TURNS, 1, () => 'menu', PACED_TOTAL + REFERENCE_TURNS);
        const oneReport = p.report(REFERENCE_TURNS, sum(one.samples.routed), 16);
        p.reset();
        const sampler = lockSampler(postgresUrl);
        await sampler.start();
        const many = await turns(logged, loggedConversations, channel.id, 'profile-n', PROFILE_TURNS, CONCURRENCY, () => 'menu', PACED_TOTAL + 2 * REFERENCE_TURNS);
        const locks = await sampler.stop();
        const manyReport = p.report(PROFILE_TURNS, sum(many.samples.routed), 6);
        profile = `Profile (Kysely query log over routeInbound, a pool of 10 of its own): at concurrency 1, ${REFERENCE_TURNS} turns (p50 ${one.routed.p50} ms): ${oneReport}. At concurrency ${CONCURRENCY}, ${PROFILE_TURNS} turns (${show(many.turn)}): ${manyReport}. Lock waits (pg_stat_activity every 5 ms): ${locks}`;
        console.log(`bench conversations: ${profile}`);
      } finally {
        await logged.destroy();
      }
    }

    const pacedShown = pacedRuns.map((p) => `every ${p.everySeconds} s (${Math.round(p.rate)} turns/s offered, ${PACED_TURNS} turns): ${show(p.run.turn)}; anchor ${show(p.anchor.s)}`).join('. ');
    const turnNotes = `${CONVERSATIONS} conversations of one flow on the demo company's two-way SMS channel (${target}${target === 'PGlite' ? ' on disk, one connection' : ', pool of 10'}), ${CONCURRENCY} messages in flight, each through routeInbound with the engine's conversations (inbound row stored, turn taken and reply enqueued as a queued message, in one transaction; its credits are reserved when the dispatcher claims it, which does not run here). `
      + `Measured ${measuredCount} turns in ${seconds.toFixed(1)} s (${Math.round(perSecond)} turns/s): ${show(measured)} (each answered the menu: one reply, the answer step's question). `
      + `Until routeInbound returned: ${show(measuredRouted)}. `
      + `Opening: ${OPENED_THROUGH_INBOUND} by their keyword through the same path (2 replies each) ${show(opened.turn)}, ${Math.round(opened.perSecond)} turns/s; the other ${CONVERSATIONS - OPENED_THROUGH_INBOUND} copied from the first by SQL in ${(bulkMs / 1000).toFixed(1)} s (conversation, transcript, inbound row). `
      + `Paced (open loop): ${pacedShown}. `
      + `One at a time (${REFERENCE_TURNS} turns, concurrency 1): ${show(single.turn)}. `
      + `Anchor, ${ANCHOR_TURNS} minimal turn transactions at concurrency ${CONCURRENCY}: ${show(anchor.s)}, ${Math.round(anchor.perSecond)}/s. `
      + `Load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)} on a 2-core machine. ${profile}`;
    record({
      name: `conversations-turn-p99-${slug}`, value: measured.p99, unit: 'ms p99 (message in → reply enqueued, committed)',
      anchor: `a minimal turn transaction (lock the conversation, insert one reply row, save the session) at the same concurrency on ${target}, same run (ms p99)`, anchor_value: anchor.s.p99,
      goal: 'noted: the machine saturated (the target is met, or not, at a human pace: conversations-turn-p99-every-*)', notes: turnNotes,
    });
    for (const p of pacedRuns) {
      record({
        name: `conversations-turn-p99-every-${p.everySeconds}s-${slug}`, value: p.run.turn.p99, unit: 'ms p99 (message in → reply enqueued, committed), from each message\'s arrival',
        anchor: `a minimal turn transaction (lock the conversation, insert one reply row, save the session) offered at the same rate on ${target}, same run (ms p99)`, anchor_value: p.anchor.s.p99,
        goal: 'p99 < 50 ms on PostgreSQL, excluding the operator',
        notes: `${CONVERSATIONS} open conversations of one flow (${target}${target === 'PGlite' ? ' on disk, one connection' : ', pool of 10'}); the people answer on average every ${p.everySeconds} s: `
          + `Poisson arrivals at ${Math.round(p.rate)} turns/s, open loop (a message arrives whether or not the earlier ones got their turn; its time counts from its arrival, so a backlog shows). `
          + `${PACED_TURNS} turns: ${show(p.run.turn)}. All paced runs: ${pacedShown}. At saturation (${CONCURRENCY} in flight, closed loop): ${show(measured)} at ${Math.round(perSecond)} turns/s.`,
      });
    }
    record({
      name: `conversations-turn-p50-${slug}`, value: measured.p50, unit: 'ms p50 (message in → reply enqueued, committed)',
      anchor: `a minimal turn transaction at the same concurrency on ${target}, same run (ms p50)`, anchor_value: anchor.s.p50,
      goal: 'noted (the p99 is the target)', notes: `${measuredCount} turns, ${CONCURRENCY} in flight: ${show(measured)}; one at a time ${show(single.turn)}`,
    });
    record({
      name: `conversations-turns-per-s-${slug}`, value: Math.round(perSecond), unit: 'turns/s',
      anchor: `minimal turn transactions/s at the same concurrency on ${target}, same run`, anchor_value: Math.round(anchor.perSecond),
      goal: 'noted', notes: `${measuredCount} turns, ${CONCURRENCY} in flight, ${answer.replies} replies enqueued`,
    });

    // Timers: every conversation waiting, all due at T; the poller as the server runs it.
    const due = new Date(Date.now() + TIMER_AHEAD_MS);
    const set = await sql`update conversations set timer_at = ${due} where flow_id = ${flowId} and state = 'waitingReply'`.execute(db);
    const waiting = Number(set.numAffectedRows ?? 0);
    await sql`analyze conversations`.execute(db);
    const dueAt = performance.now() + (due.getTime() - Date.now());
    const batches: number[] = [];
    const poller = startConversations({ db, wake: () => batches.push(performance.now()) });
    poller.start();
    const batchSize = TIMER_BATCH;
    const expectedBatches = Math.ceil(waiting / batchSize);
    const deadline = Date.now() + TIMER_AHEAD_MS + 10 * 60_000;
    while (batches.length < expectedBatches && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await poller.stop();
    const left = Number((await sql<{ n: string }>`select count(*) as n from conversations where flow_id = ${flowId} and timer_at <= ${due}`.execute(db)).rows[0].n);
    const firedTurns = Number((await sql<{ n: string }>`select count(*) as n from conversation_turns t join conversations c on c.id = t.conversation_id
      where c.flow_id = ${flowId} and t.direction = 'out' and t.at >= ${due}`.execute(db)).rows[0].n);
    if (left > 0 || batches.length !== expectedBatches || firedTurns !== waiting) {
      throw new Error(`timers: ${left} still due, ${batches.length} batches committed (${expectedBatches} expected), ${firedTurns} replies of ${waiting}`);
    }
    // Batch b (TIMER_BATCH conversations, the last one the rest) committed at batches[b].
    const lags: number[] = [];
    batches.forEach((at, b) => { for (let k = 0; k < Math.min(batchSize, waiting - b * batchSize); k++) lags.push(at - dueAt); });
    const lag = summary(lags);
    const allFired = batches[batches.length - 1] - dueAt;
    const firstBatch = batches[0] - dueAt;
    const perBatch = (batches[batches.length - 1] - batches[0]) / Math.max(1, batches.length - 1);

    // The anchor: the same rows due again, fired in one set-based statement.
    await sql`update conversations set timer_at = ${new Date(Date.now() - 1000)} where flow_id = ${flowId} and state = 'waitingReply'`.execute(db);
    const floor = await setBasedFire(db, flowId, new Date());
    if (floor.fired !== waiting) throw new Error(`set-based fire: ${floor.fired} of ${waiting}`);

    const timerNotes = `${waiting} waiting conversations with timer_at = T (${TIMER_AHEAD_MS} ms after the poller started); the poller of startConversations (every 250 ms, fireDueTimers ${TIMER_BATCH} a transaction with their turns taken together, one round at a time) on ${target}; `
      + `each fired when its batch committed: lag ${show(lag)}; first batch ${firstBatch.toFixed(0)} ms after T, then ${perBatch.toFixed(0)} ms a batch of ${batchSize} (${(perBatch / batchSize).toFixed(2)} ms a conversation), ${batches.length} batches; every timer fired once (a retry: one reply each). `
      + `Anchor: the same ${waiting} due rows fired set-based in one statement (lock, a reply row and a transcript row each, sessions saved): ${floor.ms.toFixed(0)} ms.`;
    record({
      name: `conversations-timers-all-fired-${slug}`, value: Math.round(allFired), unit: `ms from T until all ${waiting} timers fired`,
      anchor: `the same ${waiting} due timers fired set-based in one statement on ${target}, same run (ms)`, anchor_value: Math.round(floor.ms),
      goal: `all ${CONVERSATIONS} pending timers fire within 1,000 ms of their time`, notes: timerNotes,
    });
    record({
      name: `conversations-timers-lag-p99-${slug}`, value: lag.p99, unit: 'ms p99 (timer fired − its time)',
      anchor: `the same ${waiting} due timers fired set-based in one statement on ${target}, same run (ms)`, anchor_value: Math.round(floor.ms),
      goal: 'within 1,000 ms of their time', notes: `lag ${show(lag)} over ${waiting} timers`,
    });
  } finally {
    await conversations.stop();
    if (pool) await db.destroy();
  }
}

export async function conversationsBench(record: Record, postgresUrl: string) {
  await onEachDatabase(postgresUrl, (h, target) => conversationsRun(h, target, record, postgresUrl),
    (target) => (target === 'PGlite' ? { pgliteDir: mkdtempSync(join(tmpdir(), 'colibri-conversations-')) } : {}));
}
