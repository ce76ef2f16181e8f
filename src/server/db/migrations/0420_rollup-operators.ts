// The operator in the rollups: messages.network keeps the serving network a delivery
// receipt named (MCC+MNC) and orphan receipts keep it until they match. This migration also
// created the rollups with the operator in the key; 0430 (the area joined the key) now creates the
// current ones, so on a new database this one only adds the columns.
import { sql, type Kysely } from 'kysely';
import { dropRollupsSql } from '../../../engine/lifecycle/index.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages add column if not exists network text').execute(db);
  await sql.raw('alter table orphan_receipts add column if not exists network text').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of dropRollupsSql()) await sql.raw(statement).execute(db);
  await sql.raw('alter table orphan_receipts drop column if exists network').execute(db);
  await sql.raw('alter table messages drop column if exists network').execute(db);
}
