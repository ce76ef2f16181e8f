// What the sandbox SMSC answers about a message's fate: a deterministic outcome (seeded mix,
// per-destination rules first) and the delivery receipt deliver_sm as SMPP 3.4 Appendix B writes
// it, with the receipted_message_id and message_state TLVs.
import { allocatedOperator, networkOf } from '../../core/co-operators.ts';
import { encodeGsm7 } from '../../core/sms-parts.ts';

export type ReceiptStat = 'DELIVRD' | 'UNDELIV' | 'REJECTD' | 'EXPIRED' | 'DELETED' | 'UNKNOWN' | 'ACCEPTD' | 'ENROUTE';

/** A rule for destinations ending in `suffix`: a receipt outcome, or a refusal at submit. */
export interface DestinationRule {
  suffix: string;
  stat?: ReceiptStat;
  err?: string;
  /** command_status for submit_sm_resp (e.g. 0x0B invalid destination): refused, no receipt. */
  submitStatus?: number;
}

const MESSAGE_STATE: Readonly<Record<ReceiptStat, number>> = {
  ENROUTE: 1, DELIVRD: 2, EXPIRED: 3, DELETED: 4, UNDELIV: 5, ACCEPTD: 6, UNKNOWN: 7, REJECTD: 8,
};

/** mulberry32: small, fast, good enough to make a mix repeatable from a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class OutcomePicker {
  private readonly random: () => number;
  private entries: Array<[ReceiptStat, number]> = [];
  private total = 0;

  constructor(mix: Partial<Record<ReceiptStat, number>>, seed: number) {
    this.random = seededRandom(seed);
    this.setMix(mix);
  }

  setMix(mix: Partial<Record<ReceiptStat, number>>) {
    this.entries = Object.entries(mix).filter(([, w]) => (w ?? 0) > 0) as Array<[ReceiptStat, number]>;
    this.total = this.entries.reduce((sum, [, w]) => sum + w, 0);
    if (this.total <= 0) throw new RangeError('the receipt outcome mix needs at least one positive weight');
  }

  pick(): ReceiptStat {
    let roll = this.random() * this.total;
    for (const [stat, weight] of this.entries) {
      roll -= weight;
      if (roll < 0) return stat;
    }
    return this.entries[this.entries.length - 1][0];
  }
}

export const errorOfStat = (stat: ReceiptStat) => (stat === 'DELIVRD' || stat === 'ACCEPTD' || stat === 'ENROUTE' ? '000' : stat === 'EXPIRED' ? '027' : '001');

function smppDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}`;
}

export interface ReceiptInput {
  /** The id as this receipt writes it (hex or decimal, per the SMSC's habit). */
  id: string;
  stat: ReceiptStat;
  err: string;
  submittedAt: Date;
  doneAt: Date;
  /** The part's text; the receipt carries its first 20 characters. */
  text: string;
  handset: string;
  sender: { addr: string; ton: number; npi: number };
  userMessageReference?: number;
  withTlvs: boolean;
}

/** The operators a ported number may have moved to (the four networks). */
const NETWORKS = [1, 2, 3, 4];
export const PORTED_ONE_IN = 8;

/**
 * The network that serves a handset in the sandbox: its allocation's, except one number in
 * PORTED_ONE_IN (chosen by the number, so a number stays ported), which was ported to the next of
 * the four networks; numbers outside every block are served by one chosen the same way. MCC+MNC.
 */
export function servingNetwork(handset: string): string {
  const digits = handset.replace(/\D/g, '');
  const national = digits.length === 12 && digits.startsWith('57') ? digits.slice(2) : digits;
  let hash = 0;
  for (const c of national) hash = (Math.imul(hash, 31) + c.charCodeAt(0)) >>> 0;
  const allocated = allocatedOperator(national);
  const home = allocated || NETWORKS[hash % NETWORKS.length];
  const served = hash % PORTED_ONE_IN === 0 ? NETWORKS[(NETWORKS.indexOf(home) + 1) % NETWORKS.length] : home;
  return networkOf(served ?? 1) ?? '732101';
}

/** The deliver_sm fields of a delivery receipt (esm_class 0x04). */
export function receiptFields(input: ReceiptInput): Record<string, unknown> {
  const excerpt = input.text.slice(0, 20).replace(/[^\x20-\x5f\x61-\x7e]/g, '.');
  const body =
    `id:${input.id} sub:001 dlvrd:${input.stat === 'DELIVRD' ? '001' : '000'} ` +
    `submit date:${smppDate(input.submittedAt)} done date:${smppDate(input.doneAt)} stat:${input.stat} err:${input.err} text:${excerpt}`;
  const fields: Record<string, unknown> = {
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: input.handset,
    dest_addr_ton: input.sender.ton,
    dest_addr_npi: input.sender.npi,
    destination_addr: input.sender.addr,
    esm_class: 0x04,
    data_coding: 0,
    short_message: Buffer.from(encodeGsm7(body)),
  };
  if (input.withTlvs) {
    fields.receipted_message_id = input.id;
    fields.message_state = MESSAGE_STATE[input.stat];
    const network = servingNetwork(input.handset);
    fields.dest_mcc = network.slice(0, 3);
    fields.dest_mnc = network.slice(3);
  }
  if (input.userMessageReference !== undefined) fields.user_message_reference = input.userMessageReference;
  return fields;
}
