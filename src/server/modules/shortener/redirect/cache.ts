// The redirect's link cache: code → what the redirect needs (target, expiry, owner ids for the
// click). A hit never waits for the database: a stale entry (older than freshMs) is still
// answered and refreshed in the background (stale-while-revalidate), so a slow database slows
// only first visits of a code. Unknown codes are remembered for negativeMs, so a flood of made-up
// codes does not become a flood of queries. Concurrent misses share queries: one code's misses
// wait for one lookup, and the codes missed in the same turn of the event loop are looked up
// together in one statement (code = any(…)), so a burst of first visits costs a few queries.
// Bounded (max entries, oldest first out). Creating or deleting a link in this process updates
// the cache at once; other processes see it within freshMs.

export interface CachedLink {
  linkId: number;
  rootId: number;
  companyId: number;
  campaignId: number | null;
  url: string;
  /** Epoch ms, or null: never. */
  expiresAt: number | null;
  /** Deleted (the link or its parent). */
  gone: boolean;
}

interface Entry { link: CachedLink | null; at: number }

export interface LinkCacheOptions {
  max?: number;
  freshMs?: number;
  negativeMs?: number;
  now?: () => number;
  log?: (message: string, detail?: unknown) => void;
}

export class LinkCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<CachedLink | null>>();
  private readonly max: number;
  private readonly freshMs: number;
  private readonly negativeMs: number;
  private readonly now: () => number;
  private readonly log: (message: string, detail?: unknown) => void;
  readonly stats = { hits: 0, misses: 0, staleServed: 0, refreshFailures: 0 };

  private batch: Map<string, { resolve: (link: CachedLink | null) => void; reject: (error: unknown) => void }[]> | null = null;

  /** `load` answers the links of the codes it knows; a code it leaves out is unknown. */
  constructor(private readonly load: (codes: string[]) => Promise<Map<string, CachedLink>>, options: LinkCacheOptions = {}) {
    this.max = options.max ?? 100_000;
    this.freshMs = options.freshMs ?? 60_000;
    this.negativeMs = options.negativeMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? (() => {});
  }

  /**
   * The cached answer without waiting: a link, null (known unknown), or undefined (not cached, or
   * a negative entry that aged out: ask resolve()). Stale links are answered and refreshed.
   */
  peek(code: string): CachedLink | null | undefined {
    const entry = this.entries.get(code);
    if (!entry) return undefined;
    const age = this.now() - entry.at;
    if (entry.link === null) {
      if (age > this.negativeMs) return undefined;
      this.stats.hits++;
      return null;
    }
    this.stats.hits++;
    if (age > this.freshMs) {
      this.stats.staleServed++;
      void this.fetch(code).catch((error) => {
        this.stats.refreshFailures++;
        this.log('shortener: cache refresh failed; serving the cached link', { error: (error as Error).message });
      });
    }
    return entry.link;
  }

  /** The link for a code: from the cache, else from the database (one query per code at a time). */
  async resolve(code: string): Promise<CachedLink | null> {
    const cached = this.peek(code);
    if (cached !== undefined) return cached;
    this.stats.misses++;
    return this.fetch(code);
  }

  private fetch(code: string): Promise<CachedLink | null> {
    let pending = this.loading.get(code);
    if (!pending) {
      pending = this.enqueue(code)
        .then((link) => {
          this.set(code, link);
          return link;
        })
        .finally(() => this.loading.delete(code));
      this.loading.set(code, pending);
    }
    return pending;
  }

  private enqueue(code: string): Promise<CachedLink | null> {
    if (!this.batch) {
      const batch = new Map<string, { resolve: (link: CachedLink | null) => void; reject: (error: unknown) => void }[]>();
      this.batch = batch;
      setImmediate(() => {
        this.batch = null;
        this.load([...batch.keys()]).then(
          (found) => batch.forEach((waiters, c) => waiters.forEach((w) => w.resolve(found.get(c) ?? null))),
          (error) => batch.forEach((waiters) => waiters.forEach((w) => w.reject(error))),
        );
      });
    }
    const batch = this.batch;
    return new Promise((resolve, reject) => {
      const waiters = batch.get(code) ?? [];
      waiters.push({ resolve, reject });
      batch.set(code, waiters);
    });
  }

  set(code: string, link: CachedLink | null): void {
    this.entries.delete(code);
    this.entries.set(code, { link, at: this.now() });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  forget(code: string): void {
    this.entries.delete(code);
  }

  /** Marks a deleted link and its children gone at once (their codes may be anywhere in the cache). */
  markGone(rootId: number): void {
    for (const entry of this.entries.values()) if (entry.link && entry.link.rootId === rootId) entry.link = { ...entry.link, gone: true };
  }

  get size(): number {
    return this.entries.size;
  }
}
