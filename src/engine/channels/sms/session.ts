// One bound SMPP 3.4 transceiver connection: connect, bind_transceiver, requests with a response
// timeout, enquire_link, answers to what the SMSC sends, graceful unbind. It knows nothing about
// messages; the adapter (adapter.ts) decides what to send and what a failure means.
// The `smpp` package keeps a callback per sequence number forever and has no timeout
// (research/protocols.md 1.4), so requests are matched to answers here; and its 'error' event
// would kill the process without a listener (1.6 d), so every session has one.
import { EventEmitter } from 'node:events';
import { INTERFACE_VERSION_34, Status, makePdu, smpp, statusName, type Pdu, type Session } from './wire.ts';

export interface SessionOptions {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  /** Limit for TCP connect and for every request's answer (bind, submit, enquire_link). */
  responseTimeoutMs: number;
  /** enquire_link period; 0 for none. */
  enquireLinkMs: number;
}

/** Catalogue codes (config/errors.yaml): 99966 connection refused for good, 99965 try again later. */
export const CHANNEL_CONNECTION_FAILED = '99966';
export const CHANNEL_CONNECTION_FAILED_RETRY = '99965';

/** A bind that did not succeed. `retryable` false means the credentials were refused: retrying
 *  in a loop would only lock the account at the operator. */
export class SmppBindError extends Error {
  readonly code: string;
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly commandStatus?: number,
  ) {
    super(message);
    this.name = 'SmppBindError';
    this.code = retryable ? CHANNEL_CONNECTION_FAILED_RETRY : CHANNEL_CONNECTION_FAILED;
  }
}

/** A request whose answer will never come: the answer timed out or the connection closed. */
export class SmppConnectionLost extends Error {
  constructor(readonly reason: 'timeout' | 'closed', message: string) {
    super(message);
    this.name = 'SmppConnectionLost';
  }
}

/** Statuses that mean "these credentials are wrong", as opposed to "not now". */
const CREDENTIAL_REFUSALS: ReadonlySet<number> = new Set([Status.RBINDFAIL, Status.RINVPASWD, Status.RINVSYSID]);

interface PendingRequest {
  resolve(pdu: Pdu): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** Handles a deliver_sm; the session answers deliver_sm_resp with the status it resolves to. */
export type DeliverHandler = (pdu: Pdu) => Promise<number> | number;

export class SmppSession extends EventEmitter<{ closed: [reason: string] }> {
  private readonly pending = new Map<number, PendingRequest>();
  private enquireTimer: NodeJS.Timeout | null = null;
  private closedReason: string | null = null;
  private drainWaiters: Array<() => void> = [];

  private constructor(
    private readonly raw: Session,
    private readonly options: SessionOptions,
    private readonly onDeliver: DeliverHandler,
  ) {
    super();
  }

