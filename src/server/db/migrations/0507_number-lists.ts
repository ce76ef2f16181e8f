// A person's saved lists of numbers and ranges (spec 5: saved range lists, at most 10 each), to
// reuse where numbers are typed (a campaign's pasted recipients, its test send).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create table number_lists (
    id serial primary key,
    company_id integer not null references companies(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    name text not null,
    ranges text not null,
    numbers text not null,
    count integer not null,
    created_at timestamptz not null default now()
  )`).execute(db);
  await sql.raw('create unique index number_lists_user_name_idx on number_lists (user_id, lower(name))').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table number_lists').execute(db);
}
