// The click queue: the redirect never waits for the click's write, and a busy server does not pay
// for it either (tracking cost half of the redirect throughput when every click was
// written within a second, because with PGlite the inserts run on the redirects' own thread).
//
// - push() is synchronous and O(1). A click is copied into columns of typed arrays (chunks of
//   CHUNK clicks, about 60 bytes a click), not kept as an object: held objects survive the young
//   generation and make the garbage collector copy them, which measured as costly as the writes.
//   What is derived from the request (the visitor's digest, the referrer's host) is worked out
//   when the click is written, not while the redirect answers (visitor.ts).
// - A timer ticks every intervalMs. It measures how busy the server is with everything else: the
//   event loop's utilization (node:perf_hooks) over an interval in which no click write ran.
//   · Quiet (under busyThreshold): the held clicks are written, up to a slice of sliceMs every
//     other tick (the tick between reads the load again without the writer's own work), so they
//     are in the statistics a fraction of a second after the click.
//   · Busy: the writer takes at most busyShare of the time (a token bucket refilled by wall time,
//     spent by each write's duration) and holds the rest until the load passes.
//   · Whatever the load, clicks held longer than maxDelayMs, or more than half of maxQueued, are
//     written (a slice a tick): the statistics lag by at most that, and memory stays bounded.
// - flush() writes everything held now (tests, the benchmark between rounds, shutdown). A failed
//   write keeps its batch at the head of the queue for the next attempt: a slow or absent
//   database delays clicks but never loses them; past maxQueued new clicks are counted as dropped
//   and reported. close() stops the timer and writes what is held (retrying a failed write a few
//   times), which the server's onClose runs before the database closes: a clean shutdown loses no
//   click. A crash loses the held clicks: a fraction of a second's when quiet, at most
//   maxDelayMs' worth under load (docs/campaigns.md, "Link shortener", says so).
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../../engine/database.ts';
import { referrerHost, visitorDigest } from './visitor.ts';

/** A click as written: one row of short_link_clicks. */
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

/** A click as the redirect knows it: the raw address, user agent and Referer, digested when written. */
export interface ClickFacts {
  linkId: number;
  rootId: number;
  companyId: number;
  campaignId: number | null;
  /** Epoch milliseconds. */
  at: number;
  device: string;
  ip: string;
  userAgent: string;
  referer: string | null;
}

export interface ClickQueueOptions {
  /** Rows per statement. */
  maxBatch?: number;
  /** The timer's period. */
  intervalMs?: number;
  /** Held clicks at most; past it new clicks are dropped (counted). Past half, held clicks are written whatever the load. */
  maxQueued?: number;
  /** The share of a busy server's time the writer may take. */
  busyShare?: number;
  /** Utilization of the event loop (0–1) by everything but the writer above which the server is busy. */
  busyThreshold?: number;
  /** A click held longer than this is written whatever the load. */
  maxDelayMs?: number;
  /** The most a tick writes (ms of writing) when the server is quiet or clicks are overdue. */
  sliceMs?: number;
  /** Attempts of each write during close() before the rest is reported lost. */
  closeAttempts?: number;
  /** The event loop's utilization by everything since the last call (tests replace it). */
  load?: () => number;
  /** Milliseconds, monotonic (tests replace it). */
  clock?: () => number;
  log?: (message: string, detail?: unknown) => void;
}

/**
 * The oldest clicks held, handed to the writer. The database writer reads them as columns (array
 * literals joined straight from the typed arrays, the strings once each): no object per click is
 * made for the write, so writing a backlog leaves little for the collector to clear (which cost
 * more CPU than the insert's own JavaScript). clicks() builds the objects, for tests and writers
 * of other kinds.
 */
export interface ClickBatch {
  readonly length: number;
  clicks(): Click[];
  columns(): ClickColumns;
}

/**
 * A batch as PostgreSQL array literals ('{1,2,3}'), one per column. device, referrer and visitor
 * are 1-based indices into `strings` (a text[] literal of the batch's distinct strings); 0 for
 * no referrer and for no campaign.
 */
export interface ClickColumns {
  company: string;
  link: string;
  root: string;
  campaign: string;
  at: string;
  device: string;
  referrer: string;
  visitor: string;
  strings: string;
}

export type ClickWriter = (batch: ClickBatch) => Promise<void>;

const CHUNK = 8192;
/** Rows per statement while the server is busy: a write short enough not to be felt. */
const BUSY_BATCH = 250;
/** Longer user agents and Referer headers are digested at once instead of kept (bounded memory). */
const KEEP_MAX = 512;

