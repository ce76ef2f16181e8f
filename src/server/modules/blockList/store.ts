// Block-list writes. Numbers arrive normalised (E.164) and unique; one statement per chunk adds
// the new ones, revives numbers whose removal already took effect (as fresh additions), and
// cancels a pending removal (the number never stopped blocking, so nothing waits). Numbers
// already listed are left as they are and reported.
import { sql, type Kysely } from 'kysely';
import { effectiveAfter, hasBlockStatusSql, sqlInstant } from '../../../core/block-list.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { Database } from '../../../engine/database.ts';
import type { BlockListSource } from '../../../generated/enums.gen.ts';

const CHUNK = 5000;

export async function addNumbers(
  db: Kysely<Database>,
  companyId: number,
  userId: number,
  phones: readonly string[],
  source: BlockListSource,
  now: Date,
): Promise<{ added: Set<string>; effectiveAt: Date }> {
  const effectiveAt = effectiveAfter(now, constants.blockList.applyAfterHours);
  const added = new Set<string>();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < phones.length; i += CHUNK) {
      const chunk = phones.slice(i, i + CHUNK);
      const gone = sql.raw(hasBlockStatusSql('block_list', sqlInstant(now), 'removed'));
      const rows = await sql<{ phone: string }>`
        insert into block_list (company_id, phone, source, created_by, created_at, effective_at)
        select ${companyId}, p, ${source}, ${userId}, ${now}, ${effectiveAt} from unnest(${sql.val(chunk)}::text[]) as p
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
  });
  return { added, effectiveAt };
}
