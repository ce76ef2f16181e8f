// One gateway transaction pays for one order. The gateway names exactly one invoice for a
// transaction, and the confirmation is applied to the invoice the gateway names, never to one a
// caller claims; this index holds the same rule in the database, so no code path can ever bind one
// transaction's money to a second purchase.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create unique index payments_purchase_gateway_ref_key on payments (gateway_ref) where kind = 'purchase' and gateway_ref is not null`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index payments_purchase_gateway_ref_key').execute(db);
}
