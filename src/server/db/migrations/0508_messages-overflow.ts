// Messages the provider refused for its throughput or queue limit wait as 'overflow' until their
// back-off is over; the dispatcher's maintenance round finds the due ones through this index
// (there are few such rows at any time, so it stays small).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create index messages_overflow_idx on messages (not_before) where state = 'overflow'`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists messages_overflow_idx').execute(db);
}
