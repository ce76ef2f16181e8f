// The company's API user: who an API key acts as. Created with the company's first credential,
// active, with the analista role (campaigns, reports, channels; the team can change its roles
// like anyone's), and a password hash that no password matches, so nobody can sign in as it. It is
// a service account (`users.service`), not a person: the team and other people lists leave it out.
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../engine/database.ts';

export const API_USER_ROLE = 'analista';
export const apiUserEmail = (companyId: number) => `api-${companyId}@api.colibri.invalid`;
/** Not an argon2 hash: verifyPassword refuses it for every input. */
const NO_PASSWORD = '!api-user-no-password';

/** The company's settings row, created empty when missing, locked for the rest of the transaction. */
export async function lockSettings(trx: Transaction<Database>, companyId: number, now: Date) {
  await trx
    .insertInto('api_settings')
    .values({ company_id: companyId, api_user_id: null, allowed_ips: '[]', notification_email: null, ftp_host: null, ftp_port: null, ftp_user: null, ftp_directory: null, ftp_password: null, updated_at: now })
    .onConflict((oc) => oc.column('company_id').doNothing())
    .execute();
  return trx.selectFrom('api_settings').selectAll().where('company_id', '=', companyId).forUpdate().executeTakeFirstOrThrow();
}

export async function ensureApiUser(trx: Transaction<Database>, companyId: number, now: Date): Promise<number> {
  const settings = await lockSettings(trx, companyId, now);
  if (settings.api_user_id) return settings.api_user_id;
  const email = apiUserEmail(companyId);
  const existing = await trx.selectFrom('users').select('id').where(sql<string>`lower(email)`, '=', email).where('company_id', '=', companyId).executeTakeFirst();
  const userId = existing?.id ?? (await trx
    .insertInto('users')
    .values({
      company_id: companyId, parent_id: null, full_name: 'API', email, phone: null, document_type: null, document_id: null, address: null,
      state: 'active', otp_method: 'email', password_hash: NO_PASSWORD, password_changed_at: now, locked_until: null, profile_pic_file: null, service: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow()).id;
  const role = await trx.selectFrom('roles').select('id').where('company_id', 'is', null).where('name', '=', API_USER_ROLE).executeTakeFirstOrThrow();
  await trx.insertInto('user_roles').values({ user_id: userId, role_id: role.id }).onConflict((oc) => oc.doNothing()).execute();
  await trx.updateTable('api_settings').set({ api_user_id: userId }).where('company_id', '=', companyId).execute();
  return userId;
}
