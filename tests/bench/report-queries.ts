// Report screens at size: messages over 90 days in three companies, inserted with
// the rollup triggers on and folded as the product folds them; then each report screen's call,
// made through the API as the console makes it, timed reading the rollups (the product) and
// reading the raw rows (readTrafficFrom('raw'): the same question as a GROUP BY over each
// message's contribution, the anchor), in the same run and on the same data. The reports are
// read for the demo company, a third of the traffic, over the whole 90 days.
//
// REPORT_QUERIES_ROWS sets the messages on PostgreSQL (default 10,000,000, the issue's figure);
// REPORT_QUERIES_PGLITE_ROWS on PGlite (default 1,000,000: the embedded database is one WASM
// process whose memory stops near 2 GB, below ten million rows with their indexes).
// REPORT_QUERIES_ONLY=PostgreSQL (or PGlite) measures one database only; REPORT_QUERIES_SCREENS
// (names, comma-separated: general-operators,declared-operator-hour) only those screens.
import { sql } from 'kysely';
import { compactRollups } from '../../src/engine/lifecycle/rollups.ts';
import { readTrafficFrom } from '../../src/server/modules/reportCenter/traffic.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { newChannel, newRun } from '../server/report-fixtures.ts';
import type { Harness } from '../server/harness.ts';
import { onEachDatabase } from './databases.ts';
import type { Record } from './server-lists.ts';

const DAYS = 90;
const BATCH = 250_000;
const ROLLUP_RUNS = 40;
/** Raw reads take seconds to minutes each at ten million rows: three, not warmed (nothing to warm in a full scan). */
const RAW_RUNS = Number(process.env.REPORT_QUERIES_RAW_RUNS ?? 3);

const bogotaDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(d);

/**
 * `rows` messages of `accounts` (round robin) over the last DAYS days, shaped as an SMS company's
 * traffic is: each account one purpose (OTP, transactional, commercial), 85 % delivered and the
 * rest failed, blocked or waiting for a receipt, a fifth sent by campaign runs of three days each,
 * half the numbers named by the receipt's network and half by their allocation, every latency bucket.
 */
async function insertTraffic(h: Harness, companyId: number, accounts: number[], deployments: number[], rows: number) {
  const now = new Date();
  for (let from = 0; from < rows; from += BATCH) {
    await sql`
      insert into messages (company_id, channel_id, deployment_id, source, purpose, to_number, body, parts, cost, state, status_code,
                            not_before, created_at, updated_at, sent_at, done_at, network, billed)
      select ${companyId}, (${accounts}::int[])[1 + g % ${accounts.length}::int],
             case when g % 5 = 0 and ${deployments.length}::int > 0 then (${deployments}::bigint[])[1 + (g::bigint * ${DAYS} / ${rows} / 3)::int % greatest(${deployments.length}::int, 1)] end,
             case when g % 5 = 0 and ${deployments.length}::int > 0 then 'campaign' else 'api' end,
             (array['otp', 'transactional', 'commercial'])[1 + g % ${accounts.length}::int % 3],
             '+573' || lpad(((g::bigint * 7919) % 1000000000)::text, 9, '0'), 'Hola', 1 + (g % 7 = 0)::int, 1 + (g % 7 = 0)::int,
             st.state, st.code, ts, ts, ts, case when st.state <> 'rejected' then ts + interval '1 second' end,
             case when st.state in ('delivered', 'read', 'failed') then ts + interval '1 second' + make_interval(secs => (g % 90)) end,
             case g % 4 when 0 then '732101' when 1 then '732123' end, st.state <> 'rejected'
      from generate_series(${from + 1}::int, ${Math.min(rows, from + BATCH)}::int) g,
           lateral (select ${now}::timestamptz - make_interval(secs => (g::bigint * ${DAYS * 86400} / ${rows})::int) as ts) t,
           lateral (select case when g % 20 < 2 then 'failed' when g % 20 = 2 then 'rejected' when g % 20 = 3 then 'sent' else 'delivered' end as state,
                           case when g % 20 < 2 then 99 when g % 20 = 2 then 5 when g % 20 = 3 then 1 else 3 end as code) st`.execute(h.db);
  }
}