/**
 * CHUNK clicks in columns. Strings (device, address, user agent, Referer) are interned per chunk,
 * so a chunk keeps each distinct one once, at most KEEP_MAX characters; the visitor digest and the
 * referrer's host are worked out when the click is written (once per distinct pair in the chunk),
 * or at once for a long header (then `visitor` holds the digest and the referrer is the host).
 */
class ClickChunk {
  readonly linkId = new Float64Array(CHUNK);
  readonly rootId = new Float64Array(CHUNK);
  readonly at = new Float64Array(CHUNK);
  /** The digest, or NaN: digest ip × userAgent when written. */
  readonly visitor = new Float64Array(CHUNK);
  readonly companyId = new Int32Array(CHUNK);
  /** 0: none (ids start at 1). */
  readonly campaignId = new Int32Array(CHUNK);
  readonly device = new Int32Array(CHUNK);
  readonly ip = new Int32Array(CHUNK);
  readonly userAgent = new Int32Array(CHUNK);
  /** -1: none. */
  readonly referrer = new Int32Array(CHUNK);
  /** 1: the referrer string is already the host. */
  readonly referrerIsHost = new Uint8Array(CHUNK);
  private strings: string[] = [];
  private index = new Map<string, number>();
  private visitors = new Map<number, string>();
  private hosts = new Map<number, string | null>();
  /** Next slot to fill; first slot not yet written. */
  end = 0;
  start = 0;
  /** The queue's clock when the first click came in (the age of the oldest held click, conservatively). */
  firstAt = 0;

  private intern(text: string): number {
    let i = this.index.get(text);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(text);
      this.index.set(text, i);
    }
    return i;
  }

  put(c: ClickFacts): void {
    const i = this.end++;
    this.linkId[i] = c.linkId;
    this.rootId[i] = c.rootId;
    this.at[i] = c.at;
    this.companyId[i] = c.companyId;
    this.campaignId[i] = c.campaignId ?? 0;
    this.device[i] = this.intern(c.device);
    if (c.userAgent.length <= KEEP_MAX) {
      this.visitor[i] = NaN;
      this.ip[i] = this.intern(c.ip);
      this.userAgent[i] = this.intern(c.userAgent);
    } else {
      this.visitor[i] = visitorDigest(c.ip, c.userAgent);
    }
    if (c.referer === null) {
      this.referrer[i] = -1;
    } else if (c.referer.length <= KEEP_MAX) {
      this.referrer[i] = this.intern(c.referer);
      this.referrerIsHost[i] = 0;
    } else {
      const host = referrerHost(c.referer);
      this.referrer[i] = host === null ? -1 : this.intern(host);
      this.referrerIsHost[i] = 1;
    }
  }

  get(i: number): Click {
    const device = this.deviceOf(i);
    return {
      linkId: this.linkId[i], rootId: this.rootId[i], companyId: this.companyId[i], campaignId: this.campaignId[i] || null,
      at: new Date(this.at[i]), bot: device === 'bot', device, referrer: this.referrerOf(i), visitor: this.visitorOf(i),
    };
  }

  deviceOf(i: number): string {
    return this.strings[this.device[i]];
  }

  visitorOf(i: number): string {
    if (!Number.isNaN(this.visitor[i])) return this.visitor[i].toString(36);
    const key = this.ip[i] * CHUNK * 4 + this.userAgent[i];
    let v = this.visitors.get(key);
    if (v === undefined) {
      v = visitorDigest(this.strings[this.ip[i]], this.strings[this.userAgent[i]]).toString(36);
      this.visitors.set(key, v);
    }
    return v;
  }

  referrerOf(i: number): string | null {
    const r = this.referrer[i];
    if (r < 0) return null;
    if (this.referrerIsHost[i]) return this.strings[r];
    let host = this.hosts.get(r);
    if (host === undefined) {
      host = referrerHost(this.strings[r]);
      this.hosts.set(r, host);
    }
    return host;
  }

  reset(): this {
    this.start = 0;
    this.end = 0;
    this.strings = [];
    this.index = new Map();
    this.visitors = new Map();
    this.hosts = new Map();
    return this;
  }
}

/** Slices [start, end) of chunks, oldest first. */
class HeldBatch implements ClickBatch {
  constructor(private readonly parts: ReadonlyArray<{ chunk: ClickChunk; start: number; end: number }>, readonly length: number) {}

  clicks(): Click[] {
    const out: Click[] = [];
    for (const { chunk, start, end } of this.parts) for (let i = start; i < end; i++) out.push(chunk.get(i));
    return out;
  }

