// A user row can be a service account rather than a person: the company's API user,
// whom an API key acts as, is a `users` row so that what it creates has an author and roles, but
// it is nobody on the team. `service` says so once, where the row is made; people lists (the team,
// responsibles, associations) read only `service = false`. Existing API users are marked.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table users add column service boolean not null default false').execute(db);
  await sql.raw('update users set service = true where id in (select api_user_id from api_settings where api_user_id is not null)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table users drop column if exists service').execute(db);
}
