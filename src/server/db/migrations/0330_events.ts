// Events (/Campaigns/events): named triggers the company fires through the public API
// (POST /v1/events/{key}). The key is unique per company (collation "C": keys are lowercase
// ASCII, compared byte for byte). An event carries a text (content) or a WhatsApp template, never
// both. fired_count and last_fired_at are raised in the transaction that enqueues a fire.
// messages.event_id says which event created a message (null for campaigns and POST /v1/messages).
// idempotency_keys remembers, per company, the Idempotency-Key of an API request for 24 hours
// with a digest of the request and the messages it created, so a retried fire sends once.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table events (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     key text collate "C" not null,
     name text not null,
     channel_id integer references channels(id) on delete set null,
     purpose text not null default 'transactional',
     content text,
     template_name text,
     template_language text,
     template_parameters jsonb not null default '[]',
     variables jsonb not null default '[]',
     enabled boolean not null default true,
     fired_count bigint not null default 0,
     last_fired_at timestamptz,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null,
     updated_at timestamptz not null,
     constraint events_purpose_check check (purpose in ('commercial', 'transactional', 'otp')),
     constraint events_message_check check ((content is null) <> (template_name is null)))`,
  `create unique index events_company_key on events (company_id, key)`,
  `create index events_company_created_idx on events (company_id, created_at, id)`,
  `alter table messages add column event_id integer references events(id) on delete set null`,
  `create index messages_event_idx on messages (event_id) where event_id is not null`,
  `create table idempotency_keys (
     company_id integer not null references companies(id),
     key text collate "C" not null,
     scope text not null,
     request_hash text not null,
     message_ids jsonb not null default '[]',
     created_at timestamptz not null,
     primary key (company_id, key))`,
  `create index idempotency_keys_created_idx on idempotency_keys (created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists idempotency_keys').execute(db);
  await sql.raw('alter table messages drop column if exists event_id').execute(db);
  await sql.raw('drop table if exists events').execute(db);
}
