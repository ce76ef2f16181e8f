// Message states, delivery statuses and SMS status codes (spec 4) and how they follow each other.
// A message's `state` is where it is in our pipeline; `delivery_status` is what the network said;
// `status_code` is the spec's SMS status code for the reason it ended where it did.
// The three vocabularies and the facts about their values (a code's name, a status's rank and
// whether it is final) are declared in schemas/enums and emitted into src/generated/enums.gen.ts.
import {
  deliveryStatuses, deliveryStatusMeta, smsStateByName, type DeliveryStatus, type MessageOutcome, type MessageState,
} from '../../generated/enums.gen.ts';

export type { MessageState };

/** Spec 4's SMS status codes by name (schemas/enums/sms-state.yaml). */
export const STATUS = smsStateByName;

/** Order in which network statuses may replace each other (receipts arrive out of order). */
const RANK: Record<DeliveryStatus, number> = Object.fromEntries(deliveryStatuses.map((s) => [s, deliveryStatusMeta[s].rank])) as Record<DeliveryStatus, number>;
export const deliveryRank = (status: string | null): number => (status ? (RANK[status as DeliveryStatus] ?? 0) : -1);

/** Network statuses that end a message's (or a part's) story; SENDING, SENT and SENT_HO are on the way. */
export const FINAL_DELIVERY: readonly DeliveryStatus[] = deliveryStatuses.filter((s) => deliveryStatusMeta[s].final);
export const isFinalDelivery = (status: DeliveryStatus): boolean => FINAL_DELIVERY.includes(status);
/** FINAL_DELIVERY as an SQL list, for `x in …`. */
export const FINAL_DELIVERY_SQL = `(${FINAL_DELIVERY.map((s) => `'${s}'`).join(',')})`;

/** The SQL CASE that ranks a delivery-status column the same way (used in set-based updates). */
export function deliveryRankSql(column: string): string {
  return `(case ${column} ${Object.entries(RANK).map(([k, v]) => `when '${k}' then ${v}`).join(' ')} else -1 end)`;
}

/** The pipeline state each network status puts a sent message in (a new status must say its own). */
const STATE_FOR_DELIVERY: Record<DeliveryStatus, MessageState> = {
  SENDING: 'sent', SENT: 'sent', SENT_HO: 'sent',
  DELIVERED: 'delivered', READ: 'read', FAILED: 'failed', UNAUTHORIZED: 'unauthorized', TIME_OUT: 'timeout', UNDEFINED: 'undefined',
};
export function stateForDelivery(status: DeliveryStatus): MessageState {
  return STATE_FOR_DELIVERY[status] ?? 'sent';
}

/** The SQL CASE for stateForDelivery over a column (kept next to the function it mirrors). */
export function stateForDeliverySql(column: string): string {
  const moved = Object.entries(STATE_FOR_DELIVERY).filter(([, state]) => state !== 'sent');
  return `(case ${column} ${moved.map(([status, state]) => `when '${status}' then '${state}'`).join(' ')} else 'sent' end)`;
}

/**
 * The SMS status code a receipt that moves a message to `column`'s final network status gives it
 * (delivery-status.yaml statusCode): a failed delivery never keeps the 3 of its accepted submit.
 * In SQL, for the set-based receipt update; `otherwise` for a status on the way.
 */
export function statusCodeForDeliverySql(column: string, otherwise: string): string {
  const final = deliveryStatuses.filter((s) => deliveryStatusMeta[s].final);
  return `(case ${column} ${final.map((s) => `when '${s}' then ${deliveryStatusMeta[s].statusCode}`).join(' ')} else ${otherwise} end)`;
}

/** States after which nothing changes but later network statuses. */
export const FINAL_STATES: readonly MessageState[] = ['delivered', 'read', 'failed', 'unauthorized', 'timeout', 'undefined', 'rejected', 'cancelled'];
/** States in which a message has not been handed to any provider yet (cancel and pause reach them). */
export const UNSENT_STATES: readonly MessageState[] = ['queued', 'overflow', 'paused'];
/** States in which a message is still the engine's to move (a run is not finished while one is). */
export const OPEN_STATES: readonly MessageState[] = ['queued', 'overflow', 'sending', 'in_doubt', 'paused'];
/** A list of states as SQL, for `x in …`. */
export const statesSql = (states: readonly MessageState[]): string => `(${states.map((s) => `'${s}'`).join(', ')})`;

/** Where a message ended, for reports (enum message-outcome): each state in exactly one outcome. */
const OUTCOME_OF_STATE: Record<MessageState, MessageOutcome> = {
  queued: 'pending', overflow: 'pending', sending: 'pending', in_doubt: 'pending', paused: 'pending',
  sent: 'sent', delivered: 'delivered', read: 'delivered',
  failed: 'failed', unauthorized: 'failed', timeout: 'failed', undefined: 'failed',
  // Never a row of `messages` (an inbound message's state, where transcripts list it): it reached us.
  received: 'delivered',
  rejected: 'blocked', cancelled: 'cancelled',
};
export const outcomeOf = (state: MessageState): MessageOutcome => OUTCOME_OF_STATE[state];
/** The states that end in `outcome` (e.g. every way of failing: failed, unauthorized, timeout, undefined). */
export const statesOfOutcome = (outcome: MessageOutcome): MessageState[] =>
  (Object.entries(OUTCOME_OF_STATE) as [MessageState, MessageOutcome][]).filter(([state, o]) => o === outcome && state !== 'received').map(([state]) => state);

/** The SQL CASE for outcomeOf over a state column (kept next to the table it mirrors). */
export function outcomeSql(column: string): string {
  return `(case ${column} ${Object.entries(OUTCOME_OF_STATE).map(([state, outcome]) => `when '${state}' then '${outcome}'`).join(' ')} else 'pending' end)`;
}
