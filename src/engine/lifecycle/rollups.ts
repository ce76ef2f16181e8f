// Report rollups (ARCHITECTURE 4): hour buckets of the messages by company, area (the
// sending team member's branch office, kept on the message when it is created), channel,
// deployment, purpose, source, state, status code, the network's error code ('' for none; Meta's
// codes for WhatsApp) and the operator, with counts, parts, credits and
// the delivery latency (sum, count and the ≤ 3 s, ≤ 5 s, ≤ 60 s, longer buckets of spec 4's OTP
// and transactional reports). Reports read these, never a scan of `messages`.
//
// Exact by construction: a rollup is Σ f(message) over the messages of its key, and the one place
// every message change passes is the `messages` table itself. Statement-level triggers (their SQL
// below, installed by migration 0410) add f(new rows) − f(old rows) for every insert, update and
// delete, in the statement's own transaction: a change and its rollup commit together or not at
// all (crash), whichever lifecycle statement made it, and no future statement can forget it.
//
// Contention-free: the trigger only APPENDS its per-statement deltas to message_rollup_deltas
// (changes that move nothing, such as a claim or a heartbeat, write nothing). Updating a shared
// total row there would make every worker's statement wait on the same hot rows, and deadlock
// with a transaction that takes them in the other order. compactRollups folds the deltas into
// message_rollup_totals (one compactor at a time); readers read the message_rollups view, the
// union of both, and always sum by the key they want.
//
// The operator is the serving network a receipt named (messages.network, MCC+MNC)
// or, without one, the number's original allocation, and the key says which (operator_basis):
// with number portability a prefix is not the operator (src/core/co-operators.ts). The number's
// allocation is computed once per row (a lateral subquery), though both the id and the basis read it.
//
// Two grains: hours (message_rollup_totals, read through message_rollups) for reports by hour,
// and Bogotá days (message_rollup_days, read through message_rollups_daily) for everything else.
// A report over 90 days reads a day's rows once instead of its 24 hours' (at ten million messages
// that is what keeps a screen under 100 ms: tests/bench/report-queries.ts). The deltas are kept
// by the hour only; each fold adds the same deltas to both, so a day's row is always the sum of
// its hours'.
//
// The key holds only the message's own columns: a campaign is read through its deployment when a
// report groups by campaign (a deployment belongs to one campaign for life), so a rollup never
// depends on another table's row (a deleted campaign or a cascaded delete would leave it stale).
import { sql, type Kysely } from 'kysely';
import { ALLOCATION_BLOCKS, COLOMBIA_MCC, NETWORK_CODES } from '../../core/co-operators.ts';
import { constants } from '../../generated/constants.gen.ts';
import type { Database } from '../database.ts';

/** The key columns, in the tables' order. */
export const ROLLUP_KEY = ['bucket', 'company_id', 'area_id', 'channel_id', 'deployment_id', 'purpose', 'source', 'state', 'status_code', 'error_code', 'operator_id', 'operator_basis'] as const;
/** The measures, each a sum. */
export const ROLLUP_MEASURES = ['messages', 'parts', 'credits', 'latency_ms', 'latency_count', 'latency_3s', 'latency_5s', 'latency_60s', 'latency_over'] as const;

export type RollupKey = (typeof ROLLUP_KEY)[number];
export type RollupMeasure = (typeof ROLLUP_MEASURES)[number];

/** Delivery latency: from the submit (sent_at) to the receipt that said delivered (done_at). */
// Never below zero: a receipt may be stored a moment before its submit's answer (the SMSC answers
// both at once), and then done_at comes before sent_at.
const LATENCY = `greatest(extract(epoch from (r.done_at - r.sent_at)) * 1000, 0)`;
const DELIVERED = `(r.state in ('delivered', 'read') and r.sent_at is not null and r.done_at is not null)`;

// The operator tables as SQL over a message row (digit strings compare the same in every collation).
const allocatedSql = (r: string) => `case when ${r}.to_number like '+573%' and length(${r}.to_number) = 13 then case ${ALLOCATION_BLOCKS.map(
  (b) => `when substr(${r}.to_number, 4, 3) between '${b.from}' and '${b.to}' then ${b.operator}`).join(' ')} else 0 end else 0 end`;
const servingSql = (r: string) => `case when ${r}.network like '${COLOMBIA_MCC}%' then case substr(${r}.network, ${COLOMBIA_MCC.length + 1}) ${Object.entries(NETWORK_CODES).map(
  ([mnc, id]) => `when '${mnc}' then ${id}`).join(' ')} else 0 end else 0 end`;

