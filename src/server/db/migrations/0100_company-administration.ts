// Company administration: role scope, cost centers, team-member links (area, cost
// center), company contact data, platform clients/responsibles with the users' associations,
// and the audit log. Plain PostgreSQL DDL, one statement per entry (PGlite and PostgreSQL).
import { sql, type Kysely } from 'kysely';

const statements = [
  // A role carries the users it may see: all, meAndDependents or onlyMe (enum user-scope).
  `alter table roles add column scope text not null default 'all'`,
  // Role names are unique per company regardless of case ("Ventas" = "ventas").
  `create unique index roles_company_lower_name_key on roles (company_id, lower(name)) where company_id is not null`,
  `create index user_roles_role_idx on user_roles (role_id)`,

  `create table cost_centers (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     name text not null,
     code text not null,
     created_at timestamptz not null default now())`,
  `create unique index cost_centers_code_key on cost_centers (company_id, lower(code))`,
  `create index cost_centers_company_name_idx on cost_centers (company_id, name, id)`,
  `create unique index areas_company_name_key on areas (company_id, lower(name))`,
  `create index areas_company_name_idx on areas (company_id, name, id)`,

  `alter table users add column area_id integer references areas(id) on delete set null`,
  `alter table users add column cost_center_id integer references cost_centers(id) on delete set null`,
  // The team list sorts and filters within a company; "me and dependents" walks parent_id.
  `create index users_parent_idx on users (parent_id)`,
  `create index users_company_name_idx on users (company_id, full_name, id)`,
  `create index users_company_email_idx on users (company_id, email, id)`,
  `create index users_company_created_idx on users (company_id, created_at, id)`,
  `create index users_company_state_idx on users (company_id, state, id)`,
  `create index users_company_area_idx on users (company_id, area_id)`,
  `create index users_company_cost_center_idx on users (company_id, cost_center_id)`,

  `alter table companies add column phone text`,
  `alter table companies add column address text`,
  `alter table companies add column country_code text`,
  `alter table companies add column region_code text`,
  `alter table companies add column city_code text`,
  `create index companies_state_idx on companies (state, id)`,
  `create index companies_name_idx on companies (name, id)`,

  // The SMS platform's clients of a company and the people responsible for them (spec 7,
  // platform SMS). An association links a user to a client and a responsible.
  `create table platform_clients (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     name text not null,
     nit text not null,
     created_at timestamptz not null default now())`,
  `create index platform_clients_company_idx on platform_clients (company_id, name, id)`,
  `create table platform_responsibles (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     platform_client_id integer not null references platform_clients(id) on delete cascade,
     name text not null,
     email text,
     created_at timestamptz not null default now())`,
  `create index platform_responsibles_client_idx on platform_responsibles (platform_client_id, name, id)`,
  `create table associations (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     user_id integer not null references users(id) on delete cascade,
     platform_client_id integer not null references platform_clients(id) on delete cascade,
     platform_responsible_id integer not null references platform_responsibles(id) on delete cascade,
     name text not null,
     created_at timestamptz not null default now(),
     unique (user_id, platform_client_id, platform_responsible_id))`,
  `create index associations_client_idx on associations (platform_client_id)`,

  // Who did what, when, from where; never bodies or secrets. user_id has no foreign key so a
  // deleted user's history stays (user_email keeps the name it had).
  `create table audit_log (
     id bigint generated always as identity primary key,
     company_id integer not null references companies(id),
     user_id integer,
     user_email text,
     ip text,
     method text not null,
     path text not null,
     operation_id text,
     component_id integer,
     component_name text,
     component_action text,
     status integer not null,
     created_at timestamptz not null)`,
  `create index audit_log_company_time_idx on audit_log (company_id, created_at, id)`,
  `create index audit_log_company_user_idx on audit_log (company_id, user_id, created_at)`,
  `create index audit_log_company_operation_idx on audit_log (company_id, operation_id, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const undo = [
    'drop table if exists audit_log',
    'drop table if exists associations',
    'drop table if exists platform_responsibles',
    'drop table if exists platform_clients',
    'alter table users drop column if exists cost_center_id',
    'alter table users drop column if exists area_id',
    'drop table if exists cost_centers',
    'drop index if exists areas_company_name_key',
    'drop index if exists areas_company_name_idx',
    'drop index if exists users_parent_idx',
    'drop index if exists users_company_name_idx',
    'drop index if exists users_company_email_idx',
    'drop index if exists users_company_created_idx',
    'drop index if exists users_company_state_idx',
    'drop index if exists companies_state_idx',
    'drop index if exists companies_name_idx',
    'alter table companies drop column if exists phone',
    'alter table companies drop column if exists address',
    'alter table companies drop column if exists country_code',
    'alter table companies drop column if exists region_code',
    'alter table companies drop column if exists city_code',
    'drop index if exists user_roles_role_idx',
    'drop index if exists roles_company_lower_name_key',
    'alter table roles drop column if exists scope',
  ];
  for (const statement of undo) await sql.raw(statement).execute(db);
}
