// Buying credits (spec 3 "payment movement"): one row per movement of the company's
// payments history. A purchase is an order created pending, with our invoice, before the buyer
// leaves for the gateway's checkout; the gateway's confirmation (server to server, signed) moves
// it to its final state, and approval adds its credits to the ledger in the same transaction
// (`credited_at` says it happened, once). A reversal (ePayco's state 6) is its own movement, a
// debit, beside the purchase it undoes. A pending order is followed up by a job (kind
// paymentFollowUp: validated by reference with the gateway, given up after its time).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `create table payments (
       id bigint generated always as identity primary key,
       company_id integer not null references companies(id),
       kind text not null check (kind in ('purchase', 'reversal')),
       invoice text not null unique,
       status text not null,
       amount bigint not null check (amount >= 0),
       tax bigint not null default 0,
       credits bigint not null,
       currency text not null default 'COP',
       gateway text not null,
       session_id text,
       gateway_ref text,
       transaction_id text,
       gateway_code integer,
       gateway_text text,
       method text,
       bank text,
       client_name text,
       document_type text,
       document text,
       ip text,
       payment_type text,
       card_last4 text,
       reversal_of bigint references payments(id),
       credited_at timestamptz,
       verification_id text not null unique,
       created_by integer references users(id) on delete set null,
       created_at timestamptz not null,
       updated_at timestamptz not null)`,
    'create index payments_company_idx on payments (company_id, id)',
    'create index payments_gateway_ref_idx on payments (gateway_ref) where gateway_ref is not null',
    `create unique index payments_one_reversal_idx on payments (reversal_of) where reversal_of is not null`,
  ]) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists payments').execute(db);
}
