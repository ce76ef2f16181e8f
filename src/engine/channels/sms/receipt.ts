// Delivery receipts (research/protocols.md 1.3): deliver_sm with (esm_class & 0x3C) === 0x04.
// The TLVs receipted_message_id and message_state win when present; otherwise the SMPP 3.4
// Appendix B text, read tolerantly: `id:… sub:… dlvrd:… submit date:… done date:… stat:… err:…
// text:…` with 10- or 12-digit dates, Text: or text:, text missing or cut, hex or decimal ids.
import { isNetworkCode } from '../../../core/co-operators.ts';
import type { DeliveryStatus } from '../../channel-adapter.ts';
import { MessageState, decodeText, messageBytes, type Pdu } from './wire.ts';

export interface Receipt {
  /** The message id as the receipt names it (not yet matched to a submit_sm_resp id). */
  messageId: string;
  /** The Appendix B stat word (DELIVRD, UNDELIV …), from the text or from message_state. */
  stat: string;
  status: DeliveryStatus;
  /** err: of the text (3 digits), or the network_error_code TLV as hex. */
  errorCode?: string;
  /** The handset, from the receipt's source_addr. */
  sourceAddr: string;
  sourceTon: number;
  /** user_message_reference echoed by the SMSC, if it does. */
  userReference?: number;
  submitDate?: string;
  doneDate?: string;
  /** The destination's serving network, MCC+MNC ('732101'), from the dest_mcc and dest_mnc TLVs. */
  network?: string;
}

const STAT_STATUS: Readonly<Record<string, DeliveryStatus>> = {
  DELIVRD: 'DELIVERED',
  ACCEPTD: 'SENT',
  ENROUTE: 'SENT',
  UNDELIV: 'FAILED',
  // The SMSC or the operator refused the message itself (a sender it does not let through for us).
  REJECTD: 'UNAUTHORIZED',
  DELETED: 'FAILED',
  EXPIRED: 'TIME_OUT',
  UNKNOWN: 'UNDEFINED',
  // Some SMSCs spell the words out.
  DELIVERED: 'DELIVERED',
  ACCEPTED: 'SENT',
  UNDELIVERABLE: 'FAILED',
  REJECTED: 'UNAUTHORIZED',
};

const STATE_STAT: Readonly<Record<number, string>> = {
  [MessageState.ENROUTE]: 'ENROUTE',
  [MessageState.DELIVERED]: 'DELIVRD',
  [MessageState.EXPIRED]: 'EXPIRED',
  [MessageState.DELETED]: 'DELETED',
  [MessageState.UNDELIVERABLE]: 'UNDELIV',
  [MessageState.ACCEPTED]: 'ACCEPTD',
  [MessageState.UNKNOWN]: 'UNKNOWN',
  [MessageState.REJECTED]: 'REJECTD',
};

/** The spec's delivery status for an Appendix B stat word (unknown words → UNDEFINED). */
export function statusOfStat(stat: string): DeliveryStatus {
  return STAT_STATUS[stat.toUpperCase()] ?? 'UNDEFINED';
}


function field(text: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}:\\s*(\\S+)`, 'i').exec(text);
  return match?.[1];
}

function dateField(text: string, name: string): string | undefined {
  const match = new RegExp(`${name}:\\s*(\\d{10}(?:\\d{2})?)(?!\\d)`, 'i').exec(text);
  return match?.[1];
}

/** Parses a receipt deliver_sm; null when it carries no message id at all. */
export function parseReceipt(pdu: Pdu): Receipt | null {
  const text = decodeText(pdu.data_coding ?? 0, messageBytes(pdu));
  const tlvId = typeof pdu.receipted_message_id === 'string' ? pdu.receipted_message_id.replace(/\0+$/, '').trim() : '';
  const messageId = tlvId || field(text, 'id');
  if (!messageId) return null;
  const tlvState = typeof pdu.message_state === 'number' ? STATE_STAT[pdu.message_state] : undefined;
  const stat = tlvState ?? field(text, 'stat') ?? 'UNKNOWN';
  const err = field(text, 'err');
  const network: unknown = pdu.network_error_code;
  const errorCode = err ?? (Buffer.isBuffer(network) && network.length > 0 ? network.toString('hex') : undefined);
  const receipt: Receipt = {
    messageId,
    stat: stat.toUpperCase(),
    status: statusOfStat(stat),
    sourceAddr: String(pdu.source_addr ?? ''),
    sourceTon: Number(pdu.source_addr_ton ?? 0),
  };
  if (errorCode !== undefined) receipt.errorCode = errorCode;
  if (typeof pdu.user_message_reference === 'number') receipt.userReference = pdu.user_message_reference;
  const submitDate = dateField(text, 'submit date');
  const doneDate = dateField(text, 'done date');
  const serving = servingNetwork(pdu);
  if (serving) receipt.network = serving;
  if (submitDate) receipt.submitDate = submitDate;
  if (doneDate) receipt.doneDate = doneDate;
  return receipt;
}

/** MCC (3 digits) + MNC (2 or 3, padded to 3) when both TLVs are there and are digits. */
function servingNetwork(pdu: Pdu): string | undefined {
  const clean = (v: unknown) => (typeof v === 'string' ? v.replace(/\0+$/, '').trim() : '');
  const mcc = clean(pdu.dest_mcc);
  const mnc = clean(pdu.dest_mnc);
  if (!/^\d{3}$/.test(mcc) || !/^\d{2,3}$/.test(mnc)) return undefined;
  const network = `${mcc}${mnc.padStart(3, '0')}`;
  return isNetworkCode(network) ? network : undefined;
}

/** The id as written, lower-case, without leading zeros: "0000ABC" and "abc" are one id. */
export function literalIdKey(id: string): string {
  const lower = id.trim().toLowerCase();
  const stripped = lower.replace(/^0+(?=.)/, '');
  return stripped;
}

/**
 * The keys under which a receipt's id may have been stored from a submit_sm_resp: as written,
 * then read as hex and written in decimal, then read as decimal and written in hex (SMSCs that
 * answer submit_sm_resp in one base and receipts in the other, protocols.md 1.3).
 */
export function receiptIdCandidates(id: string): string[] {
  const literal = literalIdKey(id);
  const keys = [literal];
  if (/^[0-9a-f]+$/.test(literal) && literal.length <= 24) keys.push(BigInt(`0x${literal}`).toString(10));
  if (/^[0-9]+$/.test(literal) && literal.length <= 30) keys.push(BigInt(literal).toString(16));
  return [...new Set(keys)];
}
