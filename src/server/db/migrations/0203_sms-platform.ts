// The SMS platform's own tables (spec 7): the SMS accounts of the company's platform
// clients with their quota and used counters, the accounts' campaigns, and two reference lists
// filled here: Colombia's mobile operators and the SMS status codes of spec 4.
import { sql, type Kysely } from 'kysely';

/** Network operators and the virtual operators that ride on them (Avantel is now WOM). */
export const operatorSeed: readonly [number, string, 'mno' | 'mvno'][] = [
  [1, 'Claro', 'mno'],
  [2, 'Movistar', 'mno'],
  [3, 'Tigo', 'mno'],
  [4, 'WOM', 'mno'],
  [5, 'Móvil Éxito', 'mvno'],
  [6, 'Virgin Mobile', 'mvno'],
  [7, 'Flash Mobile', 'mvno'],
  [8, 'Kalley Móvil', 'mvno'],
];

/** Spec 4's SMS status codes; the console shows them translated (enums.sms-state.<id>). */
export const smsStateSeed: readonly [number, string][] = [
  [1, 'Scheduled / valid'], [3, 'Success'], [4, 'Cancelled'], [5, 'Blacklisted'], [7, 'Possible fraud'],
  [60, 'Request error'], [70, 'Failed attempt'],
  ...[71, 72, 73, 74, 75, 76].map((id): [number, string] => [id, `Bidirectional configuration problem (${id})`]),
  [81, 'Insufficient credits'], [82, 'Sent-message limit reached'], [83, 'Subscription expired'], [84, 'Account inactive'],
  [85, 'Client inactive'], [86, 'Customer subscription inactive'], [87, 'Operator not enabled'], [88, 'Operator inactive'],
  [89, 'Account expired'], [91, 'No operator found'], [92, 'Dispatch error'], [93, 'Repeated / duplicate'], [94, 'Invalid'],
  [96, 'Invalid origin IP'], [99, 'General error'],
];

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

const statements = [
  `create table sms_operators (
     id integer primary key,
     name text not null unique,
     kind text not null)`,
  `insert into sms_operators (id, name, kind) values ${operatorSeed.map(([id, name, kind]) => `(${id}, ${quote(name)}, ${quote(kind)})`).join(', ')}`,
  `create table sms_states (
     id integer primary key,
     name text not null)`,
  `insert into sms_states (id, name) values ${smsStateSeed.map(([id, name]) => `(${id}, ${quote(name)})`).join(', ')}`,
  `create table sms_accounts (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     platform_client_id integer not null references platform_clients(id),
     platform_responsible_id integer references platform_responsibles(id) on delete set null,
     name text not null,
     state text not null default 'active',
     quota integer not null default 0 check (quota >= 0),
     used integer not null default 0 check (used >= 0),
     created_at timestamptz not null,
     updated_at timestamptz not null)`,
  `create unique index sms_accounts_company_name_key on sms_accounts (company_id, lower(name))`,
  `create index sms_accounts_company_name_idx on sms_accounts (company_id, name, id)`,
  `create index sms_accounts_company_quota_idx on sms_accounts (company_id, quota, id)`,
  `create index sms_accounts_company_created_idx on sms_accounts (company_id, created_at, id)`,
  `create index sms_accounts_client_idx on sms_accounts (platform_client_id, platform_responsible_id)`,
  `create table sms_campaigns (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     account_id integer not null references sms_accounts(id) on delete cascade,
     name text not null,
     created_at timestamptz not null)`,
  `create index sms_campaigns_account_idx on sms_campaigns (account_id, id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sms_campaigns', 'sms_accounts', 'sms_states', 'sms_operators']) await sql.raw(`drop table if exists ${table}`).execute(db);
}
