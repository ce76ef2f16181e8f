// The dispatch worker (ARCHITECTURE 5). Queued rows are claimed in batches with FOR UPDATE SKIP
// LOCKED, so any number of workers on one PostgreSQL share the queue without sending a row twice.
// A claimed row is 'sending' under this worker's id; the worker's heartbeat in engine_workers
// says it is alive. When a worker dies (crash, SIGKILL), another one (or its own restart) finds
// the stale heartbeat and marks its rows 'in_doubt': they may have reached the provider. An
// in-doubt row is resolved by its receipt (matched on destination and user reference, see
// receipts.ts), or requeued when none came within the grace period.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ChannelAdapter, ChannelPlatform, OutboundMessage, SubmitOutcome } from './channel-adapter.ts';
import { groupBy } from './group-by.ts';
import { completeFinishedDeployments, startDueDeployments } from './lifecycle/deployments.ts';
import {
  claimQueued, fallBackToSms, holdForSendWindow, recordAccepted, recordRefused, releaseOverflow, requeueForRetry, stillClaimed,
  type Accepted, type ClaimedRow, type Refused, type Retry,
} from './lifecycle/dispatch.ts';
import { heldBySendWindow, type SendWindow } from './lifecycle/enqueue.ts';
import { IN_DOUBT_MAX_MS, markDeadWorkersRowsInDoubt, markOwnRowsInDoubt, markStrandedRowsInDoubt, resendExpiredInDoubt } from './lifecycle/in-doubt.ts';
import { isRetryableDatabaseError } from './database-errors.ts';
import { STATUS } from './lifecycle/message-states.ts';
import { reconcileOrphans } from './receipts.ts';
import type { Database } from './database.ts';
import { MessageStatistics } from './message-statistics.ts';

export interface AdapterRegistry {
  /** The adapter of a channel (null when the channel is gone or disabled: its rows fail with 92). */
  adapterFor(channelId: number): Promise<ChannelAdapter | null>;
  /** Where an RCS message goes when the number is not RCS-capable (the company's SMS channel). */
  fallbackFor?(companyId: number): Promise<{ id: number; platform: ChannelPlatform } | null>;
}

/**
 * The default wait of an in-doubt message for a receipt before it goes again: two minutes. An SMSC
 * answers a submit in milliseconds and sends the receipt of an accepted message within seconds,
 * so a message no receipt named in two minutes most likely never left; waiting longer (it was ten
 * minutes) left every message of a crashed process unsent for that long.
 * ENGINE_IN_DOUBT_GRACE_MS changes it for `npm start` and `npm run worker` alike.
 */
export const IN_DOUBT_GRACE_MS = 2 * 60_000;

/** Claims of a message after which an adapter that throws on it fails it with 99 (general). */
const ADAPTER_ERROR_ATTEMPTS = 5;
/** Tries of the write that records a batch's submit answers (see retryingWrite). */
const RECORD_ATTEMPTS = 5;

export interface DispatcherOptions {
  db: Kysely<Database>;
  adapters: AdapterRegistry;
  sendWindow: SendWindow;
  workerId?: string;
  /** Rows per claim. */
  batchSize?: number;
  /** Claim loops running at once (pipelining: one batch is written while the next is sent). */
  concurrency?: number;
  /** A worker whose heartbeat is older than this is dead. */
  leaseMs?: number;
  /** How long an in-doubt row waits for its receipt before it is sent again (default IN_DOUBT_GRACE_MS). */
  inDoubtGraceMs?: number;
  /**
   * An in-doubt row also waits until the channel's receipts have passed it (a restarted worker
   * reads an SMSC's backlog first), but no longer than this (default IN_DOUBT_MAX_MS).
   */
  inDoubtMaxMs?: number;
  /** Poll interval when the queue is empty (enqueue() also wakes the worker). */
  idleMs?: number;
  /**
   * How long a receipt that matches no message waits before it is dropped (default 72 h, longer
   * than an SMS's validity period). Without a bound, receipts that can never match (another
   * system's, or a part of a message refused at a later part) would stay for ever, and every
   * batch would run the full reconcile for them.
   */
  orphanTtlMs?: number;
  now?: () => Date;
  log?: (message: string, detail?: unknown) => void;
}

