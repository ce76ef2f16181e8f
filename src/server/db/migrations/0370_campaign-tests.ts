// A campaign's test sends: messages sent to a few numbers before the launch belong to
// no deployment; this column says which campaign they tested, so the campaign lists them without
// counting them in its deployments or statistics. A deleted campaign keeps its tests as traffic.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages add column test_campaign_id integer references campaigns (id) on delete set null').execute(db);
  await sql.raw('create index messages_test_campaign_idx on messages (test_campaign_id, id) where test_campaign_id is not null').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages drop column if exists test_campaign_id').execute(db);
}
