// The duplicate rule's window (93) of a company: its messaging settings, else 24 hours (the
// migration's column default). One reader for campaign launches, the sending API and the
// settings screen.
import type { Kysely } from 'kysely';
import type { Database } from '../../engine/database.ts';

export const DEFAULT_DUPLICATE_HOURS = 24;

export async function duplicateWindowHours(db: Kysely<Database>, companyId: number): Promise<number> {
  const row = await db.selectFrom('messaging_settings').select('duplicate_window_hours').where('company_id', '=', companyId).executeTakeFirst();
  return row?.duplicate_window_hours ?? DEFAULT_DUPLICATE_HOURS;
}
