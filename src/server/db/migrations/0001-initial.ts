// The first schema: companies, users and identity, areas, notifications, files, the sandbox
// outbox and geography. Plain PostgreSQL DDL, one statement per entry, so the same text runs on
// PGlite (one statement per query) and on a PostgreSQL server.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table companies (
     id integer generated always as identity primary key,
     name text not null,
     nit text not null,
     state text not null,
     plan_type text not null,
     picture_file text,
     created_at timestamptz not null default now())`,
  `create table users (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     parent_id integer references users(id),
     full_name text not null,
     email text not null,
     phone text,
     document_type text,
     document_id text,
     address text,
     state text not null,
     otp_method text not null default 'email',
     password_hash text not null,
     password_changed_at timestamptz not null,
     failed_logins integer not null default 0,
     locked_until timestamptz,
     profile_pic_file text,
     created_at timestamptz not null default now())`,
  // E-mail addresses are unique case-insensitively (src/core/email.ts normalizeEmail).
  `create unique index users_email_key on users (lower(email))`,
  `create index users_company_idx on users (company_id)`,
  `create index users_phone_idx on users (phone)`,
  `create table password_history (
     id integer generated always as identity primary key,
     user_id integer not null references users(id) on delete cascade,
     password_hash text not null,
     created_at timestamptz not null default now())`,
  `create index password_history_user_idx on password_history (user_id, id desc)`,
  `create table roles (
     id integer generated always as identity primary key,
     company_id integer references companies(id),
     name text not null,
     read_only boolean not null default false,
     permissions jsonb not null default '[]',
     created_at timestamptz not null default now())`,
  `create unique index roles_system_name_key on roles (name) where company_id is null`,
  `create unique index roles_company_name_key on roles (company_id, name) where company_id is not null`,
  `create table user_roles (
     user_id integer not null references users(id) on delete cascade,
     role_id integer not null references roles(id),
     primary key (user_id, role_id))`,
  `create table tokens (
     id integer generated always as identity primary key,
     user_id integer not null references users(id) on delete cascade,
     token_hash text not null unique,
     created_at timestamptz not null default now(),
     expires_at timestamptz not null,
     revoked_at timestamptz)`,
  `create index tokens_user_idx on tokens (user_id)`,
  `create table otps (
     id integer generated always as identity primary key,
     user_id integer not null references users(id) on delete cascade,
     purpose text not null,
     channel text not null,
     code_hash text not null,
     expires_at timestamptz not null,
     attempts integer not null default 0,
     consumed_at timestamptz,
     created_at timestamptz not null)`,
  `create index otps_user_purpose_idx on otps (user_id, purpose, id desc)`,
  `create table areas (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     name text not null,
     picture_file text,
     created_at timestamptz not null default now())`,
  `create index areas_company_idx on areas (company_id)`,
  `create table notifications (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     user_id integer not null references users(id) on delete cascade,
     title text not null,
     message text not null,
     visible boolean not null default true,
     created_at timestamptz not null)`,
  `create index notifications_user_idx on notifications (user_id, id desc)`,
  `create table files (
     id text primary key,
     company_id integer references companies(id),
     content_type text not null,
     size integer not null,
     bytes bytea not null,
     created_at timestamptz not null default now())`,
  `create table sandbox_outbox (
     id integer generated always as identity primary key,
     channel text not null,
     to_address text not null,
     subject text not null,
     body text not null,
     created_at timestamptz not null)`,
  `create index sandbox_outbox_to_idx on sandbox_outbox (lower(to_address), id)`,
  `create table countries (code text primary key, name text not null)`,
  `create table regions (
     country_code text not null references countries(code),
     code text not null,
     name text not null,
     primary key (country_code, code))`,
  `create table cities (
     country_code text not null,
     region_code text not null,
     code text not null,
     name text not null,
     primary key (country_code, code),
     foreign key (country_code, region_code) references regions(country_code, code))`,
  `create index cities_region_idx on cities (country_code, region_code)`,
  `create table app_meta (key text primary key, value text not null)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const tables = ['app_meta', 'cities', 'regions', 'countries', 'sandbox_outbox', 'files', 'notifications', 'areas', 'otps', 'tokens', 'user_roles', 'roles', 'password_history', 'users', 'companies'];
  for (const table of tables) await sql.raw(`drop table if exists ${table}`).execute(db);
}
