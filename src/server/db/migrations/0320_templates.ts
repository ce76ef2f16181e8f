// Message templates (/Campaigns/Templates, component 2002): reusable content with {{variables}}
// for one channel type and purpose. WhatsApp templates also carry Meta's category and language,
// the WhatsApp channel (business account) they were submitted through, Meta's template id and
// the approval status Meta's webhooks move (PENDING → APPROVED | REJECTED, later PAUSED or
// DISABLED) with Meta's reason; status_at is the time of the submission or of the webhook event
// that set the status, so an older event delivered late never undoes a newer state. The other
// channels need no review: their templates are APPROVED from the start.
// Names are unique per company whatever their case; other tables (events) may refer to a
// template by id.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table templates (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     name text not null,
     channel text not null,
     purpose text not null,
     content text not null,
     variables jsonb not null default '[]',
     category text,
     language text,
     channel_id integer references channels(id) on delete set null,
     status text not null,
     rejection_reason text,
     provider_template_id text,
     status_at timestamptz,
     submitted_at timestamptz,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null,
     updated_at timestamptz not null,
     constraint templates_whatsapp_check check ((channel = 'whatsapp') = (category is not null and language is not null)))`,
  `create unique index templates_company_name_key on templates (company_id, lower(name))`,
  `create index templates_company_updated_idx on templates (company_id, updated_at, id)`,
  // The status webhook finds a template by Meta's id within the channel's company.
  `create index templates_provider_idx on templates (company_id, provider_template_id) where provider_template_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists templates').execute(db);
}
