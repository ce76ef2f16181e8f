// DEMO_API_KEY (demo mode): an API key chosen by whoever runs the demo becomes a credential of the
// demo company, so scripts can call the sending API without clicking through the console. The key
// has the credentials' format (ck_<id>.<secret>, security/api-keys.ts) and, like theirs, only the
// secret's SHA-256 is stored. With no authorised IPs yet, loopback (127.0.0.1 and ::1) is
// authorised. A later start with another secret for the same id replaces the stored hash; a
// credential revoked in the console stays revoked.
import type { Kysely } from 'kysely';
import { formatCidr, parseCidr } from '../../core/cidr.ts';
import { ensureApiUser, lockSettings } from '../modules/credentials/api-user.ts';
import { hashSecret, parseApiKey } from '../security/api-keys.ts';
import { DEMO_COMPANY } from './demo-seed.ts';
import type { Database } from '../../engine/database.ts';

export const DEMO_API_KEY_NAME = 'DEMO_API_KEY';
const LOOPBACK = ['127.0.0.1/32', '::1/128'];

export class DemoApiKeyError extends Error {}

export async function ensureDemoApiKey(db: Kysely<Database>, apiKey: string, now: Date = new Date()): Promise<{ id: string; revoked: boolean }> {
  // The message never repeats the value: it is a secret even when malformed.
  const key = parseApiKey(apiKey);
  if (!key) throw new DemoApiKeyError('DEMO_API_KEY must have the format of an API key: ck_ and 16 to 40 letters, digits, - or _, a dot, then 43 of them (base64url of 32 bytes)');
  const company = await db.selectFrom('companies').select('id').where('name', '=', DEMO_COMPANY.name).where('nit', '=', DEMO_COMPANY.nit).executeTakeFirst();
  if (!company) throw new DemoApiKeyError('DEMO_API_KEY needs the demo company, which this database does not have');
  return db.transaction().execute(async (trx) => {
    await ensureApiUser(trx, company.id, now);
    const settings = await lockSettings(trx, company.id, now);
    if (!settings.allowed_ips.length) {
      await trx.updateTable('api_settings').set({ allowed_ips: JSON.stringify(LOOPBACK.map((r) => formatCidr(parseCidr(r)!))), updated_at: now }).where('company_id', '=', company.id).execute();
    }
    const existing = await trx.selectFrom('api_credentials').select(['company_id', 'revoked_at']).where('id', '=', key.id).forUpdate().executeTakeFirst();
    if (existing && existing.company_id !== company.id) throw new DemoApiKeyError('the key id of DEMO_API_KEY belongs to another company: choose another');
    const hash = hashSecret(key.secret);
    const hint = key.secret.slice(-4);
    if (existing) {
      await trx.updateTable('api_credentials').set({ secret_hash: hash, secret_hint: hint }).where('id', '=', key.id).execute();
      return { id: key.id, revoked: existing.revoked_at !== null };
    }
    await trx.insertInto('api_credentials').values({
      id: key.id, company_id: company.id, name: DEMO_API_KEY_NAME, secret_hash: hash, secret_hint: hint, created_by: null, created_at: now,
      last_used_at: null, revoked_at: null, replaced_by: null,
    }).execute();
    return { id: key.id, revoked: false };
  });
}
