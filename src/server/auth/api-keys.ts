// API keys (credentials of schemas/api/credentials.yaml): `X-Api-Key: <id>.<secret>` resolves to
// the company's API user when the key is active, its secret matches and the request comes from
// one of the company's authorised IPs. Anything else resolves to nobody (the router answers 99953).
import type { Kysely } from 'kysely';
import { ipAllowed } from '../../core/cidr.ts';
import type { Session } from './session.ts';
import type { Database } from '../../engine/database.ts';
import { parseApiKey, secretMatches } from '../security/api-keys.ts';
import { sessionOfUser } from './session-store.ts';

/** last_used_at is written at most once a minute per key: not one write per API request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function apiKeyFromHeaders(headers: Record<string, string | string[] | undefined>): string | null {
  const value = headers['x-api-key'];
  return (Array.isArray(value) ? value[0] : value)?.trim() || null;
}

export async function resolveApiKey(db: Kysely<Database>, value: string, ip: string, now: Date): Promise<Session | null> {
  const key = parseApiKey(value);
  if (!key) return null;
  const row = await db
    .selectFrom('api_credentials')
    .innerJoin('api_settings', 'api_settings.company_id', 'api_credentials.company_id')
    .innerJoin('users', 'users.id', 'api_settings.api_user_id')
    .innerJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'api_credentials.secret_hash', 'api_credentials.last_used_at', 'api_settings.allowed_ips',
      'users.id as userId', 'users.company_id', 'users.email', 'users.state', 'companies.state as companyState',
    ])
    .where('api_credentials.id', '=', key.id)
    .where('api_credentials.revoked_at', 'is', null)
    .whereRef('users.company_id', '=', 'api_credentials.company_id')
    .executeTakeFirst();
  if (!row || !secretMatches(key.secret, row.secret_hash) || !ipAllowed(row.allowed_ips, ip)) return null;
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.updateTable('api_credentials').set({ last_used_at: now }).where('id', '=', key.id).execute();
  }
  return sessionOfUser(db, row, { tokenId: 0, credentialId: key.id, expiresAt: now }, false);
}
