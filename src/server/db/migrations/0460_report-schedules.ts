// Scheduled reports (/Reports/Scheduled): each row makes a report file at every run
// (`next_run_at`, moved on in the transaction that makes the file, so several processes never make
// the same run twice and a restart loses none). A file made by a schedule names it, and
// `mailed_at` is set in the statement that claims the e-mail, so it is sent once.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create table report_schedules (
       id integer generated always as identity primary key,
       company_id integer not null references companies(id),
       name text not null,
       report_type_id integer not null,
       account_ids jsonb not null,
       frequency text not null,
       day integer,
       hour integer not null,
       emails jsonb not null,
       enabled boolean not null default true,
       next_run_at timestamptz,
       last_run_at timestamptz,
       created_by integer references users(id) on delete set null,
       created_at timestamptz not null,
       updated_at timestamptz not null)`,
    'create index report_schedules_due_idx on report_schedules (next_run_at) where enabled',
    'create index report_schedules_company_idx on report_schedules (company_id, name)',
    'alter table report_files add column schedule_id integer references report_schedules(id) on delete set null',
    'alter table report_files add column mailed_at timestamptz',
    'create index report_files_unmailed_idx on report_files (id) where schedule_id is not null and mailed_at is null',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table report_files drop column if exists mailed_at').execute(db);
  await sql.raw('alter table report_files drop column if exists schedule_id').execute(db);
  await sql.raw('drop table if exists report_schedules').execute(db);
}
