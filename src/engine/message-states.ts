// Message states, delivery statuses and SMS status codes (spec 4) and how they follow each other.
// A message's `state` is where it is in our pipeline; `delivery_status` is what the network said;
// `status_code` is the spec's SMS status code for the reason it ended where it did.
import type { DeliveryStatus } from './channel-adapter.ts';

export type MessageState =
  | 'queued' // enqueued: waiting for a worker (or for its send window: held_reason says why)
  | 'sending' // claimed by a worker, handed to the channel
  | 'in_doubt' // its worker died after handing it over: waiting for a receipt before resending
  | 'sent' // accepted by the provider ("sent to the platform")
  | 'delivered'
  | 'read'
  | 'failed'
  | 'timeout'
  | 'undefined'
  | 'rejected' // refused before sending (block list, duplicate, credits, invalid)
  | 'cancelled'
  | 'paused'; // its deployment is paused

/** Spec 4's SMS status codes the engine sets. */
export const STATUS = {
  scheduled: 1,
  success: 3,
  cancelled: 4,
  blacklisted: 5,
  requestError: 60,
  failedAttempt: 70,
  insufficientCredits: 81,
  dispatchError: 92,
  duplicate: 93,
  invalid: 94,
  invalidOriginIp: 96,
  general: 99,
} as const;

/** Order in which network statuses may replace each other (receipts arrive out of order). */
const RANK: Record<DeliveryStatus, number> = {
  SENDING: 0, SENT: 1, SENT_HO: 2, UNDEFINED: 3, TIME_OUT: 4, FAILED: 5, UNAUTHORIZED: 5, DELIVERED: 6, READ: 7,
};
export const deliveryRank = (status: string | null): number => (status ? (RANK[status as DeliveryStatus] ?? 0) : -1);

/** Network statuses that end a message's (or a part's) story; SENDING, SENT and SENT_HO are on the way. */
export const FINAL_DELIVERY: readonly DeliveryStatus[] = ['DELIVERED', 'READ', 'FAILED', 'UNAUTHORIZED', 'TIME_OUT', 'UNDEFINED'];
export const isFinalDelivery = (status: DeliveryStatus): boolean => FINAL_DELIVERY.includes(status);
/** FINAL_DELIVERY as an SQL list, for `x in …`. */
export const FINAL_DELIVERY_SQL = `(${FINAL_DELIVERY.map((s) => `'${s}'`).join(',')})`;

/** The SQL CASE that ranks a delivery-status column the same way (used in set-based updates). */
export function deliveryRankSql(column: string): string {
  return `(case ${column} ${Object.entries(RANK).map(([k, v]) => `when '${k}' then ${v}`).join(' ')} else -1 end)`;
}

/** The pipeline state a network status puts a sent message in. */
export function stateForDelivery(status: DeliveryStatus): MessageState {
  switch (status) {
    case 'DELIVERED': return 'delivered';
    case 'READ': return 'read';
    case 'FAILED': case 'UNAUTHORIZED': return 'failed';
    case 'TIME_OUT': return 'timeout';
    case 'UNDEFINED': return 'undefined';
    default: return 'sent';
  }
}

/** The SQL CASE for stateForDelivery over a column (kept next to the function it mirrors). */
export function stateForDeliverySql(column: string): string {
  return `(case ${column} when 'DELIVERED' then 'delivered' when 'READ' then 'read' when 'FAILED' then 'failed' when 'UNAUTHORIZED' then 'failed' when 'TIME_OUT' then 'timeout' when 'UNDEFINED' then 'undefined' else 'sent' end)`;
}

/** States after which nothing changes but later network statuses. */
export const FINAL_STATES: readonly MessageState[] = ['delivered', 'read', 'failed', 'timeout', 'undefined', 'rejected', 'cancelled'];
/** States in which a message has not been handed to any provider yet (cancel and pause reach them). */
export const UNSENT_STATES: readonly MessageState[] = ['queued', 'paused'];