  columns(): ClickColumns {
    const numbers = (column: (c: ClickChunk) => Float64Array | Int32Array) =>
      `{${this.parts.map(({ chunk, start, end }) => column(chunk).subarray(start, end).join(',')).join(',')}}`;
    const index = new Map<string, number>();
    const intern = (text: string) => {
      let i = index.get(text);
      if (i === undefined) index.set(text, (i = index.size + 1));
      return i;
    };
    const device = new Int32Array(this.length);
    const referrer = new Int32Array(this.length);
    const visitor = new Int32Array(this.length);
    let row = 0;
    for (const { chunk, start, end } of this.parts) {
      for (let i = start; i < end; i++, row++) {
        device[row] = intern(chunk.deviceOf(i));
        const host = chunk.referrerOf(i);
        referrer[row] = host === null ? 0 : intern(host);
        visitor[row] = intern(chunk.visitorOf(i));
      }
    }
    // Every string is quoted and its quotes and backslashes escaped: a text[] literal of any text.
    const strings = `{${[...index.keys()].map((t) => `"${t.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
    return {
      company: numbers((c) => c.companyId), link: numbers((c) => c.linkId), root: numbers((c) => c.rootId),
      campaign: numbers((c) => c.campaignId), at: numbers((c) => c.at),
      device: `{${device.join(',')}}`, referrer: `{${referrer.join(',')}}`, visitor: `{${visitor.join(',')}}`, strings,
    };
  }
}

/** The default load probe: the event loop's utilization since the previous call. */
function eventLoopLoad(): () => number {
  let mark: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const used = performance.eventLoopUtilization(now, mark).utilization;
    mark = now;
    return used;
  };
}

export class ClickQueue {
  private chunks: ClickChunk[] = [];
  private spare: ClickChunk | null = null;
  private held = 0;
  private inFlight = 0;
  private flushing: Promise<void> | null = null;
  private ticking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null;
  private closed = false;
  private busy = false;
  /** A write ran since the last load reading (that reading is then not the others' load). */
  private wroteSinceReading = false;
  private tokens = 0;
  private lastTick: number;
  private readonly maxBatch: number;
  private readonly maxQueued: number;
  private readonly busyShare: number;
  private readonly busyThreshold: number;
  private readonly maxDelayMs: number;
  private readonly sliceMs: number;
  private readonly closeAttempts: number;
  private readonly load: () => number;
  private readonly clock: () => number;
  private readonly log: (message: string, detail?: unknown) => void;
  /** Counters for tests, the benchmark and the logs. */
  readonly stats = { written: 0, dropped: 0, failedWrites: 0, busyTicks: 0, quietTicks: 0 };

  constructor(private readonly write: ClickWriter, options: ClickQueueOptions = {}) {
    this.maxBatch = options.maxBatch ?? 1000;
    this.maxQueued = options.maxQueued ?? 1_000_000;
    this.busyShare = options.busyShare ?? 0.03;
    this.busyThreshold = options.busyThreshold ?? 0.5;
    this.maxDelayMs = options.maxDelayMs ?? 60_000;
    this.sliceMs = options.sliceMs ?? 50;
    this.closeAttempts = options.closeAttempts ?? 5;
    this.load = options.load ?? eventLoopLoad();
    this.clock = options.clock ?? (() => performance.now());
    this.log = options.log ?? (() => {});
    this.lastTick = this.clock();
    this.timer = setInterval(() => void this.tick(), options.intervalMs ?? 100);
    this.timer.unref();
  }

  /** Clicks held and not being written. */
  get size(): number {
    return this.held - this.inFlight;
  }

  /** Clicks held, the batch being written included: with stats.written it counts every click taken. */
  get pending(): number {
    return this.held;
  }

  push(click: ClickFacts): void {
    if (this.held >= this.maxQueued) {
      this.stats.dropped++;
      return;
    }
    let tail = this.chunks[this.chunks.length - 1];
    if (!tail || tail.end === CHUNK) {
      tail = this.spare?.reset() ?? new ClickChunk();
      this.spare = null;
      this.chunks.push(tail);
    }
    if (tail.end === 0) tail.firstAt = this.clock();
    tail.put(click);
    this.held++;
  }

