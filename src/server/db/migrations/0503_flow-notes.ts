// What the engine notes in a conversation and reports as an incident, kept as its kind and values
// (the flow-note vocabulary) beside the English line: each reader gets it in their own language.
// Rows written before keep only the line, shown as it is.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table flow_incidents add column note jsonb').execute(db);
  await sql.raw('alter table conversation_turns add column note jsonb').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table conversation_turns drop column note').execute(db);
  await sql.raw('alter table flow_incidents drop column note').execute(db);
}
