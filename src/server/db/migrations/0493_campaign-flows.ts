// Campaigns that carry a flow: a campaign may name a published flow that starts from
// the company (an initialPush step); its launch opens one conversation per recipient whose message
// was queued, and the conversation remembers its campaign, so the campaign's "max complete
// interactions" can close the others once that many conversations completed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    'alter table campaigns add column flow_id integer references flows(id)',
    'alter table conversations add column campaign_id integer references campaigns(id) on delete set null',
    'create index conversations_campaign_idx on conversations (campaign_id, state) where campaign_id is not null',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table conversations drop column if exists campaign_id').execute(db);
  await sql.raw('alter table campaigns drop column if exists flow_id').execute(db);
}
