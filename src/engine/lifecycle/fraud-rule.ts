// The possible-fraud refusal (status 7, core/possible-fraud.ts) of the messages an enqueue is
// about to insert. It reads the messages' links, which is code rather than SQL, so it runs before
// the insert (refusal-rules.ts runs the set-based rules after it) and the refused rows are
// inserted already rejected, as an unusable number is with 94. The company's messaging settings
// say how strict it is (fraud-check: lookalike by default, strict, off).
import type { Transaction } from 'kysely';
import { findLinks } from '../../core/message-content.ts';
import { possibleFraud } from '../../core/possible-fraud.ts';
import type { Database } from '../database.ts';
import type { EnqueueItem } from './enqueue.ts';
import { STATUS } from './message-states.ts';

/** Each item's refusal status (7) or null; null for all when no item carries a link or the check is off. */
export async function fraudStatuses(trx: Transaction<Database>, companyId: number, items: readonly EnqueueItem[]): Promise<(number | null)[] | null> {
  // Links first: most messages carry none, and then the company's setting is not even read.
  const links = items.map((i) => (i.body && !i.invalid ? findLinks(i.body) : []));
  if (!links.some((l) => l.length)) return null;
  const setting = (await trx.selectFrom('messaging_settings').select('fraud_check').where('company_id', '=', companyId).executeTakeFirst())?.fraud_check ?? 'lookalike';
  if (setting === 'off') return null;
  const statuses = items.map((item, k) => (links[k].length && possibleFraud(item.body!, links[k], setting === 'strict') ? STATUS.possibleFraud : null));
  return statuses.some((s) => s !== null) ? statuses : null;
}
