// The link shortener. short_links holds the links a company creates (parent_id null)
// and the per-recipient children a campaign launch creates for each of its links (parent_id,
// campaign_id, phone; url null: they follow their parent's target, expiry and deletion).
// Codes are case-sensitive [0-9A-Za-z] (collation "C"), unique across companies: the redirect
// knows nothing but the code. short_link_clicks holds one row per redirect, written in batches by
// the click queue; company_id and root_id (the company's link: the parent or the link itself)
// are copied there so every statistic reads one table through a company-first index.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table short_links (
     id bigint generated always as identity primary key,
     company_id integer not null references companies(id),
     code text collate "C" not null,
     url text,
     alias boolean not null default false,
     parent_id bigint references short_links(id) on delete cascade,
     campaign_id integer references campaigns(id) on delete set null,
     phone text,
     tags jsonb not null default '[]',
     batch text,
     expires_at timestamptz,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null,
     deleted_at timestamptz,
     constraint short_links_kind_check check ((parent_id is null) = (url is not null)))`,
  `create unique index short_links_code_key on short_links (code)`,
  `create unique index short_links_child_key on short_links (parent_id, campaign_id, phone) where parent_id is not null`,
  `create index short_links_company_created_idx on short_links (company_id, created_at, id) where parent_id is null`,
  `create index short_links_campaign_idx on short_links (campaign_id) where campaign_id is not null`,
  `create table short_link_clicks (
     id bigint generated always as identity primary key,
     company_id integer not null references companies(id),
     link_id bigint not null references short_links(id) on delete cascade,
     root_id bigint not null references short_links(id) on delete cascade,
     campaign_id integer,
     at timestamptz not null,
     bot boolean not null,
     device text not null,
     referrer text,
     visitor text not null)`,
  `create index short_link_clicks_company_at_idx on short_link_clicks (company_id, at)`,
  `create index short_link_clicks_root_idx on short_link_clicks (root_id, at)`,
  `create index short_link_clicks_campaign_idx on short_link_clicks (campaign_id, link_id) where campaign_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists short_link_clicks').execute(db);
  await sql.raw('drop table if exists short_links').execute(db);
}
