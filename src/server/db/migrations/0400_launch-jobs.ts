// Launches off the request path: a launch of 838,226 recipients held the one PGlite
// connection (and the event loop) for a minute. Its messages are now written by a durable job in
// bounded chunks: `jobs` holds each piece of work with its progress cursor (for a launch, the last
// recipient row written), moved in the same transaction as the chunk's messages, so a crash
// resumes from the last chunk without duplicates or losses. A deployment being written is
// 'preparing' with `enqueued` of `total` done; `stop_reason` says why a launch stopped mid-way.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create table jobs (
       id bigint generated always as identity primary key,
       kind text not null,
       payload jsonb not null,
       state text not null default 'pending',
       cursor bigint not null default 0,
       done integer not null default 0,
       claimed_by text,
       lease_until timestamptz,
       error text,
       created_at timestamptz not null,
       updated_at timestamptz not null)`,
    `create index jobs_open_idx on jobs (id) where state = 'pending'`,
    'alter table deployments add column enqueued integer not null default 0',
    'alter table deployments add column stop_reason text',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists jobs').execute(db);
  await sql.raw('alter table deployments drop column if exists enqueued').execute(db);
  await sql.raw('alter table deployments drop column if exists stop_reason').execute(db);
}
