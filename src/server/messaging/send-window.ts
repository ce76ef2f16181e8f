// The send window of each company (src/core/send-window.ts): its messaging_settings.send_window
// (a profile name or a custom profile), else constants.sendWindow.profile (Ley 2300 by default).
// Read through a short cache: the dispatcher asks for every claimed batch.
import type { Kysely } from 'kysely';
import { decide, type SendPolicy } from '../../core/send-window.ts';
import type { SendWindow } from '../../engine/lifecycle/index.ts';
import type { Database } from '../../engine/database.ts';

const CACHE_MS = 30_000;

export function companySendWindow(db: Kysely<Database>): SendWindow & { forget(companyId: number): void } {
  const cache = new Map<number, { policy: SendPolicy | undefined; until: number }>();
  const policyOf = async (companyId: number): Promise<SendPolicy | undefined> => {
    const hit = cache.get(companyId);
    if (hit && hit.until > Date.now()) return hit.policy;
    const row = await db.selectFrom('messaging_settings').select('send_window').where('company_id', '=', companyId).executeTakeFirst();
    const policy = (row?.send_window ?? undefined) as SendPolicy | undefined;
    cache.set(companyId, { policy, until: Date.now() + CACHE_MS });
    return policy;
  };
  const window = async (companyId: number, at: Date): Promise<Date | null> => {
    const decision = decide(at, 'commercial', await policyOf(companyId));
    return decision.send ? null : decision.at;
  };
  return Object.assign(window, { forget: (companyId: number) => void cache.delete(companyId) });
}
