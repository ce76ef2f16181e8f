// Matches delivery receipts to messages and parts, and reports them to the sink.
//
// What a receipt names is a part: the SMSC gives every submit_sm (every part of a long SMS) its
// own message_id. Colibri's choice:
//   - A message's providerMessageId is its first part's id (as submit_sm_resp wrote it).
//   - A single-part message is reported receipt by receipt (SENT for intermediate ones).
//   - A long message's final part receipts are reported one by one as `scope: 'part'` under the
//     part's own id; the sink stores each part's status and decides the message (DELIVERED when
//     every part is, FAILED as soon as one fails, …) in the database, so a worker that dies
//     between two parts' receipts loses nothing. Intermediate receipts (ENROUTE/ACCEPTD) of a
//     part are not reported; the receipts of a message refused at a later part are absorbed.
//   - Ids are matched as written, then hex↔decimal (SMSCs that answer in one base and receipt in
//     the other); once a conversion has matched, it is remembered for ids no longer in memory.
//   - A receipt naming an id we do not know while submits are in flight may be the receipt of
//     one of them arriving before its submit_sm_resp: it waits (bounded) for that answer; when
//     it echoes our user_message_reference, only if a message with that reference is in flight.
//     Otherwise, or after the wait, it is reported as `scope: 'unknown'` under its own id with the
//     destination and user_message_reference, which the engine uses to match it to a stored part,
//     a single-part message, or a message whose submit_sm_resp it never stored (a crash between
//     submit and store).
// The map lives in memory, bounded (oldest entries dropped first); entries leave on their final
// receipt.
import type { StatusEvent } from '../../channel-adapter.ts';
import { isFinalDelivery } from '../../lifecycle/message-states.ts';
import { literalIdKey, receiptIdCandidates, type Receipt } from './receipt.ts';
import { addressToE164 } from './wire.ts';

/** A long message being sent part by part. */
export interface TrackedMessage {
  /** A later part was refused: the message failed at submit, its receipts are absorbed. */
  abandoned: boolean;
}

/** What an id in memory names: a single-part message, or one part of a long one (its id as submit_sm_resp wrote it). */
type Entry = { kind: 'single'; providerMessageId: string } | { kind: 'part'; message: TrackedMessage; partId: string };

interface Parked {
  receipt: Receipt;
  keys: string[];
  timer: NodeJS.Timeout;
  done: (result: Promise<void>) => void;
}

type Conversion = 0 | 1 | 2; // index into receiptIdCandidates: as written, hex→dec, dec→hex

export interface ReceiptRouterOptions {
  report(event: StatusEvent): Promise<void> | void;
  /** Requests in flight: a receipt for an unknown id waits only while this is above 0. */
  inFlight(): number;
  /**
   * Whether a message sent with this user_message_reference is still waiting for its answer.
   * When the SMSC echoes the reference, a receipt for an unknown id waits only if this says yes:
   * the receipts an SMSC kept for us while we were away (a restart after a crash) then go to the
   * sink at once instead of queueing behind the wait, one deliver window at a time, while the
   * rows they would resolve run out their grace period and are sent again.
   */
  awaitingReference?(reference: number): boolean;
  /** How long such a receipt waits for its submit_sm_resp. */
  orphanWaitMs: number;
  /** Most ids kept in memory. */
  maxTracked: number;
  now?: () => Date;
}

export class ReceiptRouter {
  private readonly known = new Map<string, Entry>();
  private readonly parked = new Map<string, Parked>();
  private learned: Conversion | null = null;
  private readonly now: () => Date;

  constructor(private readonly options: ReceiptRouterOptions) {
    this.now = options.now ?? (() => new Date());
  }

  get tracked() {
    return this.known.size;
  }

  get waitingReceipts() {
    return new Set(this.parked.values()).size;
  }

  startMessage(): TrackedMessage {
    return { abandoned: false };
  }

  /** A submit_sm_resp accepted a part (message null for a single-part message). */
  accepted(providerId: string, message: TrackedMessage | null) {
    const key = literalIdKey(providerId);
    if (message) {
      this.remember(key, { kind: 'part', message, partId: providerId });
    } else {
      this.remember(key, { kind: 'single', providerMessageId: providerId });
    }
    const waiting = this.parked.get(key);
    if (waiting) {
      this.unpark(waiting);
      waiting.done(this.route(waiting.receipt));
    }
  }

