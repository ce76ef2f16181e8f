// Keeps one channel bound: binds on demand, re-binds after a drop with exponential back-off
// (capped, with jitter so many channels do not reconnect in step), and stops trying after the
// SMSC refused the credentials: a wrong password must not turn into a bind storm that gets the
// account locked. It stays bound while open, because receipts and MO only arrive on a bound
// session (the SMSC keeps them meanwhile).
import { EventEmitter } from 'node:events';
import { SmppBindError, SmppConnectionLost, SmppSession, type DeliverHandler, type SessionOptions } from './session.ts';

export type ConnectionState = 'idle' | 'connecting' | 'bound' | 'backoff' | 'refused' | 'closed';

export interface ConnectionOptions extends SessionOptions {
  reconnectInitialMs: number;
  reconnectMaxMs: number;
  bindRefusedRetryMs: number;
  random?: () => number;
}

/** No session within the wait: the caller answers `retry` after `afterMs`. */
export class SmppUnavailable extends Error {
  constructor(
    message: string,
    readonly afterMs: number,
    readonly refused: boolean,
  ) {
    super(message);
    this.name = 'SmppUnavailable';
  }
}

export class SmppConnection extends EventEmitter<{ state: [state: ConnectionState, error: Error | null] }> {
  private session: SmppSession | null = null;
  private connecting: Promise<SmppSession> | null = null;
  private attempt = 0;
  private nextAttemptAt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private refusal: { error: SmppBindError; at: number } | null = null;
  private currentState: ConnectionState = 'idle';
  private lastErrorValue: Error | null = null;
  private readonly random: () => number;
  /** Completed binds (the first one included). */
  binds = 0;
  drops = 0;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly onDeliver: DeliverHandler,
  ) {
    super();
    this.random = options.random ?? Math.random;
  }

  get state() {
    return this.currentState;
  }

  get lastError() {
    return this.lastErrorValue;
  }

  get inFlight() {
    return this.session?.inFlight ?? 0;
  }

  private setState(state: ConnectionState, error: Error | null = null) {
    if (error) this.lastErrorValue = error;
    if (state === this.currentState && !error) return;
    this.currentState = state;
    this.emit('state', state, error);
  }

  /** Delay before attempt n (1-based): initial·2^(n-1), capped, then 50–100 % of it. */
  private backoff(attempt: number) {
    const base = Math.min(this.options.reconnectMaxMs, this.options.reconnectInitialMs * 2 ** Math.min(30, attempt - 1));
    return Math.round(base * (0.5 + this.random() * 0.5));
  }

  /** A bound session, waiting at most `waitMs` for a bind or a reconnect. */
  async get(waitMs: number): Promise<SmppSession> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (this.currentState === 'closed') throw new SmppUnavailable('the channel is closing', 1_000, false);
      if (this.session && !this.session.closed) return this.session;
      if (this.refusal) {
        const left = this.refusal.at + this.options.bindRefusedRetryMs - Date.now();
        if (left > 0) throw new SmppUnavailable(this.refusal.error.message, left, true);
        this.refusal = null;
      }
      if (!this.connecting && Date.now() >= this.nextAttemptAt) {
        this.connecting = this.bind();
        // When the deadline passes below, nobody awaits this bind: its failure must not become an
        // unhandled rejection (which ends a worker process).
        this.connecting.catch(() => undefined);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new SmppUnavailable(this.lastErrorValue?.message ?? 'not bound', Math.max(1, this.nextAttemptAt - Date.now()), false);
      const wake = this.connecting
        ? this.connecting.then(() => undefined, () => undefined)
        : new Promise<void>((resolve) => setTimeout(resolve, Math.min(left, this.nextAttemptAt - Date.now())));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([wake, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
  }

  /** Binds now (used when a channel is enabled or the engine starts); rejects with SmppBindError. */
  async open(): Promise<void> {
    if (this.session && !this.session.closed) return;
    this.refusal = null;
    this.nextAttemptAt = 0;
    await (this.connecting ??= this.bind());
  }

  private async bind(): Promise<SmppSession> {
    this.setState('connecting');
    try {
      const session = await SmppSession.open(this.options, this.onDeliver);
      if (this.currentState === 'closed') {
        session.drop('closed while binding');
        throw new SmppConnectionLost('closed', 'the channel closed while binding');
      }
      this.attempt = 0;
      this.binds++;
      this.session = session;
      session.once('closed', (reason) => this.onDropped(session, reason));
      this.setState('bound');
      return session;
    } catch (error) {
      if (this.currentState !== 'closed') {
        if (error instanceof SmppBindError && !error.retryable) {
          this.refusal = { error, at: Date.now() };
          this.setState('refused', error);
        } else {
          this.scheduleReconnect(error as Error);
        }
      }
      throw error;
    } finally {
      this.connecting = null;
    }
  }

  private onDropped(session: SmppSession, reason: string) {
    if (this.session !== session) return;
    this.session = null;
    if (this.currentState === 'closed') return;
    this.drops++;
    this.scheduleReconnect(new SmppConnectionLost('closed', reason));
  }

  private scheduleReconnect(error: Error) {
    this.attempt++;
    const delay = this.backoff(this.attempt);
    this.nextAttemptAt = Date.now() + delay;
    this.setState('backoff', error);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.currentState === 'backoff' && !this.connecting && !this.session) this.connecting = this.bind();
      this.connecting?.catch(() => undefined);
    }, delay);
  }

  /** Waits (bounded) for the answers in flight, unbinds, and stops reconnecting. */
  async close(waitMs: number): Promise<void> {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const session = this.session;
    this.setState('closed');
    if (session) await session.unbind(waitMs);
    this.session = null;
  }
}
