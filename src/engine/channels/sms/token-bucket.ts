// The per-channel TPS limit (ARCHITECTURE 5): an operator contracts N submits per second and
// throttles or disconnects above it. A token bucket refills at `ratePerSecond` up to `burst`
// tokens; every submit_sm takes one. With a small burst, any one-second window holds at most
// ratePerSecond + burst submits. The clock and the sleep are injected so tests run on virtual time.

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface TokenBucketOptions {
  /** Tokens per second; null or a non-positive value means no limit (pause() still applies). */
  ratePerSecond: number | null;
  /** Tokens that may accumulate while idle. Default: ratePerSecond / 20 (at least 1). */
  burst?: number;
  clock?: Clock;
}

export class TokenBucket {
  readonly ratePerSecond: number | null;
  readonly burst: number;
  private readonly clock: Clock;
  private tokens: number;
  private updatedAt: number;
  /** No tokens before this instant (set after a throttling answer from the SMSC). */
  private pausedUntil = 0;
  /** Waiters are served in arrival order: a later caller never overtakes an earlier one. */
  private queue: Promise<void> = Promise.resolve();

  constructor(options: TokenBucketOptions) {
    const rate = options.ratePerSecond;
    this.ratePerSecond = rate !== null && rate > 0 ? rate : null;
    this.burst = Math.max(1, options.burst ?? Math.ceil((this.ratePerSecond ?? 20) / 20));
    this.clock = options.clock ?? realClock;
    this.tokens = this.burst;
    this.updatedAt = this.clock.now();
  }

  private refill(now: number) {
    if (this.ratePerSecond === null) return;
    const from = Math.max(this.updatedAt, this.pausedUntil);
    if (now > from) this.tokens = Math.min(this.burst, this.tokens + ((now - from) * this.ratePerSecond) / 1000);
    this.updatedAt = Math.max(now, this.updatedAt);
  }

  /** Takes a token if one is there; otherwise answers how many ms until one will be. */
  tryTake(): number {
    const now = this.clock.now();
    if (now < this.pausedUntil) return this.pausedUntil - now;
    if (this.ratePerSecond === null) return 0;
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.max(1, ((1 - this.tokens) * 1000) / this.ratePerSecond);
  }

  /** Waits for a token (in arrival order). */
  take(): Promise<void> {
    if (this.ratePerSecond === null && this.clock.now() >= this.pausedUntil) return Promise.resolve();
    const turn = this.queue.then(async () => {
      for (let wait = this.tryTake(); wait > 0; wait = this.tryTake()) await this.clock.sleep(wait);
    });
    this.queue = turn;
    return turn;
  }

  /** Empties the bucket and gives no token for `ms`: the SMSC said we were too fast. */
  pause(ms: number) {
    const now = this.clock.now();
    this.refill(now);
    this.tokens = 0;
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
  }
}
