// The operator in the rollups (issue 14): messages.network keeps the serving network a delivery
// receipt named (MCC+MNC), orphan receipts keep it until they match, and the rollups are created
// again with the operator and its basis in the key (src/engine/lifecycle/rollups.ts), every
// message already there rolled up once (writers wait: the messages table is locked meanwhile).
import { sql, type Kysely } from 'kysely';
import { createRollupsSql, dropRollupsSql } from '../../../engine/lifecycle/rollups.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages add column if not exists network text').execute(db);
  await sql.raw('alter table orphan_receipts add column if not exists network text').execute(db);
  await sql.raw('lock table messages in share mode').execute(db);
  for (const statement of [...dropRollupsSql(), ...createRollupsSql()]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of dropRollupsSql()) await sql.raw(statement).execute(db);
  await sql.raw('alter table orphan_receipts drop column if exists network').execute(db);
  await sql.raw('alter table messages drop column if exists network').execute(db);
}
