// The provider's SMS file processor: a file staff upload for a client company and one of its SMS
// accounts, from a tool (Connectin SMS 512, Eloqua 1024, Responsys 2048). Its validated rows are
// the recipients intake's (recipient_files, without a campaign until one is made from it); the
// campaign made from it (tool 512) and the deployment it became are kept beside it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table platform_files (
    id serial primary key,
    company_id integer not null references companies(id) on delete cascade,
    account_id integer not null references sms_accounts(id) on delete cascade,
    tool_id integer not null check (tool_id in (512, 1024, 2048)),
    file_name text not null,
    recipient_file_id integer references recipient_files(id) on delete set null,
    content text,
    summary jsonb not null default '{}'::jsonb,
    campaign_id integer references campaigns(id) on delete set null,
    deployment_id bigint references deployments(id) on delete set null,
    uploaded_by integer references users(id) on delete set null,
    created_at timestamptz not null default now()
  )`).execute(db);
  await sql.raw('create index platform_files_company_idx on platform_files (company_id, created_at desc)').execute(db);
  await sql.raw('create index platform_files_created_idx on platform_files (created_at desc, id desc)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table platform_files').execute(db);
}
