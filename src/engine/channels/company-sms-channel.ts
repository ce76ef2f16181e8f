// The company's SMS channel for messages that must go by SMS whatever channel they came from: the
// dispatcher's fallback (a WhatsApp or RCS message that could not be delivered) and a flow's SMX
// step (an SMS to another number). The one the messaging settings name, else the enabled SMS
// channel of highest priority.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../database.ts';

export async function companySmsChannel(db: Kysely<Database> | Transaction<Database>, companyId: number): Promise<{ id: number; platform: 'sms' } | null> {
  const settings = await db.selectFrom('messaging_settings').select('sms_fallback_channel_id').where('company_id', '=', companyId).executeTakeFirst();
  let q = db.selectFrom('channels').select(['id']).where('company_id', '=', companyId).where('platform', '=', 'sms').where('enabled', '=', true);
  if (settings?.sms_fallback_channel_id) q = q.where('id', '=', settings.sms_fallback_channel_id);
  const row = await q.orderBy('priority', 'desc').orderBy('id').executeTakeFirst();
  return row ? { id: row.id, platform: 'sms' } : null;
}
