// Database steps of the channel rules that must hold under concurrency: unique indexes decide
// (a violation maps to its catalogue code), short codes are leased to one company, and the
// keywords of a short code are routes with a primary key.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { failFields, fieldError, type ApiError, type ErrorCode } from '../../errors/api-error.ts';

const byConstraint: Record<string, { code: ErrorCode; field: string }> = {
  channels_company_name_key: { code: '99987', field: 'name' },
  channels_platform_sender_key: { code: '99976', field: 'sender' },
  channels_facebook_page_key: { code: '99977', field: 'facebookPageId' },
  channels_page_token_key: { code: '99977', field: 'pageAccessToken' },
  channels_client_email_key: { code: '99974', field: 'clientEmail' },
  channel_keywords_pkey: { code: '99970', field: 'keywords' },
};

/** The catalogue error for a unique violation of a channel rule, or null for anything else. */
export function channelConflict(error: unknown): ApiError | null {
  const e = error as { code?: string; constraint?: string } | null;
  if (e?.code !== '23505' || !e.constraint) return null;
  const hit = byConstraint[e.constraint];
  return hit ? failFields([fieldError(hit.field, hit.code)]) : null;
}

type Db = Kysely<Database> | Transaction<Database>;

/** Releases a short code when no other channel of the company uses it any more. */
async function releaseShortCode(trx: Db, companyId: number, shortCode: string, exceptChannelId: number): Promise<void> {
  const other = await trx.selectFrom('channels').select('id').where('company_id', '=', companyId).where('short_code', '=', shortCode).where('id', '!=', exceptChannelId).executeTakeFirst();
  if (!other) await trx.deleteFrom('short_code_leases').where('short_code', '=', shortCode).where('company_id', '=', companyId).execute();
}

/**
 * Points the channel's keyword routes at its (new) short code: releases the previous short code
 * when unused, leases the new one (99975 when another company holds it) and claims each keyword
 * (99970 when a channel sharing the short code routes it already).
 */
export async function writeRoutes(
  trx: Transaction<Database>,
  companyId: number,
  channelId: number,
  shortCode: string | null,
  keywords: readonly string[],
  previousShortCode: string | null,
): Promise<void> {
  await trx.deleteFrom('channel_keywords').where('channel_id', '=', channelId).execute();
  if (previousShortCode && previousShortCode !== shortCode) await releaseShortCode(trx, companyId, previousShortCode, channelId);
  if (!shortCode) return;
  await trx.insertInto('short_code_leases').values({ short_code: shortCode, company_id: companyId }).onConflict((oc) => oc.column('short_code').doNothing()).execute();
  const lease = await trx.selectFrom('short_code_leases').select('company_id').where('short_code', '=', shortCode).executeTakeFirstOrThrow();
  if (lease.company_id !== companyId) throw failFields([fieldError('shortCode', '99975')]);
  if (!keywords.length) return;
  const taken = await trx.selectFrom('channel_keywords').select('keyword').where('short_code', '=', shortCode).where('keyword', 'in', [...keywords]).execute();
  if (taken.length) {
    throw failFields(taken.map((t) => fieldError('keywords', '99970', t.keyword)));
  }
  await trx.insertInto('channel_keywords').values(keywords.map((keyword) => ({ short_code: shortCode, keyword, channel_id: channelId }))).execute();
}

/** Removes a channel with its routes, and its short code's lease when no other channel uses it. */
export async function removeChannel(trx: Transaction<Database>, companyId: number, channelId: number, shortCode: string | null): Promise<void> {
  await trx.deleteFrom('channel_keywords').where('channel_id', '=', channelId).execute();
  await trx.deleteFrom('channels').where('id', '=', channelId).where('company_id', '=', companyId).execute();
  if (shortCode) await releaseShortCode(trx, companyId, shortCode, channelId);
}
