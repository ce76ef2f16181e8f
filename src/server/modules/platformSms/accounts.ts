// SMS accounts with their client and responsible, as every platform SMS answer shows them.
import { sql, type Kysely } from 'kysely';
import type { SmsAccount } from '../../../generated/types.gen.ts';
import type { Database } from '../../../engine/database.ts';

/** Accounts of one company, joined with client and responsible names; `available` is computed. */
export function accountsQuery(db: Kysely<Database>, companyId: number) {
  return db
    .selectFrom('sms_accounts as a')
    .innerJoin('platform_clients as c', (j) => j.onRef('c.id', '=', 'a.platform_client_id').onRef('c.company_id', '=', 'a.company_id'))
    .leftJoin('platform_responsibles as r', 'r.id', 'a.platform_responsible_id')
    .select([
      'a.id', 'a.name', 'a.state', 'a.quota', 'a.used', 'a.created_at', 'a.platform_client_id', 'a.platform_responsible_id',
      'c.name as client_name', 'r.name as responsible_name',
      sql<number>`greatest(a.quota - a.used, 0)`.as('available'),
    ])
    .where('a.company_id', '=', companyId);
}

type AccountRow = {
  id: number; name: string; state: string; quota: number; used: number; created_at: Date; platform_client_id: number;
  platform_responsible_id: number | null; client_name: string; responsible_name: string | null; available: number;
};

export const toAccount = (r: AccountRow): SmsAccount => ({
  id: r.id,
  name: r.name,
  state: r.state as SmsAccount['state'],
  clientId: r.platform_client_id,
  clientName: r.client_name,
  responsibleId: r.platform_responsible_id,
  responsibleName: r.responsible_name,
  quota: r.quota,
  used: r.used,
  available: Number(r.available),
  createdAt: r.created_at.toISOString(),
});

/** A spreadsheet cannot run a cell of ours: text starting like a formula is quoted as text. */
const csvCell = (value: string | number | null) => {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r;]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The quota of one account as CSV (UTF-8 with BOM so Excel reads the accents). */
export function quotaCsv(account: SmsAccount): Uint8Array {
  const header = ['cuenta', 'cliente', 'responsable', 'estado', 'cupo', 'usado', 'disponible'];
  const row = [account.name, account.clientName, account.responsibleName, account.state, account.quota, account.used, account.available];
  const text = `\ufeff${header.join(',')}\r\n${row.map(csvCell).join(',')}\r\n`;
  return new TextEncoder().encode(text);
}
