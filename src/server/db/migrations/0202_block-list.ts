// The block list: one row per company and number. Both the addition and the removal
// carry the instant they take effect (constants.blockList.applyAfterHours after the request).
// phone is E.164 in the "C" collation, so the unique index also serves ORDER BY phone and the
// prefix search (phone LIKE '+57300%') the same way on PGlite and on any PostgreSQL server.
import { sql, type Kysely } from 'kysely';

const statements = [
  `create table block_list (
     id integer generated always as identity primary key,
     company_id integer not null references companies(id),
     phone text collate "C" not null,
     source text not null,
     created_by integer references users(id) on delete set null,
     created_at timestamptz not null,
     effective_at timestamptz not null,
     removal_requested_at timestamptz,
     removal_effective_at timestamptz)`,
  `create unique index block_list_company_phone_key on block_list (company_id, phone)`,
  `create index block_list_company_created_idx on block_list (company_id, created_at, id)`,
  `create index block_list_company_effective_idx on block_list (company_id, effective_at, id)`,
  `create index block_list_company_removal_idx on block_list (company_id, removal_effective_at) where removal_effective_at is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists block_list').execute(db);
}
