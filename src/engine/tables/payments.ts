// Row types of the payments history (migration 0490_payments). Composed into the one Database in
// src/engine/database.ts.
import type { Generated } from 'kysely';
import type { ChannelPlatform, PaymentKind, PaymentStatus } from '../../generated/enums.gen.ts';
import type { BigId, BigRef, Timestamp } from './columns.ts';

export interface PaymentsTable {
  id: BigId & Generated<number>;
  company_id: number;
  kind: PaymentKind;
  /** Our reference of the order (ePayco's invoice), unique. */
  invoice: string;
  status: PaymentStatus;
  /** Integer pesos paid (purchase: credits + tax); a reversal: what the gateway took back. */
  amount: BigRef;
  tax: BigRef;
  /** Credits the movement adds (a purchase) or takes (a reversal: positive, taken). */
  credits: BigRef;
  currency: Generated<string>;
  gateway: string;
  session_id: string | null;
  gateway_ref: string | null;
  transaction_id: string | null;
  gateway_code: number | null;
  gateway_text: string | null;
  method: string | null;
  bank: string | null;
  client_name: string | null;
  document_type: string | null;
  document: string | null;
  ip: string | null;
  payment_type: string | null;
  card_last4: string | null;
  reversal_of: BigRef | null;
  credited_at: Timestamp | null;
  verification_id: string;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Promotional credits of one channel type, until a date (migration 0491). */
export interface PromoCreditsTable {
  id: BigId & Generated<number>;
  company_id: number;
  platform: ChannelPlatform;
  amount: BigRef;
  /** Still unspent on that channel; what is left at expiry leaves the balance. */
  remaining: BigRef;
  expires_at: Timestamp;
  granted_by: number | null;
  created_at: Timestamp;
  expired_at: Timestamp | null;
}

export interface PaymentTables {
  payments: PaymentsTable;
  promo_credits: PromoCreditsTable;
}
