// The FTP intake (getImpFtpReport): the server visits each company's FTP folder (the
// FTP settings of /profile/apiPermissions/settings) and turns each recipients file it finds into a
// deployment of the campaign its name starts with. `ftp_imports` is the ledger of those files, one
// row per file seen (name, size and modification instant identify it), written before the file is
// read and finished in the launch's own transaction, so a crash never sends a file twice. The
// settings row keeps when the folder is visited next and what the last visit met.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table ftp_imports (
     id serial primary key,
     company_id integer not null references companies(id),
     file_name text not null,
     bytes bigint not null,
     modified_at timestamptz,
     campaign_id integer,
     deployment_id bigint,
     state text not null,
     code text,
     detail text,
     rows integer not null default 0,
     sendable integer not null default 0,
     refused integer not null default 0,
     created_at timestamptz not null,
     finished_at timestamptz)`,
  // One row per file version: the same name, size and instant met again is the same file.
  `create unique index ftp_imports_file_idx on ftp_imports (company_id, file_name, bytes, coalesce(modified_at, 'epoch'::timestamptz))`,
  `create index ftp_imports_company_created_idx on ftp_imports (company_id, created_at desc, id desc)`,
  'alter table api_settings add column ftp_next_visit_at timestamptz',
  'alter table api_settings add column ftp_visited_at timestamptz',
  'alter table api_settings add column ftp_last_error text',
  'alter table api_settings add column ftp_encrypted boolean',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table api_settings drop column ftp_encrypted').execute(db);
  await sql.raw('alter table api_settings drop column ftp_last_error').execute(db);
  await sql.raw('alter table api_settings drop column ftp_visited_at').execute(db);
  await sql.raw('alter table api_settings drop column ftp_next_visit_at').execute(db);
  await sql.raw('drop table if exists ftp_imports').execute(db);
}
