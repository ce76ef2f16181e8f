// The company's possible-fraud check (enum fraud-check): lookalike links refused by default.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table messaging_settings add column fraud_check text not null default 'lookalike'`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messaging_settings drop column fraud_check').execute(db);
}