export class Dispatcher {
  readonly workerId: string;
  private readonly db: Kysely<Database>;
  private running = false;
  private loops: Promise<void>[] = [];
  private wakeWaiters: (() => void)[] = [];
  private maintenance: NodeJS.Timeout | null = null;
  /** Adapters connected for the receipts their rows wait for (once each: no bind storm after a refusal). */
  private readonly attached = new WeakSet<ChannelAdapter>();
  /** Ids of the rows this worker's batches hold now (claimed, not yet recorded): the others it claimed are stranded. */
  private readonly inFlight = new Set<string>();
  private readonly options: Required<Omit<DispatcherOptions, 'workerId' | 'log'>> & { log: (m: string, d?: unknown) => void };
  /** Counters the tests and the benchmark read. */
  readonly stats = { claimed: 0, accepted: 0, retried: 0, failed: 0, fellBack: 0 };
  /** The planner's statistics of `messages`, refreshed as rows are claimed. */
  readonly statistics: MessageStatistics;

  constructor(options: DispatcherOptions) {
    this.workerId = options.workerId ?? `w-${process.pid}-${randomBytes(4).toString('hex')}`;
    this.db = options.db;
    this.options = {
      batchSize: 500, concurrency: 2, leaseMs: 15_000, inDoubtGraceMs: IN_DOUBT_GRACE_MS, inDoubtMaxMs: IN_DOUBT_MAX_MS, idleMs: 1000, orphanTtlMs: 72 * 3_600_000, now: () => new Date(),
      log: () => {}, ...options,
    } as typeof this.options;
    this.statistics = new MessageStatistics(this.db, { first: this.options.batchSize, log: this.options.log });
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const at = this.options.now();
    await this.db.insertInto('engine_workers').values({ id: this.workerId, pid: process.pid, started_at: at, heartbeat_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: at })).execute();
    // A restart under the same worker id: what the previous life claimed is in doubt.
    await markOwnRowsInDoubt(this.db, this.workerId, at);
    await this.maintain();
    const period = Math.max(50, Math.floor(this.options.leaseMs / 3));
    this.maintenance = setInterval(() => void this.maintain().catch((e) => this.options.log('maintenance failed', e)), period);
    for (let i = 0; i < this.options.concurrency; i++) this.loops.push(this.loop());
  }

  /** Stops claiming, lets the batches in flight finish, and leaves the worker table. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    if (this.maintenance) clearInterval(this.maintenance);
    await Promise.all(this.loops);
    this.loops = [];
    await this.statistics.settled();
    await this.db.deleteFrom('engine_workers').where('id', '=', this.workerId).execute();
  }

  /** New work is queued: claim now instead of at the next poll. */
  wake(): void {
    const waiters = this.wakeWaiters;
    this.wakeWaiters = [];
    for (const w of waiters) w();
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.idleMs);
      function done() { clearTimeout(timer); resolve(); }
      this.wakeWaiters.push(done);
    });
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.runOnce();
      } catch (error) {
        this.options.log('dispatch batch failed', error);
      }
      if (claimed === 0 && this.running) await this.idle();
    }
  }

  /** One claim → send → record cycle; answers how many rows it claimed. */
  async runOnce(): Promise<number> {
    const now = this.options.now();
    const { rows, refused } = await claimQueued(this.db, this.workerId, this.options.batchSize, now);
    // A batch its company's credits did not cover was still work: look again at once.
    if (!rows.length) return refused;
    const ids = rows.map((r) => String(r.id));
    for (const id of ids) this.inFlight.add(id);
    try {
      this.stats.claimed += rows.length;
      void this.statistics.note(rows.length);
      const sendable = await this.holdOutsideWindow(rows, now);
      const byChannel = groupBy(sendable, (r) => r.channel_id);
      await Promise.all([...byChannel].map(([channelId, list]) => this.sendChannel(channelId, list)));
      return rows.length;
    } finally {
      // Whatever failed on the way, the rows are no longer held here: what is still 'sending'
      // under this worker goes in doubt at the next maintenance round (markStrandedRowsInDoubt).
      for (const id of ids) this.inFlight.delete(id);
    }
  }

  /** Commercial messages claimed outside their company's window go back to wait (a deployment can run past 19:00). */
  private async holdOutsideWindow(rows: ClaimedRow[], now: Date): Promise<ClaimedRow[]> {
    const companies = [...new Set(rows.filter((r) => heldBySendWindow(r.purpose, r.source)).map((r) => r.company_id))];
    const heldUntil = new Map<number, Date>();
    for (const c of companies) {
      const next = await this.options.sendWindow(c, now);
      if (next) heldUntil.set(c, next);
    }
    if (!heldUntil.size) return rows;
    const held = rows.filter((r) => heldBySendWindow(r.purpose, r.source) && heldUntil.has(r.company_id));
    for (const [companyId, until] of heldUntil) {
      await holdForSendWindow(this.db, held.filter((r) => r.company_id === companyId).map((r) => r.id), until, now);
    }
    return rows.filter((r) => !held.includes(r));
  }

  private async sendChannel(channelId: number, claimed: ClaimedRow[]): Promise<void> {
    const adapter = await this.options.adapters.adapterFor(channelId);
    // Fencing: rows another worker put in doubt while this one stalled (its lease lapsed) are no
    // longer ours to send; the in-doubt recovery decides them (a stalled worker sent
    // rows that were also sent again after the grace period).
    const ours = await stillClaimed(this.db, this.workerId, claimed.map((r) => r.id));
    const rows = claimed.filter((r) => ours.has(String(r.id)));
    if (rows.length < claimed.length) this.options.log(`${claimed.length - rows.length} claimed row(s) were put in doubt before their submit (this worker's lease lapsed): left to the in-doubt recovery`);
    if (!rows.length) return;
    let outcomes: SubmitOutcome[];
    if (!adapter) {
      outcomes = rows.map(() => ({ kind: 'failed', statusCode: STATUS.dispatchError, reason: 'channel not available' }));
    } else {
      const messages: OutboundMessage[] = rows.map((r) => ({
        id: String(r.id), to: r.to_number, ...(r.body !== null ? { text: r.body } : {}), ...(r.template ? { template: r.template } : {}),
      }));
      try {
        outcomes = await adapter.submit(messages);
      } catch (error) {
        // An adapter that throws (an answer it could not read, a fault of ours) is tried again a
        // few times; a message it keeps throwing on ends with 99, general error, instead of
        // going round the queue for ever.
        this.options.log(`channel ${channelId}: submit threw`, error);
        outcomes = rows.map((r): SubmitOutcome => (r.attempts >= ADAPTER_ERROR_ATTEMPTS
          ? { kind: 'failed', statusCode: STATUS.general, errorCode: 'adapterError', reason: `the channel's adapter failed ${r.attempts} times` }
          : { kind: 'retry', reason: 'adapter error', afterMs: 1000 }));
      }
    }
    await this.record(rows, outcomes);
  }

  private async record(rows: ClaimedRow[], outcomes: SubmitOutcome[]): Promise<void> {
    const now = this.options.now();
    const accepted: Accepted[] = [];
    const retry: Retry[] = [];
    const failed: Refused[] = [];
    const fallback: ClaimedRow[] = [];
    rows.forEach((row, i) => {
      const o = outcomes[i] ?? { kind: 'retry', reason: 'no outcome' };
      if (o.kind === 'accepted') accepted.push({ row, pid: o.providerMessageId, ...(o.partIds && o.partIds.length > 1 ? { partIds: o.partIds } : {}) });
      else if (o.kind === 'retry') retry.push({ row, at: new Date(now.getTime() + (o.afterMs ?? 1000)), overflow: o.overflow === true });
      else if (o.kind === 'failed') failed.push({ row, code: o.statusCode, error: o.errorCode ?? null, unauthorized: o.unauthorized === true });
      else fallback.push(row);
    });
    // The answers exist only in memory: a lost connection or a deadlock must not lose them.
    // Each write checks the row is still ours in 'sending' (or in doubt), so a retry after a
    // commit whose answer was lost changes nothing twice.
    await this.retryingWrite(() => this.db.transaction().execute(async (trx) => {
      await recordAccepted(trx, this.workerId, accepted, now);
      await requeueForRetry(trx, this.workerId, retry, now);
      await recordRefused(trx, this.workerId, failed, now);
    }));
    if (fallback.length) await this.fallBack(fallback, now);
    this.stats.accepted += accepted.length;
    this.stats.retried += retry.length;
    this.stats.failed += failed.length;
    if (accepted.length) await reconcileOrphans(this.db, now);
  }

  /**
   * Runs a write again when the database aborted it without writing (RECORD_ATTEMPTS in all,
   * 100 ms doubling between them: a dropped connection is replaced at once, a deadlock's other
   * side commits). Still failing, the error goes up; the rows are then stranded, see runOnce.
   */
  private async retryingWrite(write: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (attempt >= RECORD_ATTEMPTS || !isRetryableDatabaseError(error)) throw error;
        this.options.log(`recording a batch failed (attempt ${attempt} of ${RECORD_ATTEMPTS}), trying again`, error);
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
      }
    }
  }

  /** RCS numbers that are not RCS-capable go by SMS on the company's fallback channel. */
  private async fallBack(rows: ClaimedRow[], now: Date): Promise<void> {
    for (const row of rows) {
      const target = await this.options.adapters.fallbackFor?.(row.company_id);
      await fallBackToSms(this.db, row, target ?? null, now);
      this.stats.fellBack++;
    }
  }

  /**
   * Connects the adapters of channels with rows in doubt or waiting for their receipt. Receipts
   * are what tells whether an in-doubt row left (and what finishes a sent one), and an SMSC keeps
   * the receipts of a system_id while none of its sessions is bound, handing them over at the
   * next bind. Adapters connect lazily (at the first submit), so without this a worker restarted
   * with nothing left to send would never bind: the grace period would run out and messages that
   * did reach the handset would be sent a second time. One index probe per channel. Two-way
   * channels (type MO) are bound always: the messages people write to them (SMPP deliver_sm)
   * come only over a bound session, and a chatbot conversation waits for them.
   */
  private async attachAwaiting(): Promise<void> {
    const channels = await sql<{ id: number }>`
      select c.id from channels c where c.enabled and (
        c.type = 'MO' or
        exists (select 1 from messages m where m.channel_id = c.id and m.state = 'in_doubt') or
        exists (select 1 from messages m where m.channel_id = c.id and m.state = 'sent'))`.execute(this.db);
    for (const { id: channelId } of channels.rows) {
      const adapter = await this.options.adapters.adapterFor(channelId);
      if (!adapter?.connect || this.attached.has(adapter)) continue;
      this.attached.add(adapter);
      // Not awaited: a bind can take its back-off; a failed one reconnects on its own schedule.
      adapter.connect().catch((error) => this.options.log(`channel ${channelId}: could not connect for the receipts it is waiting for`, error));
    }
  }

  /** Heartbeat, dead workers' rows to in-doubt, in-doubt resolution, finished deployments. */
  async maintain(): Promise<void> {
    const now = this.options.now();
    const beat = await this.db.updateTable('engine_workers').set({ heartbeat_at: now }).where('id', '=', this.workerId).executeTakeFirst();
    if (Number(beat.numUpdatedRows) === 0 && this.running) {
      // Our lease lapsed and another worker declared us dead (its rows are in doubt now). Rejoin:
      // without a row, every batch we claim would be taken into doubt at once by the others.
      await this.db.insertInto('engine_workers').values({ id: this.workerId, pid: process.pid, started_at: now, heartbeat_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: now })).execute();
      this.options.log('heartbeat lapsed (declared dead by another worker): rejoined; the rows claimed before are left to the in-doubt recovery');
    }
    const staleBefore = new Date(now.getTime() - this.options.leaseMs);
    const dead = await this.db.deleteFrom('engine_workers').where('heartbeat_at', '<', staleBefore).where('id', '<>', this.workerId).returning('id').execute();
    await markDeadWorkersRowsInDoubt(this.db, this.workerId, now);
    const stranded = await markStrandedRowsInDoubt(this.db, this.workerId, [...this.inFlight], staleBefore, now);
    if (stranded > 0) this.options.log(`${stranded} row(s) of a batch that failed after its claim went in doubt`);
    if (dead.length) this.options.log(`recovered the rows of ${dead.length} dead worker(s)`);
    await this.attachAwaiting();
    await reconcileOrphans(this.db, now);
    const expired = await this.db.deleteFrom('orphan_receipts').where('received_at', '<', new Date(now.getTime() - this.options.orphanTtlMs)).executeTakeFirst();
    if (Number(expired.numDeletedRows) > 0) this.options.log(`dropped ${expired.numDeletedRows} receipt(s) that matched no message within ${Math.round(this.options.orphanTtlMs / 3_600_000)} h`);
    const graceBefore = new Date(now.getTime() - this.options.inDoubtGraceMs);
    const maxBefore = new Date(now.getTime() - Math.max(this.options.inDoubtGraceMs, this.options.inDoubtMaxMs));
    const { requeued: again, dropped } = await resendExpiredInDoubt(this.db, { graceBefore, maxBefore, now });
    if (dropped > 0) this.options.log(`dropped ${dropped} receipt(s) of long messages cut between parts, which go again whole`);
    if (again > 0) this.wake();
    if (await releaseOverflow(this.db, now) > 0) this.wake();
    await startDueDeployments(this.db, now);
    await completeFinishedDeployments(this.db, now);
  }
}
