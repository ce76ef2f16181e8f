// Every state change of a payments-history movement, with its SQL: the order created pending
// before the buyer leaves for the checkout, the gateway's word applied (only as the gateway itself
// answered it: confirmed.ts), a pending order given up. The gateway's word is the only
// source of truth, and it is applied under the order's row lock, so replayed, reordered or
// concurrent confirmations change the order once: only a pending order (or one we gave up on,
// abandoned: a late approval still counts) moves; approval adds its credits to the ledger in the
// same transaction; a reversal of a credited purchase is one debit movement (a unique index), which
// takes back what the balance still holds.
import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { PurchaseQuote } from '../../core/payment-quote.ts';
import type { GatewayTransaction } from '../../core/ports/payment.ts';
import type { PaymentStatus } from '../../generated/enums.gen.ts';
import { addCredits, takeCredits } from '../credits.ts';
import type { Database, PaymentsTable } from '../database.ts';
import type { ConfirmedTransaction } from './confirmed.ts';

type Db = Kysely<Database> | Transaction<Database>;
export type PaymentRow = Selectable<PaymentsTable>;

/** ePayco's x_cod_transaction_state (research/protocols.md 5.4 and 5.5) as our status; 6 is a reversal. */
export function statusOfGatewayCode(code: number): PaymentStatus | 'reversed' {
  switch (code) {
    case 1: return 'approved';
    case 3: case 7: case 8: return 'pending';
    case 6: return 'reversed';
    case 10: return 'abandoned';
    default: return 'rejected'; // 2 rejected, 4 failed, 9 expired, 11 cancelled, 12 anti-fraud, any other
  }
}

/** Statuses that added the purchase's credits. */
export const CREDITED: readonly PaymentStatus[] = ['approved', 'accepted'];
/** Statuses a gateway's word may still move: waiting, or given up by us without the gateway's verdict. */
const OPEN: readonly PaymentStatus[] = ['pending', 'abandoned'];

/** Our reference of an order: readable, unique, and not guessable (the invoice is shown to the buyer). */
export const newInvoice = (companyId: number, now: Date) =>
  `CLB-${companyId}-${now.getTime().toString(36).toUpperCase()}-${randomBytes(3).toString('hex').toUpperCase()}`;

export interface NewPurchase {
  companyId: number;
  quote: PurchaseQuote;
  gateway: string;
  createdBy: number;
  ip: string | null;
  clientName: string | null;
  now: Date;
}

