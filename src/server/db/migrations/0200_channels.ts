// Channels: the channel types each company may use, the channels with their secrets
// sealed (src/server/security/secrets.ts), short-code leases and keyword routes, and the
// channel messages that statistics count. The uniqueness rules of the error catalogue live in
// unique indexes, so two concurrent requests cannot both win (the loser maps to its code).
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table company_channel_types (
     company_id integer not null references companies(id) on delete cascade,
     platform text not null,
     primary key (company_id, platform))`,
  `create table channels (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     name text not null,
     platform text not null,
     type text not null,
     sender text,
     short_code text,
     tags jsonb not null default '[]',
     keywords jsonb not null default '[]',
     priority integer not null default 5,
     authorization_token text,
     page_access_token text,
     page_access_token_fp text,
     client_token text,
     account_sids jsonb not null default '[]',
     facebook_page_id text,
     private_key text,
     client_email text,
     callback_url text,
     enabled boolean not null default false,
     created_at timestamptz not null,
     updated_at timestamptz not null)`,
  // 99987: names per company, case-insensitive.
  `create unique index channels_company_name_key on channels (company_id, lower(name))`,
  // 99976: a sender (phone or RBM agent) serves one channel per platform, across companies.
  `create unique index channels_platform_sender_key on channels (platform, sender) where sender is not null`,
  // 99977: a Facebook page and its token belong to one channel (the token by its fingerprint).
  `create unique index channels_facebook_page_key on channels (facebook_page_id) where facebook_page_id is not null`,
  `create unique index channels_page_token_key on channels (page_access_token_fp) where page_access_token_fp is not null`,
  // 99974: a service-account e-mail belongs to one channel.
  `create unique index channels_client_email_key on channels (lower(client_email)) where client_email is not null`,
  `create index channels_company_created_idx on channels (company_id, created_at, id)`,
  `create index channels_company_platform_idx on channels (company_id, platform, id)`,
  `create index channels_short_code_idx on channels (short_code) where short_code is not null`,
  // 99975: a short code is leased to one company; its channels share it by keyword (99970).
  `create table short_code_leases (
     short_code text primary key,
     company_id integer not null references companies(id))`,
  `create table channel_keywords (
     short_code text not null,
     keyword text not null,
     channel_id integer not null references channels(id) on delete cascade,
     primary key (short_code, keyword))`,
  `create index channel_keywords_channel_idx on channel_keywords (channel_id)`,
  // A channel's traffic; the foreign key is what makes a channel with messages undeletable (99973).
  `create table channel_messages (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     channel_id integer not null references channels(id),
     to_number text not null,
     body text not null,
     status text not null,
     provider_message_id text,
     error text,
     is_test boolean not null default false,
     created_at timestamptz not null,
     updated_at timestamptz not null)`,
  `create index channel_messages_channel_status_idx on channel_messages (channel_id, status)`,
  `create index channel_messages_company_created_idx on channel_messages (company_id, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['channel_messages', 'channel_keywords', 'short_code_leases', 'channels', 'company_channel_types']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
}
