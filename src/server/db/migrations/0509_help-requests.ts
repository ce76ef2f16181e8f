// The help form: a person's requests to the provider, and the files they attach (kept in the
// server's file storage under `help/<company>/<id>`; the row holds its name, type and size).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table help_requests (
    id serial primary key,
    company_id integer not null references companies(id) on delete cascade,
    user_id integer references users(id) on delete set null,
    user_name text not null,
    email text not null,
    subject text not null,
    message text not null,
    created_at timestamptz not null default now()
  )`).execute(db);
  await sql.raw('create index help_requests_company_idx on help_requests (company_id, created_at desc, id)').execute(db);
  await sql.raw('create index help_requests_created_idx on help_requests (created_at desc, id)').execute(db);
  await sql.raw(`create table help_attachments (
    id text primary key,
    company_id integer not null references companies(id) on delete cascade,
    user_id integer references users(id) on delete set null,
    request_id integer references help_requests(id) on delete cascade,
    name text not null,
    content_type text not null,
    size integer not null,
    created_at timestamptz not null default now()
  )`).execute(db);
  await sql.raw('create unique index help_attachments_request_idx on help_attachments (request_id) where request_id is not null').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table help_attachments').execute(db);
  await sql.raw('drop table help_requests').execute(db);
}
