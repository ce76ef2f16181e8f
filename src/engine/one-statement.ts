// Several writes to different tables as ONE statement (PostgreSQL's data-modifying WITH): one round
// trip, one parse and plan, instead of one each. A turn of a conversation writes four tables after
// its replies are enqueued; on 2 cores each statement's round trip and planning was a tenth of a
// turn (`npm run bench conversations`). The writes must not touch the same rows (they
// all see the snapshot from before the statement) and none may need another's result.
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from './database.ts';

/** Runs the writes (nulls are skipped) as one statement; the last is the statement's own. */
export async function inOneStatement(trx: Transaction<Database>, writes: readonly (RawBuilder<unknown> | null)[]): Promise<void> {
  const present = writes.filter((w): w is RawBuilder<unknown> => w !== null);
  if (!present.length) return;
  const last = present[present.length - 1];
  const before = present.slice(0, -1);
  if (!before.length) {
    await last.execute(trx);
    return;
  }
  const parts = before.map((w, i) => sql`${sql.raw(`write_${i}`)} as (${w})`);
  await sql`with ${sql.join(parts, sql`, `)} ${last}`.execute(trx);
}
