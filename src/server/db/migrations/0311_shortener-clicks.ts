// Click rows made cheap to append (benchmark: the batched click writes share the core
// with the redirects when the database is the embedded PGlite). short_link_clicks becomes an
// append-only log: no identity key and no foreign keys (links are never hard-deleted: a deleted
// link keeps its clicks for the statistics), and one company-first index that serves the
// statistics by company and date, by link, and the per-link counts of the list; campaign opens
// keep their partial index.
import { sql, type Kysely } from 'kysely';

const statements = [
  `drop table short_link_clicks`,
  `create table short_link_clicks (
     company_id integer not null,
     link_id bigint not null,
     root_id bigint not null,
     campaign_id integer,
     at timestamptz not null,
     bot boolean not null,
     device text not null,
     referrer text,
     visitor text not null)`,
  `create index short_link_clicks_company_root_at_idx on short_link_clicks (company_id, root_id, at)`,
  `create index short_link_clicks_campaign_idx on short_link_clicks (campaign_id, link_id) where campaign_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists short_link_clicks').execute(db);
}
