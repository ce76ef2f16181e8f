// What the three HTTP channel adapters (WhatsApp, Messenger, RCS) share: a JSON request with a
// deadline, a bound on requests in flight per channel, and the classification of answers that
// carry no provider error code (network failure, timeout, 429, 5xx) into "try again later".
// Provider-specific codes are mapped by each adapter's own table.

export interface HttpAnswer {
  status: number;
  /** Parsed JSON, or null when the body was empty or not JSON. */
  body: unknown;
  headers: Headers;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
}

/** Thrown only for transport failures (refused, reset, timeout); any HTTP answer is returned. */
export class TransportError extends Error {
  constructor(message: string, readonly timedOut: boolean) {
    super(message);
    this.name = 'TransportError';
  }
}

export async function requestJson(options: RequestOptions): Promise<HttpAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(options.url, { method: options.method, headers, body: payload, signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
    // The URL may carry an access token in its query: never put it in the message.
    const where = safeOrigin(options.url);
    throw new TransportError(timedOut ? `no answer from ${where} within ${options.timeoutMs} ms` : `cannot reach ${where}: ${(error as Error).cause ?? (error as Error).message}`, timedOut);
  }
  const text = await response.text().catch(() => '');
  return { status: response.status, body: parseJson(text), headers: response.headers };
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function safeOrigin(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'the provider';
  }
}

/** Retry-After in seconds (the only form Meta and Google use) as milliseconds. */
export function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
}

/** Answers that say nothing about the message itself: worth sending again later. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * At most `limit` calls of `run` at a time; the rest wait in order. One per channel adapter,
 * so a burst from the dispatcher does not open hundreds of sockets to the provider.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly idlers: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('concurrency limit must be a positive integer');
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      const next = this.waiting.shift();
      if (next) next();
      else if (this.active === 0) for (const resolve of this.idlers.splice(0)) resolve();
    }
  }

  /** Resolves when nothing is in flight or waiting. */
  idle(): Promise<void> {
    if (this.active === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idlers.push(resolve));
  }
}

/** Something an operator must act on (an expired token): the adapter raises it once per cause. */
export interface ChannelAlert {
  platform: 'whatsapp' | 'fbMessenger' | 'rcs';
  kind: 'tokenExpired' | 'unauthorized';
  reason: string;
}

/** Options every HTTP adapter takes besides its credentials. */
export interface HttpAdapterOptions {
  /** Per request; default 15 s. */
  timeoutMs?: number;
  /** Requests in flight at once for this channel; default 16. */
  maxConcurrent?: number;
  onAlert?: (alert: ChannelAlert) => void;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_CONCURRENT = 16;
/** How long close() waits for answers in flight. */
export const CLOSE_GRACE_MS = 10_000;

/** Waits for `limit` to drain, at most `graceMs`. */
export async function drain(limit: ConcurrencyLimit, graceMs = CLOSE_GRACE_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([limit.idle(), new Promise<void>((resolve) => { timer = setTimeout(resolve, graceMs); })]);
  clearTimeout(timer);
}
