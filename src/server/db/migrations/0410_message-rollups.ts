// Report rollups, first shape. Superseded by 0420, which drops whatever this created
// and creates the rollups of the current code (the operator joined the key): on a new database
// this migration does nothing, and databases that ran it keep its name in their history.
import { sql, type Kysely } from 'kysely';
import { dropRollupsSql } from '../../../engine/lifecycle/index.ts';

export async function up(): Promise<void> {}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of dropRollupsSql()) await sql.raw(statement).execute(db);
}