/** The operator id and basis of row `r`, given its allocated operator as SQL (an expression or a column). */
function operatorExpressions(r: string, allocated: string): { id: string; basis: string } {
  return {
    id: `case when ${r}.network is not null then ${servingSql(r)} else ${allocated} end`,
    basis: `case when ${r}.network is not null then 'network' when (${allocated}) <> 0 then 'allocation' else 'none' end`,
  };
}
/** In the rollups the allocation comes from the lateral `alloc` beside each row (rowsOf). */
const OPERATOR = operatorExpressions('r', 'alloc.operator');

/** A message row's operator id and its basis as SQL, for a row named `alias` (one number's lookup). */
export const operatorSql = (alias: string): { id: string; basis: string } => operatorExpressions(alias, `(${allocatedSql(alias)})`);

/**
 * f(message): the key and the measures of one message row `r`, as
 * select-list expressions. Hours are UTC (date_trunc's zone argument): the bucket never depends
 * on a connection's TimeZone; reports shift to Bogotá when they group.
 */
function contribution(sign: 1 | -1): string {
  const s = sign === 1 ? '' : '-';
  return [
    `date_trunc('hour', r.created_at, 'UTC') as bucket`, 'r.company_id', 'coalesce(r.area_id, 0) as area_id', 'r.channel_id', 'coalesce(r.deployment_id, 0) as deployment_id',
    'r.purpose', 'r.source', 'r.state', 'r.status_code', `coalesce(r.error_code, '') as error_code`, `(${OPERATOR.id})::smallint as operator_id`, `${OPERATOR.basis} as operator_basis`,
    `${s}1 as messages`, `${s}r.parts as parts`, `${s}(case when r.billed then r.cost else 0 end) as credits`,
    `${s}(case when ${DELIVERED} then round(${LATENCY})::bigint else 0 end) as latency_ms`,
    `${s}(case when ${DELIVERED} then 1 else 0 end) as latency_count`,
    `${s}(case when ${DELIVERED} and ${LATENCY} <= 3000 then 1 else 0 end) as latency_3s`,
    `${s}(case when ${DELIVERED} and ${LATENCY} <= 5000 then 1 else 0 end) as latency_5s`,
    `${s}(case when ${DELIVERED} and ${LATENCY} <= 60000 then 1 else 0 end) as latency_60s`,
    `${s}(case when ${DELIVERED} and ${LATENCY} > 60000 then 1 else 0 end) as latency_over`,
  ].join(', ');
}

const rowsOf = (table: string, sign: 1 | -1) => `select ${contribution(sign)} from ${table} r cross join lateral (select ${allocatedSql('r')} as operator) alloc`;
const KEY = ROLLUP_KEY.join(', ');
const SUMS = ROLLUP_MEASURES.map((m) => `sum(${m}) as ${m}`).join(', ');
const NONZERO = ROLLUP_MEASURES.map((m) => `sum(${m}) <> 0`).join(' or ');
const COLUMNS = `${KEY}, ${ROLLUP_MEASURES.join(', ')}`;
/** The Bogotá day that holds an hour bucket, as the instant it starts (a timestamptz, like the hours). */
const dayOf = (bucket: string) => `date_trunc('day', ${bucket}, '${constants.sendWindow.timeZone}')`;
/** The key with the hour bucket turned into its day, as select-list expressions over rows aliased `x`. */
const DAY_KEY_SELECT = [`${dayOf('x.bucket')} as bucket`, ...ROLLUP_KEY.filter((k) => k !== 'bucket').map((k) => `x.${k}`)].join(', ');
const DAY_KEY_GROUP = [dayOf('x.bucket'), ...ROLLUP_KEY.filter((k) => k !== 'bucket').map((k) => `x.${k}`)].join(', ');
const X_SUMS = ROLLUP_MEASURES.map((m) => `sum(x.${m}) as ${m}`).join(', ');
/** Hour rows (a select with the rollup columns) summed into day rows. */
const byDay = (hours: string) => `select ${DAY_KEY_SELECT}, ${X_SUMS} from (${hours}) x group by ${DAY_KEY_GROUP}`;

/** Company first: every report is one company's (or the platform's, by company). */
const PRIMARY_KEY = ['company_id', 'bucket', ...ROLLUP_KEY.filter((k) => k !== 'company_id' && k !== 'bucket')].join(', ');

/** The rollup of some message rows, grouped: `source` is a select of f(row) rows. */
const grouped = (source: string) => `select ${KEY}, ${SUMS} from (${source}) f group by ${KEY} having ${NONZERO}`;

