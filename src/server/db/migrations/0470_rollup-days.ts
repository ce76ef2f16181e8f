// Day rollups (§5 measured): message_rollup_days and the message_rollups_daily view
// beside the hours (src/engine/lifecycle/rollups.ts), so a report over months reads a row per
// Bogotá day instead of 24. The rollups are created again in their current shape, every message
// already there rolled up once (writers wait: the messages table is locked meanwhile), as 0430 did.
import { sql, type Kysely } from 'kysely';
import { createRollupsSql, dropRollupsSql } from '../../../engine/lifecycle/index.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('lock table messages in share mode').execute(db);
  for (const statement of [...dropRollupsSql(), ...createRollupsSql()]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop view if exists message_rollups_daily').execute(db);
  await sql.raw('drop table if exists message_rollup_days').execute(db);
}