export async function createPurchase(db: Db, p: NewPurchase): Promise<PaymentRow> {
  return db.insertInto('payments').values({
    company_id: p.companyId, kind: 'purchase', invoice: newInvoice(p.companyId, p.now), status: 'pending',
    amount: p.quote.total, tax: p.quote.tax, credits: p.quote.credits, gateway: p.gateway, ip: p.ip, client_name: p.clientName,
    verification_id: randomBytes(16).toString('hex'), created_by: p.createdBy, created_at: p.now, updated_at: p.now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function attachCheckoutSession(db: Db, id: number, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('payments').set({ session_id: sessionId, updated_at: now }).where('id', '=', id).execute();
}

/** Whether the gateway's amount (a decimal string as received) and currency are the order's total in pesos. */
export function sameAmount(order: { amount: number | string; currency: string }, word: { amount: string; currency: string }): boolean {
  const m = /^(\d{1,15})(?:\.(\d{1,2}))?$/.exec(word.amount.trim());
  if (!m || Number(m[2] ?? 0) !== 0) return false;
  return Number(m[1]) === Number(order.amount) && word.currency.trim().toUpperCase() === order.currency.toUpperCase();
}

export type WordOutcome =
  | { kind: 'unknown' }                        // no order with that invoice
  | { kind: 'mismatch'; payment: PaymentRow }  // amount or currency is not the order's, or a reversal of another transaction: nothing changes
  | { kind: 'unchanged'; payment: PaymentRow } // already final, or the same pending word again
  | { kind: 'applied'; payment: PaymentRow; credited: number }
  | { kind: 'reversed'; payment: PaymentRow; taken: number };

const gatewayColumns = (w: GatewayTransaction, keepIp: string | null) => ({
  gateway_ref: w.gatewayRef || null,
  transaction_id: w.transactionId || null,
  gateway_code: w.code,
  gateway_text: [w.text, w.reason].filter(Boolean).join(': ').slice(0, 200) || null,
  method: w.franchise || null,
  bank: w.bank || null,
  client_name: w.customerName || null,
  document_type: w.docType || null,
  document: w.docNumber || null,
  ip: keepIp ?? (w.ip || null),
  payment_type: w.paymentType || null,
  card_last4: w.cardLast4,
});

/**
 * Applies what the gateway says of one of our orders (its invoice is `word.reference`), once: under
 * the order's row lock, in one transaction with the credits it adds or takes. Only a transaction the
 * gateway itself stated reaches here (confirmByGateway), so the invoice and the state are the gateway's.
 */
export async function applyGatewayWord(db: Kysely<Database>, word: ConfirmedTransaction, now: Date): Promise<WordOutcome> {
  return db.transaction().execute(async (trx) => {
    const order = await trx.selectFrom('payments').selectAll().where('invoice', '=', word.reference).where('kind', '=', 'purchase').forUpdate().executeTakeFirst();
    if (!order) return { kind: 'unknown' } as const;
    if (!sameAmount(order, word)) return { kind: 'mismatch', payment: order } as const;
    const next = statusOfGatewayCode(word.code);

    if (next === 'reversed') {
      if (!CREDITED.includes(order.status) || !order.credited_at) return { kind: 'unchanged', payment: order } as const;
      // Only the transaction that paid for the order can take its credits back.
      if (order.gateway_ref !== word.gatewayRef) return { kind: 'mismatch', payment: order } as const;
      const reversal = await trx.insertInto('payments').values({
        company_id: order.company_id, kind: 'reversal', invoice: `${order.invoice}-R`, status: 'debit', amount: order.amount, tax: order.tax, credits: 0,
        gateway: order.gateway, ...gatewayColumns(word, order.ip), reversal_of: order.id, verification_id: randomBytes(16).toString('hex'),
        created_by: null, created_at: now, updated_at: now,
      }).onConflict((oc) => oc.column('reversal_of').where('reversal_of', 'is not', null).doNothing()).returningAll().executeTakeFirst();
      if (!reversal) return { kind: 'unchanged', payment: order } as const;
      const taken = await takeCredits(trx, 'reversal', { companyId: order.company_id, amount: Number(order.credits), reference: reversal.invoice, now });
      const debit = await trx.updateTable('payments').set({ credits: taken }).where('id', '=', reversal.id).returningAll().executeTakeFirstOrThrow();
      return { kind: 'reversed', payment: debit, taken } as const;
    }

    if (!OPEN.includes(order.status) || (next === order.status && order.gateway_code === word.code)) return { kind: 'unchanged', payment: order } as const;
    // A gateway's "abandoned" or "pending" never undoes our own giving up: only a verdict moves an abandoned order.
    if (order.status === 'abandoned' && (next === 'pending' || next === 'abandoned')) return { kind: 'unchanged', payment: order } as const;
    const credit = CREDITED.includes(next) && !order.credited_at;
    if (credit) await addCredits(trx, 'purchase', { companyId: order.company_id, amount: Number(order.credits), reference: order.invoice, createdBy: order.created_by, now });
    const payment = await trx.updateTable('payments').set({
      status: next, ...gatewayColumns(word, order.ip), updated_at: now,
      ...(credit ? { credited_at: now } : {}),
    }).where('id', '=', order.id).returningAll().executeTakeFirstOrThrow();
    return { kind: 'applied', payment, credited: credit ? Number(order.credits) : 0 } as const;
  });
}

/** A pending order the gateway never confirmed, given up after its time (a late approval still counts). */
export async function abandonPayment(db: Db, id: number, now: Date): Promise<boolean> {
  const row = await db.updateTable('payments').set({ status: 'abandoned', updated_at: now })
    .where('id', '=', id).where('status', '=', 'pending').returning('id').executeTakeFirst();
  return row !== undefined;
}