/** The trigger function and its three statement-level triggers (transition tables allow one event each). */
export function rollupTriggerSql(): string[] {
  return [
    `create or replace function message_rollup_deltas_write() returns trigger language plpgsql as $$
     begin
       if tg_op = 'INSERT' then
         insert into message_rollup_deltas (${COLUMNS}) ${grouped(rowsOf('new_rows', 1))};
       elsif tg_op = 'UPDATE' then
         insert into message_rollup_deltas (${COLUMNS}) ${grouped(`${rowsOf('new_rows', 1)} union all ${rowsOf('old_rows', -1)}`)};
       else
         insert into message_rollup_deltas (${COLUMNS}) ${grouped(rowsOf('old_rows', -1))};
       end if;
       return null;
     end $$`,
    `create trigger messages_rollup_insert after insert on messages referencing new table as new_rows
       for each statement execute function message_rollup_deltas_write()`,
    `create trigger messages_rollup_update after update on messages referencing old table as old_rows new table as new_rows
       for each statement execute function message_rollup_deltas_write()`,
    `create trigger messages_rollup_delete after delete on messages referencing old table as old_rows
       for each statement execute function message_rollup_deltas_write()`,
  ];
}

/**
 * Every rollup object dropped (triggers, function, view, tables): a migration that changes the
 * key drops the old shape and creates the current one with createRollupsSql (the migration that
 * created the previous shape then does nothing on a new database: see migrations 0420 and 0430).
 */
export function dropRollupsSql(): string[] {
  return [
    ...['insert', 'update', 'delete'].map((name) => `drop trigger if exists messages_rollup_${name} on messages`),
    'drop function if exists message_rollup_deltas_write()',
    'drop view if exists message_rollups_daily',
    'drop view if exists message_rollups',
    'drop table if exists message_rollup_deltas',
    'drop table if exists message_rollup_days',
    'drop table if exists message_rollup_totals',
  ];
}

/** The current rollups created, with the messages already there rolled up once. */
export function createRollupsSql(): string[] {
  return [...rollupTablesSql(), ...rollupTriggerSql(), insertRawRollupSql(), `insert into message_rollup_days (${COLUMNS}) ${byDay('select * from message_rollup_totals')}`];
}

/** The tables and the view. */
export function rollupTablesSql(): string[] {
  const columns = `bucket timestamptz not null, company_id integer not null, area_id integer not null, channel_id integer not null, deployment_id bigint not null,
    purpose text not null, source text not null, state text not null, status_code integer not null,
    error_code text not null, operator_id smallint not null, operator_basis text not null,
    ${ROLLUP_MEASURES.map((m) => `${m} bigint not null`).join(', ')}`;
  return [
    `create table message_rollup_totals (${columns}, primary key (${PRIMARY_KEY}))`,
    `create table message_rollup_deltas (${columns})`,
    `create table message_rollup_days (${columns}, primary key (${PRIMARY_KEY}))`,
    `create view message_rollups as select ${COLUMNS} from message_rollup_totals union all select ${COLUMNS} from message_rollup_deltas`,
    `create view message_rollups_daily as select ${COLUMNS} from message_rollup_days union all ${byDay('select * from message_rollup_deltas')}`,
  ];
}

// The compactor's advisory lock: one fold at a time, across every process on one database.
const COMPACT_LOCK = 0x636f6c72; // 'colr'

/**
 * Folds the deltas into the totals in one transaction; answers how many delta rows it folded
 * (0 when another process is folding). The deltas it deletes are exactly the ones it adds
 * (DELETE … RETURNING feeds the upsert); deltas committed meanwhile wait for the next fold.
 * Totals that reach zero in every measure are removed.
 */
export async function compactRollups(db: Kysely<Database>): Promise<number> {
  // Inside a caller's transaction it folds there (and its deletes wait for that commit).
  if (db.isTransaction) return fold(db);
  return db.transaction().execute(fold);
}

