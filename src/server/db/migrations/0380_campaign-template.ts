// A WhatsApp campaign keeps the approved template it sends: outside the 24-hour
// customer-service window Meta takes only templates, so the campaign stores which one and, for each
// of its parameters ({{1}}, {{2}} or named), the column of the recipients file that fills it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table campaigns add column template_id integer references templates(id) on delete set null').execute(db);
  await sql.raw(`alter table campaigns add column template_mapping jsonb not null default '{}'`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table campaigns drop column if exists template_mapping').execute(db);
  await sql.raw('alter table campaigns drop column if exists template_id').execute(db);
}