function percentile95(ms: number[]): number {
  const sorted = [...ms].sort((a, b) => a - b);
  return Number(sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)].toFixed(1));
}

export async function reportQueriesBench(record: Record, postgresUrl: string) {
  await onEachDatabase(postgresUrl, async (h, target) => {
    if (process.env.REPORT_QUERIES_ONLY && process.env.REPORT_QUERIES_ONLY !== target) return;
    const rows = target === 'PostgreSQL' ? Number(process.env.REPORT_QUERIES_ROWS ?? 10_000_000) : Number(process.env.REPORT_QUERIES_PGLITE_ROWS ?? 1_000_000);
    const admin = await h.as('admin');
    const companyId = (await h.db.selectFrom('users').select('company_id').where('id', '=', admin.session.idUser).executeTakeFirstOrThrow()).company_id;
    const accounts = [await newChannel(h, companyId, 'Bench A'), await newChannel(h, companyId, 'Bench B'), await newChannel(h, companyId, 'Bench C')];
    const deployments: number[] = [];
    for (let i = 0; i < 30; i++) deployments.push((await newRun(h, companyId, accounts[i % 3], `Bench campaign ${i}`, new Date(Date.now() - i * 3 * 86_400_000))).deploymentId);
    const others = [await h.addCompany('Bench Norte', []), await h.addCompany('Bench Sur', [])];
    const otherAccounts = [await newChannel(h, others[0].companyId, 'Norte'), await newChannel(h, others[1].companyId, 'Sur')];

    const insertStart = performance.now();
    const share = Math.floor(rows / 3);
    await insertTraffic(h, companyId, accounts, deployments, rows - 2 * share);
    await insertTraffic(h, others[0].companyId, [otherAccounts[0]], [], share);
    await insertTraffic(h, others[1].companyId, [otherAccounts[1]], [], share);
    const insertMs = performance.now() - insertStart;
    const foldStart = performance.now();
    // Until no delta is left (a fold that finds another process folding answers 0 at once).
    const deltas = async () => Number((await sql<{ n: string }>`select count(*) as n from message_rollup_deltas`.execute(h.db)).rows[0].n);
    while (await compactRollups(h.db) > 0 || await deltas() > 0);
    const foldMs = performance.now() - foldStart;
    // Vacuumed and analysed before timing: autovacuum waking on ten million new rows mid-run would time itself.
    await sql`vacuum analyze`.execute(h.db);
    const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(h.db)).rows[0].n);
    const rollupRows = `${await count('message_rollup_totals')} hour rows and ${await count('message_rollup_days')} day rows`;

    const today = bogotaDay(new Date());
    const first = bogotaDay(new Date(Date.now() - (DAYS - 1) * 86_400_000));
    const [year, month] = today.split('-').map(Number);
    const range = { DateStart: first, DateEnd: today };
    type Screen = { name: string; op: OperationId; body?: object; query?: { [key: string]: number }; span?: string };
    const screens = ([
      { name: 'general-transactions', op: 'reportCenter.getTransactionsSummary', body: { ClientId: accounts, ...range, AggregationLevel: 1 } },
      { name: 'general-operators', op: 'reportCenter.getOperatorsSummary', body: { ClientsIds: accounts, ...range } },
      { name: 'general-states', op: 'reportCenter.getTrafficByState', body: { ClientsIds: accounts, ...range } },
      { name: 'otp-by-day', op: 'otpReports.getTimesOtpByDay', body: { ClientsIds: accounts, ...range } },
      { name: 'otp-by-operator', op: 'otpReports.getTimesOtpByOperator', body: { ClientsIds: accounts, ...range } },
      { name: 'deployments', op: 'reportCenter.getDeploymentsSummary', body: { ClientsIds: accounts, ...range } },
      { name: 'campaigns', op: 'reportCenter.getCampaignsSummary', body: { ClientsIds: accounts, ...range } },
      { name: 'messages-per-month', op: 'reportCenter.messagesCountPerMonth', body: { clientId: accounts[0], year } },
      { name: 'billing-board', op: 'reportCenter.connectinInfoBillingBoard', query: { pOption: 1, pYear: year, pMonth: month } },
      // Reports a product owner declares in YAML (GetTraffic): operator by hour over the most
      // days an hourly report may span (15: 360 periods), and campaign by state over the 90 days.
      { name: 'declared-operator-hour', op: 'reportCenter.getTraffic', body: { ClientsIds: accounts, DateStart: bogotaDay(new Date(Date.now() - 14 * 86_400_000)), DateEnd: today, GroupBy: ['operator', 'period'], AggregationLevel: 0 }, span: 'the last 15 days by hour' },
      { name: 'declared-campaign-state', op: 'reportCenter.getTraffic', body: { ClientsIds: accounts, ...range, GroupBy: ['campaign', 'state'] } },
    ] satisfies Screen[] as Screen[]).filter((s) => !process.env.REPORT_QUERIES_SCREENS || process.env.REPORT_QUERIES_SCREENS.split(',').includes(s.name));
    const db = target === 'PostgreSQL' ? 'postgresql' : 'pglite';
    for (const screen of screens) {
      // The first role of the menu's that may read the report (they differ: develop only, productSms…).
      let token = '';
      for (const role of ['admin', 'develop', 'superadmin', 'manager']) {
        token = (await h.as(role)).token;
        if ((await h.op(screen.op, { token, params: { product: 'colibri' }, ...(screen.body ? { body: screen.body } : {}), ...(screen.query ? { query: screen.query } : {}) })).statusCode !== 403) break;
      }
      const call = async () => {
        const res = await h.op(screen.op, { token, params: { product: 'colibri' }, ...(screen.body ? { body: screen.body } : {}), ...(screen.query ? { query: screen.query } : {}) });
        if (res.statusCode !== 200) throw new Error(`${screen.op}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        return res.json() as { totals?: { messages: number } };
      };
      const timed = async (runs: number) => {
        const ms: number[] = [];
        let answer: unknown;
        for (let i = 0; i < runs; i++) {
          const start = performance.now();
          answer = await call();
          ms.push(performance.now() - start);
        }
        return { p95: percentile95(ms), answer };
      };
      await timed(3);
      const rollups = await timed(ROLLUP_RUNS);
      readTrafficFrom('raw');
      let raw: Awaited<ReturnType<typeof timed>>;
      try {
        raw = await timed(RAW_RUNS);
      } finally {
        readTrafficFrom('rollups');
      }
      const same = JSON.stringify(rollups.answer) === JSON.stringify(raw.answer);
      record({
        name: `report-query-${screen.name}-${db}`, value: rollups.p95, unit: 'ms (p95 of the API call, from the rollups)',
        anchor: 'the same call answering from the raw rows (GROUP BY of the messages), same run (ms, p95)', anchor_value: raw.p95,
        goal: 'value < 100 ms and ratio <= 0.05',
        notes: `${screen.op} for the demo company's 3 accounts over ${screen.span ?? `${DAYS} days`}; ${rows} messages in 3 companies (${rows - 2 * share} the demo company's), inserted in ${(insertMs / 1000).toFixed(0)} s with the rollup triggers, folded in ${(foldMs / 1000).toFixed(1)} s into ${rollupRows}; ${ROLLUP_RUNS} runs from the rollups, ${RAW_RUNS} from the raw rows; same answer both ways: ${same}`,
      });
    }
  });
}
