// The block list's one writer: the block-list screen, its upload, the API and a recipient's
// SALIR / CANCELAR all add numbers here, so the 24-hour rule (core/block-list.ts) is applied the
// same way whoever asks. Numbers arrive normalised (E.164) and unique; one statement per chunk adds
// the new ones, revives numbers whose removal already took effect (as fresh additions: a person
// who asked to stop again is blocked again), and cancels a pending removal (the number never
// stopped blocking, so nothing waits). Numbers already listed are left as they are and reported.
import { sql, type Kysely, type Transaction } from 'kysely';
import { effectiveAfter, hasBlockStatusSql, sqlInstant } from '../core/block-list.ts';
import { constants } from '../generated/constants.gen.ts';
import type { BlockListSource } from '../generated/enums.gen.ts';
import type { Database } from './database.ts';

const CHUNK = 5000;

export interface BlockNumbers {
  companyId: number;
  /** The person who added them; null for a recipient's own opt-out. */
  userId: number | null;
  phones: readonly string[];
  source: BlockListSource;
  now: Date;
}

/** Adds the numbers (in the caller's transaction when it gives one); answers which were added or revived. */
export async function blockNumbers(db: Kysely<Database> | Transaction<Database>, b: BlockNumbers): Promise<{ added: Set<string>; effectiveAt: Date }> {
  const effectiveAt = effectiveAfter(b.now, constants.blockList.applyAfterHours);
  const added = new Set<string>();
  const write = async (trx: Kysely<Database>) => {
    const gone = sql.raw(hasBlockStatusSql('block_list', sqlInstant(b.now), 'removed'));
    for (let i = 0; i < b.phones.length; i += CHUNK) {
      const chunk = b.phones.slice(i, i + CHUNK);
      const rows = await sql<{ phone: string }>`
        insert into block_list (company_id, phone, source, created_by, created_at, effective_at)
        select ${b.companyId}, p, ${b.source}, ${b.userId}::integer, ${b.now}, ${effectiveAt} from unnest(${sql.val(chunk)}::text[]) as p
        on conflict (company_id, phone) do update set
          source = case when ${gone} then excluded.source else block_list.source end,
          created_by = case when ${gone} then excluded.created_by else block_list.created_by end,
          created_at = case when ${gone} then excluded.created_at else block_list.created_at end,
          effective_at = case when ${gone} then excluded.effective_at else block_list.effective_at end,
          removal_requested_at = null,
          removal_effective_at = null
        where block_list.removal_requested_at is not null
        returning phone`.execute(trx);
      rows.rows.forEach((r) => added.add(r.phone));
    }
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  return { added, effectiveAt };
}
