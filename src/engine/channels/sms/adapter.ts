// The SMS channel adapter: ChannelAdapter over SMPP 3.4 (bind_transceiver), for platform 'sms'.
//
// submit(): each message is encoded with src/core/sms-parts.ts (GSM-7 unpacked, data_coding 0,
// or UCS-2 BE, data_coding 8; long texts as parts with the 8-bit concatenation UDH and UDHI set)
// and its parts are submitted in order. Every submit_sm takes a slot of the request window and a
// token of the channel's TPS bucket, so the adapter never sends faster than configured nor keeps
// more requests open than agreed. A message is accepted when all its parts are; its
// providerMessageId is the first part's id, and a long one also answers every part's id.
//
// Throttling (ESME_RTHROTTLED 0x58, ESME_RMSGQFUL 0x14): resubmitted inside the adapter after a
// back-off (250 ms doubling to 8 s), and the whole channel's bucket pauses for that back-off so
// the other messages slow down too. Why inside: a throttled later part must not make the whole
// message go round again (the first parts would reach the handset twice), and the order of the
// batch is kept. After throttleGiveUpMs without success a message with no part sent answers
// `retry` with `overflow` (afterMs = the back-off): it reads 'overflow', status 70, until the
// dispatcher takes it up again.
//
// Lost answers (response timeout, connection dropped): the session is dropped and re-bound with
// back-off. A message whose first part had no answer answers `retry` (it may or may not have
// reached the SMSC: SMPP cannot tell, the engine's receipt matching by destination and
// user_message_reference covers that). A message with parts already accepted resubmits only the
// missing parts after the re-bind.
//
// Receipts and MO arrive on the same session (receipt-router.ts, mo.ts) and go to the sink; the
// deliver_sm_resp is sent once the sink has taken the event (ESME_RX_T_APPN if it threw, so the
// SMSC delivers it again).
import type { ChannelAdapter, InboundEvent, OutboundMessage, ReceiptSink, SubmitOutcome } from '../../channel-adapter.ts';
import { encodeSms } from '../../../core/sms-parts.ts';
import { resolveConfig, sourceAddress, type ResolvedSmppConfig, type SmppChannelConfig } from './config.ts';
import { SmppConnection, SmppUnavailable, type ConnectionState } from './connection.ts';
import { MoAssembler } from './mo.ts';
import { parseReceipt } from './receipt.ts';
import { ReceiptRouter, type TrackedMessage } from './receipt-router.ts';
import { SmppConnectionLost } from './session.ts';
import { classifySubmitStatus } from './submit-status.ts';
import { smsStateByName } from '../../../generated/enums.gen.ts';
import { TokenBucket, realClock, type Clock } from './token-bucket.ts';
import { RequestWindow } from './window.ts';
import { EsmClass, Status, isReceipt, makePdu, statusName, type Pdu } from './wire.ts';
import { randomUUID } from 'node:crypto';
import { userReferenceOf } from '../../user-reference.ts';

export interface SmppAdapterOptions {
  /** Clock for the TPS bucket (tests). */
  clock?: Clock;
  /** Randomness for the reconnect jitter (tests). */
  random?: () => number;
  /** Connection state changes (bound, backoff, refused …) for health screens and logs. */
  onStateChange?: (state: ConnectionState, error: Error | null) => void;
}

export interface SmppAdapterStats {
  state: ConnectionState;
  submitted: number;
  accepted: number;
  throttled: number;
  lostAnswers: number;
  binds: number;
  drops: number;
  inFlight: number;
  trackedIds: number;
}

type PartResult =
  | { kind: 'ok'; id: string }
  | { kind: 'transient'; status: number; throttling: boolean }
  | { kind: 'permanent'; status: number; statusCode: number; unauthorized: boolean }
  | { kind: 'lost'; reason: string }
  | { kind: 'unavailable'; reason: string; afterMs: number; refused: boolean }
  | { kind: 'closing' };

/** Sent as user_message_reference (TLV 0x0204): the low 16 bits of our message id. */
export { userReferenceOf };

