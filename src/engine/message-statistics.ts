// The planner's statistics of the messages table, kept fresh by the processes that change many
// rows at once. PGlite has no autovacuum, and PostgreSQL's comes late for a bulk change: a launch
// writes 1,000,000 rows and a worker claims them by the batch. With statistics taken while the
// table was small the planner keeps believing it is small and answers each chunk's refusal rules
// (block list, duplicates) and each batch's receipts by scanning every message, so each chunk costs
// more as the table grows (a launch's first 2,500 rows took 60–130 ms per chunk of 100,
// and held PGlite's one thread that long). One rule for every writer: after `first` rows, then
// every time the rows changed since reach the table's size (at least `floor`), `analyze messages`
// (a sample of at most 30,000 rows, so its cost is bounded however big the table is).
import { sql, type Kysely } from 'kysely';
import type { Database } from './database.ts';

export interface MessageStatisticsOptions {
  /** Rows before the first refresh. */
  first?: number;
  /** The smallest number of rows between two refreshes. */
  floor?: number;
  log?: (message: string, detail?: unknown) => void;
}

export class MessageStatistics {
  private since = 0;
  private after: number;
  private refreshing: Promise<void> | null = null;
  /** Refreshes done (the tests and the benchmark read it). */
  refreshed = 0;

  constructor(private readonly db: Kysely<Database>, private readonly options: MessageStatisticsOptions = {}) {
    this.after = options.first ?? 1000;
  }

  /** Counts `rows` written or changed; starts a refresh when they reach the threshold (one at a time). */
  note(rows: number): Promise<void> {
    this.since += rows;
    if (this.since >= this.after) this.refreshing ??= this.refresh().finally(() => { this.refreshing = null; });
    return this.refreshing ?? Promise.resolve();
  }

  /** The refresh under way, if any (to await before closing the database). */
  settled(): Promise<void> {
    return this.refreshing ?? Promise.resolve();
  }

  private async refresh(): Promise<void> {
    this.since = 0;
    try {
      await sql`analyze messages`.execute(this.db);
      const size = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = 'messages'::regclass`.execute(this.db);
      this.after = Math.max(this.options.floor ?? 5000, Math.round(Number(size.rows[0]?.n ?? 0)));
      this.refreshed += 1;
    } catch (error) {
      this.options.log?.('could not refresh the statistics of messages', error);
    }
  }
}
