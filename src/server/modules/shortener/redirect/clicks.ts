// The click queue: the redirect never waits for the click's write. push() is synchronous and
// O(1); a flush writes up to maxBatch clicks in ONE statement (insert … select from unnest),
// every intervalMs or as soon as a batch is full. A failed write puts its batch back at the
// head of the queue and is retried at the next flush, so a slow or absent database delays clicks
// but never loses them; the queue is bounded (maxQueued) so memory is too: past it new clicks are
// counted as dropped and reported. close() stops the timer and writes everything still queued
// (retrying a failed write a few times), which the server's onClose runs before the database
// closes: a clean shutdown loses no click.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../../engine/database.ts';

export interface Click {
  linkId: number;
  rootId: number;
  companyId: number;
  campaignId: number | null;
  at: Date;
  bot: boolean;
  device: string;
  referrer: string | null;
  visitor: string;
}

export interface ClickQueueOptions {
  maxBatch?: number;
  intervalMs?: number;
  maxQueued?: number;
  /** Attempts of each write during close() before the rest is reported lost. */
  closeAttempts?: number;
  log?: (message: string, detail?: unknown) => void;
}

export type ClickWriter = (batch: Click[]) => Promise<void>;

export class ClickQueue {
  private queue: Click[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null;
  private closed = false;
  private readonly maxBatch: number;
  private readonly maxQueued: number;
  private readonly closeAttempts: number;
  private readonly log: (message: string, detail?: unknown) => void;
  /** Counters for tests, the benchmark and the logs. */
  readonly stats = { written: 0, dropped: 0, failedWrites: 0 };

  constructor(private readonly write: ClickWriter, options: ClickQueueOptions = {}) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.maxQueued = options.maxQueued ?? 200_000;
    this.closeAttempts = options.closeAttempts ?? 5;
    this.log = options.log ?? (() => {});
    this.timer = setInterval(() => void this.flush(), options.intervalMs ?? 1000);
    this.timer.unref();
  }

  get size(): number {
    return this.queue.length;
  }

  push(click: Click): void {
    if (this.queue.length >= this.maxQueued) {
      this.stats.dropped++;
      return;
    }
    this.queue.push(click);
    if (this.queue.length >= this.maxBatch && !this.flushing && !this.closed) setImmediate(() => void this.flush());
  }

  /** Writes what is queued now (one statement per batch); resolves when done or a write failed. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.write(batch);
        this.stats.written += batch.length;
      } catch (error) {
        this.queue.unshift(...batch);
        this.stats.failedWrites++;
        this.log('shortener: clicks not written yet, retrying later', { queued: this.queue.length, error: (error as Error).message });
        return;
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (let attempt = 0; attempt < this.closeAttempts && this.queue.length; attempt++) {
      await this.flush();
      if (this.flushing) await this.flushing;
    }
    if (this.queue.length) this.log('shortener: clicks lost at shutdown (database unavailable)', { lost: this.queue.length });
    if (this.stats.dropped) this.log('shortener: clicks dropped while the queue was full', { dropped: this.stats.dropped });
  }
}

/**
 * The database writer: one insert per batch, the rows as one JSON parameter with epoch
 * milliseconds (measured on PGlite: about half the cost of nine unnest arrays and ISO dates).
 */
export function databaseClickWriter(db: Kysely<Database>): ClickWriter {
  return async (batch) => {
    const rows = JSON.stringify(batch.map((c) => ({ c: c.companyId, l: c.linkId, r: c.rootId, k: c.campaignId, a: c.at.getTime(), b: c.bot, d: c.device, f: c.referrer, v: c.visitor })));
    await sql`
      insert into short_link_clicks (company_id, link_id, root_id, campaign_id, at, bot, device, referrer, visitor)
      select c, l, r, k, to_timestamp(a / 1000.0), b, d, f, v
      from json_to_recordset(${rows}::json) as x(c int, l bigint, r bigint, k int, a double precision, b boolean, d text, f text, v text)`.execute(db);
  };
}
