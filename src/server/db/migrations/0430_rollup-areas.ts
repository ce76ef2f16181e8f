// The area in the rollups: messages.area_id keeps the area (branch office) of the
// team member who sent the message, taken when it is created (engine/lifecycle/enqueue.ts), and
// the rollups are created again with the area in the key (src/engine/lifecycle/rollups.ts), every
// message already there rolled up once (writers wait: the messages table is locked meanwhile).
// Messages sent before this keep no area (0: "no area" in the reports).
import { sql, type Kysely } from 'kysely';
import { createRollupsSql, dropRollupsSql } from '../../../engine/lifecycle/index.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages add column if not exists area_id integer').execute(db);
  await sql.raw('lock table messages in share mode').execute(db);
  for (const statement of [...dropRollupsSql(), ...createRollupsSql()]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of dropRollupsSql()) await sql.raw(statement).execute(db);
  await sql.raw('alter table messages drop column if exists area_id').execute(db);
}