  /**
   * One beat of the timer (public for tests): reads the load, then writes what the rules allow —
   * everything up to a slice when quiet or overdue, the token bucket's worth when busy.
   */
  tick(): Promise<void> {
    this.ticking ??= this.beat().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async beat(): Promise<void> {
    if (this.flushing) return;
    const now = this.clock();
    const elapsed = Math.max(0, now - this.lastTick);
    this.lastTick = now;
    const load = this.load();
    // A reading taken while the writer wrote counts the writer's own work (PGlite writes on this
    // thread): it gives no verdict, and the writer then skips this tick (unless clicks are
    // overdue) so that the next reading is a clean one: a burst that starts while a backlog is
    // being written is seen within two ticks.
    const clean = !this.wroteSinceReading;
    if (clean) {
      const wasBusy = this.busy;
      this.busy = load > this.busyThreshold;
      if (this.busy && !wasBusy) this.tokens = 0; // the share starts with the load, no credit saved
    }
    this.wroteSinceReading = false;
    if (this.busy) this.stats.busyTicks++;
    else this.stats.quietTicks++;
    const cap = this.busyShare * 1000;
    this.tokens = this.busy ? Math.min(cap, this.tokens + this.busyShare * elapsed) : cap;
    if (!this.size) return;
    const overdue = this.held > this.maxQueued / 2 || this.oldestAgeMs() > this.maxDelayMs;
    if (!clean && !overdue) return;
    if (!this.busy || overdue) {
      const until = this.clock() + this.sliceMs;
      while (this.size && this.clock() < until && !this.closed) {
        if (!(await this.writeBatch(this.maxBatch))) return;
      }
      return;
    }
    while (this.size && this.tokens > 0 && !this.closed) {
      const started = this.clock();
      const ok = await this.writeBatch(Math.min(BUSY_BATCH, this.maxBatch));
      this.tokens -= this.clock() - started;
      if (!ok) return;
    }
  }

  private oldestAgeMs(): number {
    const head = this.chunks[0];
    return head && head.start < head.end ? this.clock() - head.firstAt : 0;
  }

  /** Writes everything held now (one statement per batch); resolves when done or a write failed. */
  flush(): Promise<void> {
    this.flushing ??= (async () => {
      if (this.ticking) await this.ticking;
      while (this.size) if (!(await this.writeBatch(this.maxBatch))) return;
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Writes the oldest `max` clicks; they leave the queue only once written. False: the write failed. */
  private async writeBatch(max: number): Promise<boolean> {
    const parts: { chunk: ClickChunk; start: number; end: number }[] = [];
    let length = 0;
    for (let c = 0; c < this.chunks.length && length < max; c++) {
      const chunk = this.chunks[c];
      const end = Math.min(chunk.end, chunk.start + max - length);
      if (end > chunk.start) parts.push({ chunk, start: chunk.start, end });
      length += end - chunk.start;
    }
    const batch = new HeldBatch(parts, length);
    this.inFlight = batch.length;
    this.wroteSinceReading = true;
    try {
      await this.write(batch);
    } catch (error) {
      this.stats.failedWrites++;
      this.log('shortener: clicks not written yet, retrying later', { queued: this.held, error: (error as Error).message });
      return false;
    } finally {
      this.inFlight = 0;
    }
    this.stats.written += batch.length;
    this.consume(batch.length);
    return true;
  }

  private consume(n: number): void {
    this.held -= n;
    while (n > 0) {
      const head = this.chunks[0];
      const take = Math.min(n, head.end - head.start);
      head.start += take;
      n -= take;
      if (head.start < head.end) continue;
      if (this.chunks.length > 1 || head.end === CHUNK) {
        this.chunks.shift();
        this.spare ??= head;
      } else {
        head.reset();
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.ticking) await this.ticking;
    for (let attempt = 0; attempt < this.closeAttempts && this.size; attempt++) await this.flush();
    if (this.size) this.log('shortener: clicks lost at shutdown (database unavailable)', { lost: this.size });
    if (this.stats.dropped) this.log('shortener: clicks dropped while the queue was full', { dropped: this.stats.dropped });
  }
}

/**
 * The database writer: one insert per batch, each column one array literal joined from the typed
 * arrays, the distinct strings one text[] (a subscript out of range, 0, reads as null). It replaced
 * one JSON parameter of objects, which made an object and a string per click (see docs/campaigns.md, "Link shortener").
 */
export function databaseClickWriter(db: Kysely<Database>): ClickWriter {
  return async (batch) => {
    const c = batch.columns();
    await sql`
      insert into short_link_clicks (company_id, link_id, root_id, campaign_id, at, bot, device, referrer, visitor)
      select x.c, x.l, x.r, nullif(x.k, 0), to_timestamp(x.a / 1000.0), s.t[x.d] = 'bot', s.t[x.d], s.t[x.f], s.t[x.v]
      from unnest(${c.company}::int[], ${c.link}::bigint[], ${c.root}::bigint[], ${c.campaign}::int[],
        ${c.at}::float8[], ${c.device}::int[], ${c.referrer}::int[], ${c.visitor}::int[]) as x(c, l, r, k, a, d, f, v),
        (select ${c.strings}::text[] as t) s`.execute(db);
  };
}
