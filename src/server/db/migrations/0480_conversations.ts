// Chatbot flows and their conversations (ARCHITECTURE 2 `conversations/`). A flow keeps
// its draft (what the editor saves) apart from its published versions: a conversation runs the
// version it started on, so publishing never changes a conversation under way. An agent puts a
// flow on a two-way channel, started by its keywords. A conversation is one number's session with
// one flow on one channel: its session (step, variables, retries) is a row, its transcript is
// rows, and its no-reply timer is a column (`timer_at`) claimed with FOR UPDATE SKIP LOCKED in the
// transaction that applies it, so a timer fires once across restarts and several workers, and a
// message in (which locks the same row) cancels it. At most one open conversation per number and
// channel (a partial unique index). Step counts and incidents feed the flow's statistics.
// Jobs gain `not_before`: an integration call retried with back-off waits for it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create table flows (
       id integer generated always as identity primary key,
       company_id integer not null references companies(id),
       name text not null,
       description text,
       draft jsonb not null,
       published_version integer,
       created_by integer references users(id) on delete set null,
       created_at timestamptz not null,
       updated_at timestamptz not null)`,
    'create unique index flows_company_name_idx on flows (company_id, lower(name))',
    `create table flow_versions (
       flow_id integer not null references flows(id) on delete cascade,
       version integer not null,
       definition jsonb not null,
       published_by integer references users(id) on delete set null,
       published_at timestamptz not null,
       primary key (flow_id, version))`,
    `create table agents (
       id integer generated always as identity primary key,
       company_id integer not null references companies(id),
       name text not null,
       channel_id integer not null references channels(id),
       flow_id integer not null references flows(id),
       keywords jsonb not null default '[]',
       active boolean not null default true,
       created_at timestamptz not null,
       updated_at timestamptz not null)`,
    'create index agents_channel_idx on agents (channel_id) where active',
    `create table conversations (
       id bigint generated always as identity primary key,
       company_id integer not null references companies(id),
       channel_id integer not null references channels(id),
       agent_id integer references agents(id) on delete set null,
       flow_id integer not null references flows(id),
       flow_version integer not null,
       contact text not null,
       state text not null,
       step_id text,
       session jsonb not null,
       timer_at timestamptz,
       started_at timestamptz not null,
       updated_at timestamptz not null,
       ended_at timestamptz)`,
    `create unique index conversations_open_idx on conversations (channel_id, contact) where state in ('waitingReply', 'waitingIntegration')`,
    'create index conversations_timer_idx on conversations (timer_at) where timer_at is not null',
    'create index conversations_company_idx on conversations (company_id, contact, id)',
    `create table conversation_turns (
       id bigint generated always as identity primary key,
       conversation_id bigint not null references conversations(id) on delete cascade,
       company_id integer not null,
       direction text not null,
       step_id text,
       body text not null,
       message_id bigint,
       at timestamptz not null)`,
    'create index conversation_turns_conversation_idx on conversation_turns (conversation_id, id)',
    `create table flow_step_counts (
       flow_id integer not null references flows(id) on delete cascade,
       version integer not null,
       step_id text not null,
       event text not null,
       count bigint not null,
       primary key (flow_id, version, step_id, event))`,
    `create table flow_incidents (
       id bigint generated always as identity primary key,
       company_id integer not null references companies(id),
       flow_id integer not null references flows(id) on delete cascade,
       conversation_id bigint references conversations(id) on delete set null,
       step_id text,
       detail text not null,
       at timestamptz not null)`,
    'create index flow_incidents_company_idx on flow_incidents (company_id, id)',
    'alter table jobs add column not_before timestamptz',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table jobs drop column if exists not_before').execute(db);
  for (const table of ['flow_incidents', 'flow_step_counts', 'conversation_turns', 'conversations', 'agents', 'flow_versions', 'flows']) {
    await sql.raw(`drop table if exists ${table}`).execute(db);
  }
}
