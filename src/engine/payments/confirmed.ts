// What the gateway itself says of a transaction, as the only input that may move a purchase. A
// confirmation's signature covers x_ref_payco, x_transaction_id, x_amount and x_currency_code and
// nothing else: its state (x_cod_transaction_state) and its invoice (x_id_invoice) are unsigned, and
// the signed fields of a rejected or an earlier payment can be read by the buyer. So a claim — a
// signed confirmation, the buyer's ?ref_payco= return, or the follow-up of a pending order — only
// names a transaction; the gateway is then asked server to server (validation by reference) what
// that transaction is, which invoice it pays and in which state it is, and the claim must agree
// with every field it carries. Only that answer reaches applyGatewayWord, so the order that moves
// is the one the gateway binds the transaction to, in the state the gateway states; a reversal
// needs the same proof as an approval.
import type { Kysely } from 'kysely';
import type { GatewayTransaction, PaymentGateway } from '../../core/ports/payment.ts';
import type { Database } from '../database.ts';
import { applyGatewayWord, type WordOutcome } from './payments.ts';

declare const confirmedByGateway: unique symbol;
/** A transaction as the gateway answered it to our own server-to-server call; made only here. */
export type ConfirmedTransaction = GatewayTransaction & { readonly [confirmedByGateway]: true };

/** What a caller says of a transaction: its gateway reference, and any field it also claims (compared exactly). */
export interface TransactionClaim {
  gatewayRef: string;
  invoice?: string;
  transactionId?: string;
  amount?: string;
  currency?: string;
}

export type ConfirmOutcome = WordOutcome | { kind: 'unconfirmed'; reason: string };

const CLAIMED = { invoice: 'reference', transactionId: 'transactionId', amount: 'amount', currency: 'currency' } as const;

/**
 * Asks the gateway about the claimed transaction and applies its answer once. Throws
 * PaymentGatewayError when the gateway cannot be reached (the caller answers so it is asked again).
 */
export async function confirmByGateway(db: Kysely<Database>, gateway: PaymentGateway, claim: TransactionClaim, now: Date): Promise<ConfirmOutcome> {
  if (!claim.gatewayRef) return { kind: 'unconfirmed', reason: 'no gateway reference' };
  const word = await gateway.lookup(claim.gatewayRef);
  if (!word) return { kind: 'unconfirmed', reason: 'the gateway does not know this transaction' };
  if (word.gatewayRef !== claim.gatewayRef) return { kind: 'unconfirmed', reason: 'the gateway answered for another transaction' };
  for (const [field, ours] of Object.entries(CLAIMED) as [keyof typeof CLAIMED, (typeof CLAIMED)[keyof typeof CLAIMED]][]) {
    const claimed = claim[field];
    if (claimed !== undefined && claimed !== word[ours]) return { kind: 'unconfirmed', reason: `the claimed ${field} is not the gateway's` };
  }
  return applyGatewayWord(db, word as ConfirmedTransaction, now);
}