  /** A later part was refused for good: the message failed at submit. */
  abandon(message: TrackedMessage) {
    message.abandoned = true;
  }

  /** Routes a receipt; resolves when what it causes has been reported. */
  receive(receipt: Receipt): Promise<void> {
    const found = this.find(receipt.messageId);
    if (found || !this.mayBeAwaited(receipt)) return this.route(receipt);
    return new Promise<void>((resolve, reject) => {
      const keys = receiptIdCandidates(receipt.messageId);
      const parked: Parked = {
        receipt,
        keys,
        timer: setTimeout(() => {
          this.unpark(parked);
          parked.done(this.route(receipt));
        }, this.options.orphanWaitMs),
        done: (result) => result.then(resolve, reject),
      };
      for (const key of keys) if (!this.parked.has(key)) this.parked.set(key, parked);
    });
  }

  /** Whether an unknown receipt may belong to a submit whose answer is not in yet. */
  private mayBeAwaited(receipt: Receipt): boolean {
    if (this.options.inFlight() === 0) return false;
    if (receipt.userReference !== undefined && this.options.awaitingReference) return this.options.awaitingReference(receipt.userReference);
    return true;
  }

  /** Reports every waiting receipt under its own id (at close). */
  async flush(): Promise<void> {
    const waiting = [...new Set(this.parked.values())];
    for (const parked of waiting) {
      this.unpark(parked);
      parked.done(this.route(parked.receipt));
    }
  }

  private unpark(parked: Parked) {
    clearTimeout(parked.timer);
    for (const key of parked.keys) if (this.parked.get(key) === parked) this.parked.delete(key);
  }

  private remember(key: string, entry: Entry) {
    this.known.delete(key);
    this.known.set(key, entry);
    while (this.known.size > this.options.maxTracked) {
      const oldest = this.known.keys().next().value as string;
      this.known.delete(oldest);
    }
  }

  private find(id: string): { key: string; entry: Entry } | null {
    const candidates = receiptIdCandidates(id);
    const order: number[] = this.learned === null ? [0, 1, 2] : [this.learned, 0, 1, 2];
    for (const i of order) {
      const key = candidates[i];
      if (key === undefined) continue;
      const entry = this.known.get(key);
      if (entry) {
        this.learned = i as Conversion;
        return { key, entry };
      }
    }
    return null;
  }

  private eventOf(receipt: Receipt, providerMessageId: string, scope?: StatusEvent['scope']): StatusEvent {
    const event: StatusEvent = { providerMessageId, status: receipt.status, at: this.now() };
    if (scope) event.scope = scope;
    if (receipt.errorCode !== undefined) event.errorCode = receipt.errorCode;
    if (receipt.sourceAddr) event.destination = addressToE164(receipt.sourceAddr, receipt.sourceTon);
    if (receipt.userReference !== undefined) event.userReference = receipt.userReference;
    if (receipt.network) event.network = receipt.network;
    return event;
  }

  private async route(receipt: Receipt): Promise<void> {
    const found = this.find(receipt.messageId);
    if (!found) {
      // Not ours in memory: report under the id we would have stored, if we know the SMSC's habit.
      const candidates = receiptIdCandidates(receipt.messageId);
      const id = this.learned !== null && this.learned > 0 && candidates[this.learned] ? candidates[this.learned] : receipt.messageId.trim();
      await this.options.report(this.eventOf(receipt, id, 'unknown'));
      return;
    }
    const { key, entry } = found;
    if (entry.kind === 'single') {
      if (isFinalDelivery(receipt.status)) this.known.delete(key);
      await this.options.report(this.eventOf(receipt, entry.providerMessageId));
      return;
    }
    if (!isFinalDelivery(receipt.status)) return;
    this.known.delete(key);
    if (entry.message.abandoned) return;
    try {
      await this.options.report(this.eventOf(receipt, entry.partId, 'part'));
    } catch (error) {
      // Not stored: keep the part so the SMSC's redelivery of this receipt finds it again.
      this.remember(key, entry);
      throw error;
    }
  }
}