/** Destination as SMPP wants it: international digits, no '+'. Null when it is no phone number. */
function destinationDigits(to: string): string | null {
  const digits = to.replace(/[\s()-]/g, '').replace(/^\+/, '');
  return /^\d{7,15}$/.test(digits) ? digits : null;
}

export class SmppAdapter implements ChannelAdapter {
  readonly platform = 'sms' as const;
  private readonly config: ResolvedSmppConfig;
  private readonly connection: SmppConnection;
  private readonly window: RequestWindow;
  private readonly bucket: TokenBucket;
  private readonly router: ReceiptRouter;
  private readonly mo = new MoAssembler();
  private readonly source: { ton: number; npi: number; addr: string };
  private readonly clock: Clock;
  private concatReference = Math.floor(Math.random() * 256);
  private throttleStreak = 0;
  private throttlePausedUntil = 0;
  private closing = false;
  private active = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly counters = { submitted: 0, accepted: 0, throttled: 0, lostAnswers: 0 };
  /** user_message_reference → messages being sent with it (see ReceiptRouterOptions.awaitingReference). */
  private readonly sendingReferences = new Map<number, number>();

  constructor(
    readonly channelId: number,
    config: SmppChannelConfig,
    private readonly sink: ReceiptSink,
    options: SmppAdapterOptions = {},
  ) {
    this.config = resolveConfig(config);
    this.clock = options.clock ?? realClock;
    this.source = sourceAddress(this.config);
    this.window = new RequestWindow(this.config.window);
    this.bucket = new TokenBucket({ ratePerSecond: this.config.tps, burst: this.config.burst, clock: this.clock });
    this.connection = new SmppConnection(
      {
        host: this.config.host,
        port: this.config.port,
        systemId: this.config.systemId,
        password: this.config.password,
        systemType: this.config.systemType,
        responseTimeoutMs: this.config.responseTimeoutMs,
        enquireLinkMs: this.config.enquireLinkMs,
        reconnectInitialMs: this.config.reconnectInitialMs,
        reconnectMaxMs: this.config.reconnectMaxMs,
        bindRefusedRetryMs: this.config.bindRefusedRetryMs,
        random: options.random,
      },
      (pdu) => this.onDeliver(pdu),
    );
    if (options.onStateChange) this.connection.on('state', options.onStateChange);
    this.router = new ReceiptRouter({
      report: (event) => this.sink.status(this.channelId, event),
      // Window slots, not the session's pending answers: the smpp package hands over a
      // submit_sm_resp and a deliver_sm read in the same chunk before the submit's continuation
      // runs, and the slot is only released after it.
      inFlight: () => this.window.used,
      awaitingReference: (reference) => this.sendingReferences.has(reference),
      orphanWaitMs: this.config.responseTimeoutMs + 1_000,
      maxTracked: this.config.maxTrackedIds,
    });
  }

  get state(): ConnectionState {
    return this.connection.state;
  }

  /** The last connection or bind error (an SmppBindError carries the catalogue code 99966/99965). */
  get lastError(): Error | null {
    return this.connection.lastError;
  }

  stats(): SmppAdapterStats {
    return {
      state: this.connection.state,
      ...this.counters,
      binds: this.connection.binds,
      drops: this.connection.drops,
      inFlight: this.connection.inFlight,
      trackedIds: this.router.tracked,
    };
  }

  /** Binds now and stays bound (receipts kept by the SMSC arrive); rejects with SmppBindError. */
  connect(): Promise<void> {
    return this.connection.open();
  }

  async submit(messages: readonly OutboundMessage[]): Promise<SubmitOutcome[]> {
    return Promise.all(messages.map((message) => this.track(() => this.send(message))));
  }

