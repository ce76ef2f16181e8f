// Promotional credits (spec 9: "per channel and time-limited"): the provider's staff grant
// a company credits for one channel type until a date. They join the balance through the ledger
// (kind grant) and this row says how many of them are still unspent for that channel: sending on
// that channel spends them first; other channels may not reserve them; at expiry what is left
// leaves the balance through a ledger movement (kind expire).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create table promo_credits (
       id bigint generated always as identity primary key,
       company_id integer not null references companies(id),
       platform text not null,
       amount bigint not null check (amount > 0),
       remaining bigint not null check (remaining >= 0),
       expires_at timestamptz not null,
       granted_by integer references users(id) on delete set null,
       created_at timestamptz not null,
       expired_at timestamptz)`,
    'create index promo_credits_open_idx on promo_credits (company_id, platform, expires_at) where remaining > 0',
    'create index promo_credits_expiry_idx on promo_credits (expires_at) where remaining > 0',
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists promo_credits').execute(db);
}
