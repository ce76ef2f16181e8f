// A conversation's replies reserve their credits when the dispatcher claims them, not in the turn:
// Every reply reserving in its turn made one company's concurrent turns wait for
// each other on the company's balance row (67 % of a loaded turn's lock waits). `unpaid` marks a
// queued message whose credits are still to be reserved; the claim reserves them for its whole
// batch, in its own transaction, so a message being sent is always paid for.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages add column unpaid boolean not null default false').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table messages drop column unpaid').execute(db);
}