  private async track<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await work();
    } finally {
      if (--this.active === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const wake of waiters) wake();
      }
    }
  }

  private async send(message: OutboundMessage): Promise<SubmitOutcome> {
    if (this.closing) return { kind: 'retry', reason: 'the SMS channel is closing', afterMs: 1_000 };
    const destination = destinationDigits(message.to);
    if (destination === null) return { kind: 'failed', statusCode: smsStateByName.invalid, reason: `not a phone number: ${message.to}` };
    if (!message.text) return { kind: 'failed', statusCode: smsStateByName.requestError, reason: 'an SMS needs a text' };
    const segments = encodeSms(message.text, this.concatReference++ & 0xff);
    if (segments.length > 255) return { kind: 'failed', statusCode: smsStateByName.requestError, reason: `too long: ${segments.length} parts` };
    const userReference = userReferenceOf(message.id);
    this.sendingReferences.set(userReference, (this.sendingReferences.get(userReference) ?? 0) + 1);
    try {
      return await this.sendParts(message, destination, segments, userReference);
    } finally {
      const left = (this.sendingReferences.get(userReference) ?? 1) - 1;
      if (left > 0) this.sendingReferences.set(userReference, left);
      else this.sendingReferences.delete(userReference);
    }
  }

  private async sendParts(message: OutboundMessage, destination: string, segments: ReturnType<typeof encodeSms>, userReference: number): Promise<SubmitOutcome> {
    const tracked: TrackedMessage | null = segments.length > 1 ? this.router.startMessage() : null;
    const started = Date.now();
    const ids: string[] = [];

    for (let index = 0; index < segments.length; index++) {
      const segment = segments[index];
      const shortMessage = segment.udh ? Buffer.concat([segment.udh, segment.payload]) : Buffer.from(segment.payload);
      const fields = {
        service_type: this.config.serviceType,
        source_addr_ton: this.source.ton,
        source_addr_npi: this.source.npi,
        source_addr: this.source.addr,
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        destination_addr: destination,
        esm_class: segment.udh ? EsmClass.UDHI : 0,
        protocol_id: 0,
        priority_flag: 0,
        schedule_delivery_time: '',
        validity_period: this.config.validityPeriod,
        registered_delivery: this.config.registeredDelivery,
        replace_if_present_flag: 0,
        data_coding: segment.dataCoding,
        sm_default_msg_id: 0,
        short_message: shortMessage,
        user_message_reference: userReference,
      };
      // Throttled later parts get more patience: giving up on them leaves a cut text on the handset.
      const giveUpAt = started + this.config.throttleGiveUpMs * (index === 0 ? 1 : 4);
      for (;;) {
        const result = await this.submitPart(fields, index === 0);
        if (result.kind === 'ok') {
          ids.push(result.id);
          this.router.accepted(result.id, tracked);
          break;
        }
        const partial = index > 0 ? ` (after ${index} of ${segments.length} parts were sent)` : '';
        if (result.kind === 'permanent') {
          if (tracked) this.router.abandon(tracked);
          return { kind: 'failed', statusCode: result.statusCode, errorCode: statusName(result.status), reason: `the SMSC refused the message: ${statusName(result.status)}${partial}`, ...(result.unauthorized ? { unauthorized: true } : {}) };
        }
        if (result.kind === 'closing') return { kind: 'retry', reason: 'the SMS channel is closing', afterMs: 1_000 };
        const why = result.kind === 'transient' ? `the SMSC answered ${statusName(result.status)}` : result.reason;
        if (index === 0 && result.kind === 'unavailable') return { kind: 'retry', reason: why, afterMs: result.afterMs };
        if (index === 0 && result.kind === 'lost') return { kind: 'retry', reason: why, afterMs: this.config.reconnectInitialMs };
        const backoff = result.kind === 'transient' ? this.throttleBackoff() : this.config.reconnectInitialMs;
        const hopeless = this.closing || (result.kind === 'unavailable' && result.refused);
        if (hopeless || Date.now() + backoff > giveUpAt) {
          // Still throttled when patience ran out: the SMSC's throughput or queue limit refused it (overflow).
          if (index === 0) return { kind: 'retry', reason: why, afterMs: backoff, ...(result.kind === 'transient' && result.throttling ? { overflow: true } : {}) };
          if (tracked) this.router.abandon(tracked);
          const failed: SubmitOutcome = { kind: 'failed', statusCode: smsStateByName.dispatchError, reason: `gave up: ${why}${partial}` };
          if (result.kind === 'transient') failed.errorCode = statusName(result.status);
          return failed;
        }
        await this.clock.sleep(backoff);
      }
    }
    return ids.length > 1 ? { kind: 'accepted', providerMessageId: ids[0], partIds: ids } : { kind: 'accepted', providerMessageId: ids[0] };
  }

  private throttleBackoff() {
    return Math.min(this.config.throttleMaxMs, this.config.throttleInitialMs * 2 ** Math.min(20, Math.max(0, this.throttleStreak - 1)));
  }

  /** One submit_sm: a window slot, a session, a token, the answer. */
  private async submitPart(fields: Record<string, unknown>, firstPart: boolean): Promise<PartResult> {
    await this.window.acquire(!firstPart);
    try {
      if (this.closing && firstPart) return { kind: 'closing' };
      let session;
      try {
        session = await this.connection.get(this.config.connectWaitMs);
      } catch (error) {
        if (error instanceof SmppUnavailable) return { kind: 'unavailable', reason: error.message, afterMs: error.afterMs, refused: error.refused };
        throw error;
      }
      await this.bucket.take();
      let resp: Pdu;
      try {
        this.counters.submitted++;
        resp = await session.request(makePdu('submit_sm', fields));
      } catch (error) {
        if (error instanceof SmppConnectionLost) {
          this.counters.lostAnswers++;
          return { kind: 'lost', reason: `no answer from the SMSC: ${error.message}` };
        }
        throw error;
      }
      const verdict = classifySubmitStatus(resp.command_status);
      if (verdict.kind === 'ok') {
        this.throttleStreak = 0;
        this.counters.accepted++;
        return { kind: 'ok', id: String(resp.message_id ?? '') };
      }
      if (verdict.kind === 'transient') {
        this.counters.throttled++;
        // One throttling episode counts once: the answers to the requests already in flight when
        // the pause began do not lengthen it again.
        const now = Date.now();
        if (now >= this.throttlePausedUntil) {
          this.throttleStreak++;
          const backoff = this.throttleBackoff();
          this.throttlePausedUntil = now + backoff;
          // The whole channel slows down, not only this message.
          if (verdict.throttling) this.bucket.pause(backoff);
        }
        return { kind: 'transient', status: resp.command_status, throttling: verdict.throttling };
      }
      if (verdict.kind === 'rebind') {
        session.drop(`the SMSC answered ${statusName(resp.command_status)}`);
        return { kind: 'lost', reason: `the SMSC answered ${statusName(resp.command_status)}` };
      }
      return { kind: 'permanent', status: resp.command_status, statusCode: verdict.statusCode, unauthorized: verdict.unauthorized === true };
    } finally {
      this.window.release();
    }
  }

  private onDeliver(pdu: Pdu): Promise<number> | number {
    if (isReceipt(pdu)) {
      const receipt = parseReceipt(pdu);
      // A receipt without any id cannot be matched: acknowledge it so the SMSC does not resend forever.
      if (!receipt) return Status.ROK;
      return this.router.receive(receipt).then(() => Status.ROK);
    }
    const text = this.mo.accept(pdu);
    if (!text) return Status.ROK;
    const event: InboundEvent = { to: text.to, from: text.from, text: text.text, providerMessageId: `smpp-mo-${randomUUID()}`, at: new Date() };
    const stored = this.sink.inbound(this.channelId, event);
    return stored instanceof Promise ? stored.then(() => Status.ROK) : Status.ROK;
  }

  /** Stops taking work, waits (bounded) for the messages being sent, unbinds. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const deadline = Date.now() + this.config.closeTimeoutMs;
    if (this.active > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => this.idleWaiters.push(resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, this.config.closeTimeoutMs))),
      ]);
      clearTimeout(timer);
    }
    await this.connection.close(Math.max(100, deadline - Date.now()));
    await this.router.flush();
  }
}
