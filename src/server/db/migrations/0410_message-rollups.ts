// Report rollups (issue 14): the totals, the appended deltas, the view readers read, and the
// statement-level triggers on `messages` that keep them exact. The SQL is the lifecycle's
// (src/engine/lifecycle/rollups.ts); the messages already there are rolled up once here.
import { sql, type Kysely } from 'kysely';
import { insertRawRollupSql, rollupTablesSql, rollupTriggerSql } from '../../../engine/lifecycle/rollups.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [...rollupTablesSql(), ...rollupTriggerSql()]) await sql.raw(statement).execute(db);
  await sql.raw(insertRawRollupSql()).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists messages_rollup_${name} on messages`).execute(db);
  await sql.raw('drop function if exists message_rollup_deltas_write()').execute(db);
  await sql.raw('drop view if exists message_rollups').execute(db);
  await sql.raw('drop table if exists message_rollup_deltas').execute(db);
  await sql.raw('drop table if exists message_rollup_totals').execute(db);
}
