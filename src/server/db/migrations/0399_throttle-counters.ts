// Abuse throttling's counters when the API runs on PostgreSQL: every API process
// counts into the same rows, so guesses spread over processes meet one limit. One fixed window
// per key (a class, a client IP or an account digest); rows whose window ended are reused by the
// next request and swept now and then (src/server/security/throttle-store.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table throttle_counters (
    key text primary key,
    hits integer not null,
    window_ends timestamptz not null
  )`).execute(db);
  await sql.raw('create index throttle_counters_window_idx on throttle_counters (window_ends)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists throttle_counters').execute(db);
}
