// The messaging engine's tables (ARCHITECTURE 4–5).
//   credits     a balance per company that never goes below zero (check constraint, and every
//               debit is a conditional update), a reserved amount held by running deployments,
//               and the ledger that explains every movement.
//   campaigns   what a company writes; recipients files and their validated rows; deployments
//               (each run of a campaign) with their counters.
//   messages    one row per message before it is anything else: workers claim queued rows with
//               FOR UPDATE SKIP LOCKED, so a crash loses nothing and a restart sends nothing twice.
//   receipts    delivery receipts that arrive before the submit answer is stored wait in
//               orphan_receipts until their message row carries the provider id.
// Ids of high-volume rows are bigint: the pg driver reads them as strings, PGlite as numbers, so
// the code reads them through Number().
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table company_credits (
     company_id integer primary key references companies(id),
     balance bigint not null default 0 check (balance >= 0),
     reserved bigint not null default 0 check (reserved >= 0),
     updated_at timestamptz not null)`,
  `create table credit_ledger (
     id bigint generated always as identity primary key,
     company_id integer not null references companies(id),
     kind text not null,
     amount bigint not null,
     balance_after bigint not null,
     reserved_after bigint not null,
     deployment_id bigint,
     message_count integer not null default 0,
     reference text,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null)`,
  `create index credit_ledger_company_idx on credit_ledger (company_id, created_at, id)`,
  // Per company: the send-window policy (null = constants.sendWindow.profile), the duplicate
  // rule's window, the status-callback URL and its signing secret (sealed).
  `create table messaging_settings (
     company_id integer primary key references companies(id),
     send_window jsonb,
     duplicate_window_hours integer not null default 24,
     callback_url text,
     callback_secret text,
     sms_fallback_channel_id integer references channels(id) on delete set null,
     updated_at timestamptz not null)`,
  // Non-secret connection settings of a channel (SMPP host/port/system_id/TPS/window, Graph
  // phone-number id, RBM agent…); secrets stay in the sealed columns of channels.
  `alter table channels add column connection jsonb not null default '{}'`,
  `create table campaigns (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     name text not null,
     kind text not null,
     purpose text not null default 'commercial',
     channel_id integer references channels(id),
     content text not null default '',
     template jsonb,
     variables jsonb not null default '[]',
     scheduled_at timestamptz,
     recurrence jsonb,
     label text not null default 'Active',
     edit_lock text not null default 'unlockedForEdit',
     lock_requested_by integer references users(id) on delete set null,
     max_complete_interactions integer,
     recipients_file_id integer,
     next_run_at timestamptz,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null,
     updated_at timestamptz not null)`,
  `create unique index campaigns_company_name_key on campaigns (company_id, lower(name))`,
  `create index campaigns_company_created_idx on campaigns (company_id, created_at, id)`,
  `create index campaigns_next_run_idx on campaigns (next_run_at) where next_run_at is not null`,
  `create table recipient_files (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     campaign_id integer references campaigns(id) on delete cascade,
     file_name text not null,
     bytes bigint not null,
     state text not null,
     headers jsonb not null default '[]',
     summary jsonb not null default '{}',
     error text,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null)`,
  `create index recipient_files_campaign_idx on recipient_files (campaign_id, id)`,
  `create table recipient_rows (
     file_id integer not null references recipient_files(id) on delete cascade,
     row_no integer not null,
     phone text,
     variables jsonb not null default '{}',
     result text not null,
     send boolean not null,
     problems jsonb not null default '[]',
     primary key (file_id, row_no))`,
  `create table deployments (
     id bigint generated always as identity primary key,
     company_id integer not null references companies(id),
     campaign_id integer references campaigns(id) on delete set null,
     channel_id integer not null references channels(id),
     state text not null,
     purpose text not null,
     scheduled_at timestamptz,
     started_at timestamptz,
     finished_at timestamptz,
     total integer not null default 0,
     reserved_credits bigint not null default 0,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null,
     updated_at timestamptz not null)`,
  `create index deployments_company_created_idx on deployments (company_id, created_at, id)`,
  `create index deployments_campaign_idx on deployments (campaign_id, id)`,
  `create table messages (
     id bigint generated always as identity primary key,
     company_id integer not null references companies(id),
     deployment_id bigint references deployments(id) on delete cascade,
     channel_id integer not null references channels(id),
     source text not null,
     purpose text not null,
     to_number text not null,
     body text,
     template jsonb,
     parts integer not null default 1,
     encoding text,
     cost integer not null,
     state text not null,
     status_code integer not null,
     delivery_status text,
     error_code text,
     not_before timestamptz not null,
     held_reason text,
     attempts integer not null default 0,
     worker_id text,
     claimed_at timestamptz,
     in_doubt_since timestamptz,
     provider_message_id text,
     client_ref text,
     api_credential_id text,
     billed boolean not null default false,
     created_at timestamptz not null,
     sent_at timestamptz,
     done_at timestamptz,
     updated_at timestamptz not null)`,
  // The dispatcher's claim: the queued rows that are due, oldest first.
  `create index messages_queue_idx on messages (not_before, id) where state = 'queued'`,
  `create index messages_claimed_idx on messages (worker_id) where state = 'sending'`,
  `create index messages_in_doubt_idx on messages (channel_id, to_number) where state = 'in_doubt'`,
  `create index messages_provider_idx on messages (channel_id, provider_message_id) where provider_message_id is not null`,
  `create index messages_deployment_idx on messages (deployment_id, state)`,
  `create index messages_company_created_idx on messages (company_id, created_at, id)`,
  // The duplicate rule (93): the same number and text within the company's window.
  `create index messages_duplicate_idx on messages (company_id, to_number, created_at)`,
  `create table message_events (
     id bigint generated always as identity primary key,
     message_id bigint not null references messages(id) on delete cascade,
     at timestamptz not null,
     state text not null,
     delivery_status text,
     status_code integer,
     detail text)`,
  `create index message_events_message_idx on message_events (message_id, id)`,
  `create table orphan_receipts (
     id bigint generated always as identity primary key,
     channel_id integer not null,
     provider_message_id text,
     delivery_status text not null,
     error_code text,
     destination text,
     user_reference integer,
     at timestamptz not null,
     received_at timestamptz not null)`,
  `create index orphan_receipts_provider_idx on orphan_receipts (channel_id, provider_message_id)`,
  `create table engine_workers (
     id text primary key,
     pid integer,
     started_at timestamptz not null,
     heartbeat_at timestamptz not null)`,
  `create table inbound_messages (
     id bigint generated always as identity primary key,
     company_id integer not null references companies(id),
     channel_id integer not null references channels(id),
     from_number text not null,
     to_address text not null,
     body text not null,
     keyword text,
     action text,
     provider_message_id text not null,
     received_at timestamptz not null)`,
  `create unique index inbound_messages_provider_key on inbound_messages (channel_id, provider_message_id)`,
  `create index inbound_messages_company_idx on inbound_messages (company_id, received_at, id)`,
  // Webhook deliveries already applied (replays are answered 200 and ignored).
  `create table webhook_receipts_seen (
     dedupe_key text primary key,
     received_at timestamptz not null)`,
  // Status callbacks to the company's URL: signed, retried with back-off until delivered.
  `create table status_callbacks (
     id bigint generated always as identity primary key,
     company_id integer not null references companies(id),
     message_id bigint not null,
     url text not null,
     payload jsonb not null,
     attempts integer not null default 0,
     next_attempt_at timestamptz not null,
     delivered_at timestamptz,
     last_error text,
     created_at timestamptz not null)`,
  `create index status_callbacks_due_idx on status_callbacks (next_attempt_at) where delivered_at is null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['status_callbacks', 'webhook_receipts_seen', 'inbound_messages', 'engine_workers', 'orphan_receipts', 'message_events', 'messages', 'deployments', 'recipient_rows', 'recipient_files', 'campaigns', 'messaging_settings', 'credit_ledger', 'company_credits']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
  await sql.raw('alter table channels drop column if exists connection').execute(db);
}
