// The 24-hour customer-service window (Meta's rule): free text reaches a WhatsApp user only within
// 24 hours of their last message to the business number; outside it Meta refuses it with 131047
// and only a template goes. This file owns the rule and its SQL: the adapter asks it before
// sending free text, and a campaign's summary and launch ask it for every recipient at once.
import { sql, type Kysely } from 'kysely';
import { numberForms } from '../../../core/phone.ts';
import type { Database } from '../../database.ts';

/** How long a user's message keeps the window open. */
export const CUSTOMER_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Meta's code for free text outside the window (config/errors.yaml, whatsapp). */
export const OUTSIDE_WINDOW_CODE = '131047';

/**
 * Of `phones`, those whose window on the channel is closed: no inbound message from them on that
 * channel since `now` − 24 h. One set-based query for a whole campaign.
 */
export async function outsideCustomerWindow(db: Kysely<Database>, channelId: number, phones: readonly string[], now: Date): Promise<Set<string>> {
  const wanted = [...new Set(phones)];
  if (!wanted.length) return new Set();
  const since = new Date(now.getTime() - CUSTOMER_WINDOW_MS);
  const rows = await db.selectFrom('inbound_messages').select(sql<string>`distinct regexp_replace(from_number, '^\\+', '')`.as('digits'))
    .where('channel_id', '=', channelId).where('from_number', 'in', wanted.flatMap(numberForms)).where('received_at', '>', since)
    .execute();
  const open = new Set(rows.map((r) => r.digits));
  return new Set(wanted.filter((p) => !open.has(p.replace(/^\+/, ''))));
}

/** Whether the window with one recipient is open now. */
export async function customerWindowOpen(db: Kysely<Database>, channelId: number, to: string, now: Date): Promise<boolean> {
  return (await outsideCustomerWindow(db, channelId, [to], now)).size === 0;
}
