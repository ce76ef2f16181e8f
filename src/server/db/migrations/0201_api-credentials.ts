// API credentials and the company's API/FTP settings. A credential stores the SHA-256
// of its secret, never the secret; the FTP password is sealed like the channels' secrets.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table api_credentials (
     id text primary key,
     company_id integer not null references companies(id),
     name text not null,
     secret_hash text not null,
     secret_hint text not null,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null,
     last_used_at timestamptz,
     revoked_at timestamptz,
     replaced_by text)`,
  `create index api_credentials_company_created_idx on api_credentials (company_id, created_at, id)`,
  `create index api_credentials_company_name_idx on api_credentials (company_id, name, id)`,
  `create table api_settings (
     company_id integer primary key references companies(id),
     api_user_id integer references users(id) on delete set null,
     allowed_ips jsonb not null default '[]',
     notification_email text,
     ftp_host text,
     ftp_port integer,
     ftp_user text,
     ftp_directory text,
     ftp_password text,
     updated_at timestamptz not null)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists api_settings').execute(db);
  await sql.raw('drop table if exists api_credentials').execute(db);
}
