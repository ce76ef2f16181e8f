// A channel's credentials towards its provider are one sealed document, not a column per
// platform's secret: {"secrets": {field: sealed value}, "accountSids": [{sid, secret: sealed}]},
// keyed by the API's field names (authorizationToken, pageAccessToken, clientToken, privateKey),
// so a new channel type's fields need no migration. Each value keeps the binding it was sealed
// with (security/sealing-contexts.ts channelCredentialContext names it by the field, as the
// columns were named), so the move is plain SQL and nothing is resealed. The page token's
// fingerprint stays a column: its unique index is the 99977 rule.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table channels add column credentials jsonb not null default '{"secrets": {}, "accountSids": []}'`).execute(db);
  await sql.raw(`update channels set credentials = jsonb_build_object(
      'secrets', jsonb_strip_nulls(jsonb_build_object(
        'authorizationToken', authorization_token, 'pageAccessToken', page_access_token, 'clientToken', client_token, 'privateKey', private_key)),
      'accountSids', account_sids)`).execute(db);
  await sql.raw(`alter table channels drop column authorization_token, drop column page_access_token, drop column client_token, drop column private_key, drop column account_sids`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table channels add column authorization_token text, add column page_access_token text, add column client_token text, add column private_key text,
      add column account_sids jsonb not null default '[]'`).execute(db);
  await sql.raw(`update channels set authorization_token = credentials->'secrets'->>'authorizationToken', page_access_token = credentials->'secrets'->>'pageAccessToken',
      client_token = credentials->'secrets'->>'clientToken', private_key = credentials->'secrets'->>'privateKey', account_sids = coalesce(credentials->'accountSids', '[]')`).execute(db);
  await sql.raw('alter table channels drop column credentials').execute(db);
}