  /** Connects and binds as a transceiver; rejects with SmppBindError. */
  static open(options: SessionOptions, onDeliver: DeliverHandler): Promise<SmppSession> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: SmppBindError) => {
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        // drop() also fails the bind request still waiting, so its timer does not outlive us.
        session.drop(error.message);
        reject(error);
      };
      const raw = smpp.connect({ host: options.host, port: options.port });
      const session = new SmppSession(raw, options, onDeliver);
      raw.on('error', (error: Error) => {
        if (!settled) fail(new SmppBindError(`cannot reach the SMSC at ${options.host}:${options.port}: ${error.message}`, true));
        else session.drop(`socket error: ${error.message}`);
      });
      raw.on('close', () => {
        if (!settled) fail(new SmppBindError(`the SMSC at ${options.host}:${options.port} closed the connection during bind`, true));
        else session.drop('connection closed by the SMSC');
      });
      raw.on('pdu', (pdu: Pdu) => session.receive(pdu));
      const connectTimer = setTimeout(
        () => fail(new SmppBindError(`no answer from the SMSC at ${options.host}:${options.port} within ${options.responseTimeoutMs} ms`, true)),
        options.responseTimeoutMs,
      );
      raw.on('connect', () => {
        const bind = makePdu('bind_transceiver', {
          system_id: options.systemId,
          password: options.password,
          system_type: options.systemType ?? '',
          interface_version: INTERFACE_VERSION_34,
          addr_ton: 0,
          addr_npi: 0,
          address_range: '',
        });
        session.request(bind).then(
          (resp) => {
            if (settled) return;
            if (resp.command_status !== Status.ROK) {
              const status = resp.command_status;
              const refused = CREDENTIAL_REFUSALS.has(status);
              // Never the password itself in a message: only the system_id and the SMSC's answer.
              fail(
                new SmppBindError(
                  refused
                    ? `the SMSC refused system_id "${options.systemId}": ${statusName(status)} (check system_id and password)`
                    : `the SMSC did not accept the bind: ${statusName(status)}`,
                  !refused,
                  status,
                ),
              );
              return;
            }
            settled = true;
            clearTimeout(connectTimer);
            session.startEnquireLink();
            resolve(session);
          },
          (error: Error) => fail(new SmppBindError(`bind failed: ${error.message}`, true)),
        );
      });
    });
  }

  get inFlight() {
    return this.pending.size;
  }

  get closed() {
    return this.closedReason !== null;
  }

  /** Sends a request and resolves with its answer (whatever its command_status). */
  request(pdu: Pdu): Promise<Pdu> {
    if (this.closedReason !== null) return Promise.reject(new SmppConnectionLost('closed', this.closedReason));
    return new Promise((resolve, reject) => {
      if (!this.raw.send(pdu)) {
        reject(new SmppConnectionLost('closed', 'the connection is not writable'));
        this.drop('the connection is not writable');
        return;
      }
      const sequence = pdu.sequence_number;
      const timer = setTimeout(() => {
        this.drop(`no answer to ${pdu.command} within ${this.options.responseTimeoutMs} ms`, 'timeout');
      }, this.options.responseTimeoutMs);
      this.pending.set(sequence, { resolve, reject, timer });
    });
  }

  private receive(pdu: Pdu) {
    if (pdu.isResponse()) {
      const waiting = this.pending.get(pdu.sequence_number);
      if (!waiting) return;
      this.pending.delete(pdu.sequence_number);
      clearTimeout(waiting.timer);
      waiting.resolve(pdu);
      if (this.pending.size === 0) this.wakeDrainWaiters();
      return;
    }
    switch (pdu.command) {
      case 'deliver_sm':
        this.answerDeliver(pdu);
        return;
      case 'enquire_link':
        this.raw.send(pdu.response());
        return;
      case 'unbind':
        this.raw.send(pdu.response());
        this.drop('the SMSC unbound');
        return;
      default:
        // Anything else (data_sm, alert_notification, unknown ids) gets a generic_nack so the
        // SMSC does not wait for us.
        this.raw.send(makePdu('generic_nack', { sequence_number: pdu.sequence_number, command_status: 0x03 }));
    }
  }

  private answerDeliver(pdu: Pdu) {
    const answer = (status: number) => {
      if (this.closedReason === null) this.raw.send(pdu.response({ command_status: status, message_id: '' }));
    };
    let result: Promise<number> | number;
    try {
      result = this.onDeliver(pdu);
    } catch {
      result = Status.RX_T_APPN;
    }
    if (typeof result === 'number') answer(result);
    // A sink that could not store the event: temporary application error, the SMSC resends.
    else result.then(answer, () => answer(Status.RX_T_APPN));
  }

  private startEnquireLink() {
    if (this.options.enquireLinkMs <= 0) return;
    this.enquireTimer = setInterval(() => {
      this.request(makePdu('enquire_link')).catch(() => undefined);
    }, this.options.enquireLinkMs);
    this.enquireTimer.unref();
  }

  /** Drops the connection now: every request in flight fails with SmppConnectionLost. */
  drop(reason: string, kind: 'timeout' | 'closed' = 'closed') {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    if (this.enquireTimer) clearInterval(this.enquireTimer);
    const lost = new SmppConnectionLost(kind, reason);
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const request of pending) {
      clearTimeout(request.timer);
      request.reject(lost);
    }
    this.raw.destroy();
    this.wakeDrainWaiters();
    this.emit('closed', reason);
  }

  private wakeDrainWaiters() {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Waits (bounded) for the answers in flight, then unbinds and closes. */
  async unbind(waitMs: number): Promise<void> {
    if (this.closedReason !== null) return;
    const deadline = Date.now() + waitMs;
    const until = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());
    if (this.pending.size > 0) {
      await Promise.race([new Promise<void>((resolve) => this.drainWaiters.push(resolve)), until(deadline - Date.now())]);
    }
    if (this.closedReason === null) {
      const answered = this.request(makePdu('unbind')).catch(() => undefined);
      // The unbind_resp gets its own short allowance even when the answers in flight used it all.
      await Promise.race([answered, until(Math.max(200, deadline - Date.now()))]);
    }
    this.drop('unbound');
  }
}
