// Mobile-originated messages: a deliver_sm that is not a receipt. Long MO texts arrive in parts,
// tied by the UDH concatenation header (05 00 03 / 06 08 04) or by the SAR TLVs; parts are held
// until the last one is in, then handed on as one text. Parts whose siblings never arrive are
// dropped after a while (an incomplete text is better than a stuck memory).
import { EsmClass, addressToE164, decodeText, messageBytes, splitUdh, type Pdu } from './wire.ts';

export interface MoText {
  from: string;
  to: string;
  text: string;
}

interface PendingMo {
  firstAt: number;
  parts: Array<string | undefined>;
  received: number;
}

export class MoAssembler {
  private readonly pending = new Map<string, PendingMo>();

  constructor(
    private readonly maxAgeMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get waiting() {
    return this.pending.size;
  }

  /** The whole message when this deliver_sm completes it (or is a single SMS), else null. */
  accept(pdu: Pdu): MoText | null {
    const from = addressToE164(String(pdu.source_addr ?? ''), Number(pdu.source_addr_ton ?? 0));
    const to = String(pdu.destination_addr ?? '');
    const bytes = messageBytes(pdu);
    const dataCoding = Number(pdu.data_coding ?? 0);
    let concat: { reference: number; total: number; seq: number } | null = null;
    let payload = bytes;
    if ((Number(pdu.esm_class ?? 0) & EsmClass.UDHI) !== 0) ({ concat, payload } = splitUdh(bytes));
    else if (typeof pdu.sar_msg_ref_num === 'number' && typeof pdu.sar_total_segments === 'number' && typeof pdu.sar_segment_seqnum === 'number') {
      const sar = { reference: pdu.sar_msg_ref_num, total: pdu.sar_total_segments, seq: pdu.sar_segment_seqnum };
      if (sar.total > 0 && sar.seq >= 1 && sar.seq <= sar.total) concat = sar;
    }
    const text = decodeText(dataCoding, payload);
    if (!concat || concat.total === 1) return { from, to, text };

    this.expire();
    const key = `${from}|${to}|${concat.reference}|${concat.total}`;
    let entry = this.pending.get(key);
    if (!entry) {
      entry = { firstAt: this.now(), parts: new Array(concat.total), received: 0 };
      this.pending.set(key, entry);
    }
    if (entry.parts[concat.seq - 1] === undefined) {
      entry.parts[concat.seq - 1] = text;
      entry.received++;
    }
    if (entry.received < concat.total) return null;
    this.pending.delete(key);
    return { from, to, text: entry.parts.join('') };
  }

  /** Entries are in arrival order, so the old ones are at the front. */
  private expire() {
    const limit = this.now() - this.maxAgeMs;
    for (const [key, entry] of this.pending) {
      if (entry.firstAt >= limit) break;
      this.pending.delete(key);
    }
  }
}
