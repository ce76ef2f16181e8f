// A certificate's signed PDF, kept as issued: the signature and its time-stamp are made once, so
// every download is the same file and a file someone sends back is compared with this one.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table certificates add column pdf bytea').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table certificates drop column pdf').execute(db);
}
