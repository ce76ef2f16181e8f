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

/** At most one "used from an address not authorised" notice per key in this time. */
const FOREIGN_ORIGIN_NOTICE_MS = 3_600_000;

/**
 * Resolves an API key to its company's API user. A key presented with its right secret from an
 * address the company did not authorise (the spec's status 96, invalid origin IP) resolves to
 * nobody, like any other refusal (the answer does not tell the caller the key is good), but it is
 * recorded on the key and `onForeignOrigin` is told once an hour at most, to warn the company.
 */
export async function resolveApiKey(db: Kysely<Database>, value: string, ip: string, now: Date, onForeignOrigin?: (credential: { id: string; name: string; companyId: number; ip: string }) => Promise<void>): Promise<Session | null> {
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
  if (!row || !secretMatches(key.secret, row.secret_hash)) return null;
  if (!ipAllowed(row.allowed_ips, ip)) {
    const noted = await db.updateTable('api_credentials').set({ foreign_origin_at: now, foreign_origin_ip: ip }).where('id', '=', key.id)
      .where((eb) => eb.or([eb('foreign_origin_at', 'is', null), eb('foreign_origin_at', '<', new Date(now.getTime() - FOREIGN_ORIGIN_NOTICE_MS))]))
      .returning(['id', 'name', 'company_id']).executeTakeFirst();
    // Within the hour only the address and time move (the list shows the latest), without a new notice.
    if (!noted) await db.updateTable('api_credentials').set({ foreign_origin_at: now, foreign_origin_ip: ip }).where('id', '=', key.id).execute();
    else if (onForeignOrigin) await onForeignOrigin({ id: noted.id, name: noted.name, companyId: noted.company_id, ip });
    return null;
  }
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.updateTable('api_credentials').set({ last_used_at: now }).where('id', '=', key.id).execute();
  }
  return sessionOfUser(db, row, { tokenId: 0, credentialId: key.id, expiresAt: now }, false);
}