async function fold(tx: Kysely<Database>): Promise<number> {
  const locked = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${COMPACT_LOCK}) as ok`.execute(tx);
  if (!locked.rows[0]?.ok) return 0;
  const folded = await sql<{ n: string | number; company_id: number; bucket: Date }>`
    with moved as (delete from message_rollup_deltas returning *),
    sums as (select ${sql.raw(KEY)}, ${sql.raw(SUMS)}, count(*) as n from moved group by ${sql.raw(KEY)}),
    up as (
      insert into message_rollup_totals (${sql.raw(COLUMNS)})
      select ${sql.raw(COLUMNS)} from sums order by ${sql.raw(KEY)}
      on conflict (${sql.raw(PRIMARY_KEY)}) do update set
        ${sql.raw(ROLLUP_MEASURES.map((m) => `${m} = message_rollup_totals.${m} + excluded.${m}`).join(', '))}
      returning 1),
    up_days as (
      insert into message_rollup_days (${sql.raw(COLUMNS)})
      select * from (${sql.raw(byDay('select * from sums'))}) d order by ${sql.raw(KEY)}
      on conflict (${sql.raw(PRIMARY_KEY)}) do update set
        ${sql.raw(ROLLUP_MEASURES.map((m) => `${m} = message_rollup_days.${m} + excluded.${m}`).join(', '))}
      returning 1)
    select sum(n) as n, company_id, bucket from sums group by company_id, bucket`.execute(tx);
  if (!folded.rows.length) return 0;
  // Totals that came to zero in every measure (every message of the key moved on) go, looked up
  // by the hours this fold touched (the primary key's prefix), not by a scan of every total.
  await sql`delete from message_rollup_totals t using unnest(${folded.rows.map((r) => r.company_id)}::int[], ${folded.rows.map((r) => r.bucket)}::timestamptz[]) as f(company_id, bucket)
            where t.company_id = f.company_id and t.bucket = f.bucket and ${sql.raw(ROLLUP_MEASURES.map((m) => `t.${m} = 0`).join(' and '))}`.execute(tx);
  await sql`delete from message_rollup_days t using unnest(${folded.rows.map((r) => r.company_id)}::int[], ${folded.rows.map((r) => r.bucket)}::timestamptz[]) as f(company_id, bucket)
            where t.company_id = f.company_id and t.bucket = ${sql.raw(dayOf('f.bucket'))} and ${sql.raw(ROLLUP_MEASURES.map((m) => `t.${m} = 0`).join(' and '))}`.execute(tx);
  return folded.rows.reduce((sum, r) => sum + Number(r.n), 0);
}

/**
 * Every message's contribution f(row) ungrouped, from the raw rows, with the columns of
 * message_rollups: a report's question asked of it is the raw GROUP BY that the rollups save
 * (the benchmark's anchor, and the tests that hold a report's rollup answer against it).
 * `where` filters the messages (alias r).
 */
export const rawContributionsSql = (where: string): string => `${rowsOf('messages', 1)} where ${where}`;

/** The rollup computed from the raw rows, as message_rollups holds it (the rebuild and the tests). */
export function rawRollupSql(where = 'true'): string {
  return grouped(`${rowsOf('messages', 1)} where ${where}`);
}

/** The raw rollup of the messages that match `where`, written into the totals (migration 0410 and the rebuild). */
export function insertRawRollupSql(where = 'true'): string {
  return `insert into message_rollup_totals (${COLUMNS}) ${rawRollupSql(where)}`;
}

/** What message_rollups says, summed by the whole key: equal to rawRollupSql() (the tests, and reports by every key). */
export const summedRollupsSql = (): string => grouped('select * from message_rollups');

/** The day rollups computed from the raw rows: the raw hours summed by Bogotá day (the tests). */
export const rawDailyRollupSql = (): string => grouped(byDay(rawRollupSql()));

/** What message_rollups_daily says, summed by the whole key: equal to rawDailyRollupSql(). */
export const summedDailyRollupsSql = (): string => grouped('select * from message_rollups_daily');

/**
 * Rebuilds the rollups of the UTC hours that start in [from, to) from the raw rows: the operator's
 * repair after a restore or a manual fix. Writers wait meanwhile (messages in SHARE mode), so the
 * rebuilt hours are exact when it commits; deltas of those hours go with the old totals.
 */
export async function rebuildRollups(db: Kysely<Database>, from: Date, to: Date): Promise<{ rows: number }> {
  return db.transaction().execute(async (tx) => {
    await sql`lock table messages in share mode`.execute(tx);
    await sql`lock table message_rollup_deltas, message_rollup_totals, message_rollup_days in exclusive mode`.execute(tx);
    const inRange = sql`bucket >= ${from}::timestamptz and bucket < ${to}::timestamptz`;
    await sql`delete from message_rollup_deltas where ${inRange}`.execute(tx);
    await sql`delete from message_rollup_totals where ${inRange}`.execute(tx);
    // Dates as ISO literals: toISOString's fixed format is all that reaches the SQL text.
    const bucket = `date_trunc('hour', r.created_at, 'UTC')`;
    const inserted = await sql.raw(insertRawRollupSql(`${bucket} >= '${from.toISOString()}'::timestamptz and ${bucket} < '${to.toISOString()}'::timestamptz`)).execute(tx);
    // The days that hold those hours, summed again from their hours' totals (hours outside the
    // range kept theirs; their deltas not folded yet will reach both grains at the next fold).
    const days = `bucket >= ${dayOf(`'${from.toISOString()}'::timestamptz`)} and bucket < ${dayOf(`'${to.toISOString()}'::timestamptz - interval '1 microsecond'`)} + interval '1 day'`;
    await sql.raw(`delete from message_rollup_days where ${days}`).execute(tx);
    await sql.raw(`insert into message_rollup_days (${COLUMNS}) ${byDay(`select * from message_rollup_totals where ${days}`)}`).execute(tx);
    return { rows: Number(inserted.numAffectedRows ?? 0) };
  });
}
