// What a person wrote in a recipient row's phone cell, kept for every row that is not a plain
// pass (refused, warned or unreadable): a refused row shows the value entered, on screen and in
// the export, not an empty phone.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table recipient_rows add column entered text').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table recipient_rows drop column entered').execute(db);
}
