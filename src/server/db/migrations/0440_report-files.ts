// Report files (the report center): a requested report becomes a row here and a durable
// job (`jobs`, kind reportFile) that writes it in bounded steps. `state` is enlist → ready or
// error; `bytes` and `rows` are what the file holds, moved in the same transaction as the job's
// cursor, so a step that died after writing is cut back to `bytes` before the next one appends.
// The file itself lives in the server's file storage under `storage_key`.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create table report_files (
       id bigint generated always as identity primary key,
       company_id integer not null references companies(id),
       report_type_id integer not null,
       application_id integer not null,
       requested_by integer references users(id) on delete set null,
       params jsonb not null,
       format text not null,
       state text not null default 'enlist',
       rows bigint not null default 0,
       bytes bigint not null default 0,
       storage_key text not null,
       error text,
       created_at timestamptz not null,
       finished_at timestamptz)`,
    'create index report_files_company_idx on report_files (company_id, report_type_id, id)',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists report_files').execute(db);
}
