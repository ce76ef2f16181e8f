// The dispatch worker (ARCHITECTURE 5). Queued rows are claimed in batches with FOR UPDATE SKIP
// LOCKED, so any number of workers on one PostgreSQL share the queue without sending a row twice.
// A claimed row is 'sending' under this worker's id; the worker's heartbeat in engine_workers
// says it is alive. When a worker dies (crash, SIGKILL), another one (or its own restart) finds
// the stale heartbeat and marks its rows 'in_doubt': they may have reached the provider. An
// in-doubt row is resolved by its receipt (matched on destination and user reference, see
// receipts.ts), or requeued when none came within the grace period.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ChannelAdapter, ChannelPlatform, OutboundMessage, SubmitOutcome, TemplateRef } from './channel-adapter.ts';
import { consume, release, reserve } from './credits.ts';
import { groupBy } from './group-by.ts';
import { messageCost, type SendWindow } from './enqueue.ts';
import { STATUS } from './message-states.ts';
import { reconcileOrphans } from './receipts.ts';
import type { Database } from './database.ts';

export interface AdapterRegistry {
  /** The adapter of a channel (null when the channel is gone or disabled: its rows fail with 92). */
  adapterFor(channelId: number): Promise<ChannelAdapter | null>;
  /** Where an RCS message goes when the number is not RCS-capable (the company's SMS channel). */
  fallbackFor?(companyId: number): Promise<{ id: number; platform: ChannelPlatform } | null>;
}

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
  /** How long an in-doubt row waits for its receipt before it is sent again. */
  inDoubtGraceMs?: number;
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

interface ClaimedRow {
  id: number | string;
  company_id: number;
  channel_id: number;
  deployment_id: number | string | null;
  to_number: string;
  body: string | null;
  template: TemplateRef | null;
  purpose: string;
  cost: number;
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
  private readonly options: Required<Omit<DispatcherOptions, 'workerId' | 'log'>> & { log: (m: string, d?: unknown) => void };
  /** Counters the tests and the benchmark read. */
  readonly stats = { claimed: 0, accepted: 0, retried: 0, failed: 0, fellBack: 0, analyzed: 0 };
  /** Rows claimed since the planner's statistics of `messages` were last refreshed, and the next threshold. */
  private sinceAnalyze = 0;
  private analyzeAfter: number;
  private analyzing: Promise<void> | null = null;

  constructor(options: DispatcherOptions) {
    this.workerId = options.workerId ?? `w-${process.pid}-${randomBytes(4).toString('hex')}`;
    this.db = options.db;
    this.options = {
      batchSize: 500, concurrency: 2, leaseMs: 15_000, inDoubtGraceMs: 10 * 60_000, idleMs: 1000, orphanTtlMs: 72 * 3_600_000, now: () => new Date(),
      log: () => {}, ...options,
    } as typeof this.options;
    this.analyzeAfter = this.options.batchSize;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const at = this.options.now();
    await this.db.insertInto('engine_workers').values({ id: this.workerId, pid: process.pid, started_at: at, heartbeat_at: at })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at: at })).execute();
    // A restart under the same worker id (a supervisor restarting a named worker within its
    // lease): rows still 'sending' under this id were claimed by the previous life, since this
    // one has claimed nothing yet. Its heartbeat row was just renewed, so no other worker will
    // ever find them dead: they go in doubt here, exactly as a dead worker's rows do.
    await sql`update messages set state = 'in_doubt', in_doubt_since = ${at}, worker_id = null, updated_at = ${at}
              where state = 'sending' and worker_id = ${this.workerId}`.execute(this.db);
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
    await this.analyzing;
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
    const claimed = await sql<ClaimedRow>`
      update messages m set state = 'sending', worker_id = ${this.workerId}, claimed_at = ${now}, attempts = m.attempts + 1, updated_at = ${now}
      where m.id in (
        select id from messages where state = 'queued' and not_before <= ${now}
        order by not_before, id limit ${this.options.batchSize} for update skip locked)
      returning m.id, m.company_id, m.channel_id, m.deployment_id, m.to_number, m.body, m.template, m.purpose, m.cost`.execute(this.db);
    const rows = claimed.rows;
    if (!rows.length) return 0;
    this.stats.claimed += rows.length;
    this.sinceAnalyze += rows.length;
    if (this.sinceAnalyze >= this.analyzeAfter) this.analyzing ??= this.refreshStatistics().finally(() => { this.analyzing = null; });
    const sendable = await this.holdOutsideWindow(rows, now);
    const byChannel = groupBy(sendable, (r) => r.channel_id);
    await Promise.all([...byChannel].map(([channelId, list]) => this.sendChannel(channelId, list)));
    return rows.length;
  }

  /** Commercial messages claimed outside their company's window go back to wait (a deployment can run past 19:00). */
  private async holdOutsideWindow(rows: ClaimedRow[], now: Date): Promise<ClaimedRow[]> {
    const companies = [...new Set(rows.filter((r) => r.purpose === 'commercial').map((r) => r.company_id))];
    const heldUntil = new Map<number, Date>();
    for (const c of companies) {
      const next = await this.options.sendWindow(c, now);
      if (next) heldUntil.set(c, next);
    }
    if (!heldUntil.size) return rows;
    const held = rows.filter((r) => r.purpose === 'commercial' && heldUntil.has(r.company_id));
    for (const [companyId, until] of heldUntil) {
      const ids = held.filter((r) => r.company_id === companyId).map((r) => r.id);
      await sql`update messages set state = 'queued', worker_id = null, not_before = ${until}, held_reason = 'sendWindow', updated_at = ${now}
                where id = any(${ids}::bigint[]) and state = 'sending'`.execute(this.db);
    }
    return rows.filter((r) => !held.includes(r));
  }

  private async sendChannel(channelId: number, rows: ClaimedRow[]): Promise<void> {
    const adapter = await this.options.adapters.adapterFor(channelId);
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
        this.options.log(`channel ${channelId}: submit threw`, error);
        outcomes = rows.map(() => ({ kind: 'retry', reason: 'adapter error', afterMs: 1000 }));
      }
    }
    await this.record(rows, outcomes);
  }

  private async record(rows: ClaimedRow[], outcomes: SubmitOutcome[]): Promise<void> {
    const now = this.options.now();
    const accepted: { row: ClaimedRow; pid: string; partIds?: string[] }[] = [];
    const retry: { row: ClaimedRow; at: Date }[] = [];
    const failed: { row: ClaimedRow; code: number; error: string | null }[] = [];
    const fallback: ClaimedRow[] = [];
    rows.forEach((row, i) => {
      const o = outcomes[i] ?? { kind: 'retry', reason: 'no outcome' };
      if (o.kind === 'accepted') accepted.push({ row, pid: o.providerMessageId, ...(o.partIds && o.partIds.length > 1 ? { partIds: o.partIds } : {}) });
      else if (o.kind === 'retry') retry.push({ row, at: new Date(now.getTime() + (o.afterMs ?? 1000)) });
      else if (o.kind === 'failed') failed.push({ row, code: o.statusCode, error: o.errorCode ?? null });
      else fallback.push(row);
    });
    await this.db.transaction().execute(async (trx) => {
      if (accepted.length) {
        // 'in_doubt' too: if our lease lapsed while we waited, we still know the answer best.
        // Only rows still ours: after a lapsed lease another worker may have resolved or resent
        // a row, and its credits must not be consumed twice.
        const stored = await sql<{ id: number | string }>`
          with v as (select * from unnest(${accepted.map((a) => a.row.id)}::bigint[], ${accepted.map((a) => a.pid)}::text[]) as v(id, pid)),
          upd as (
            update messages m set state = 'sent', status_code = ${STATUS.success}, delivery_status = coalesce(m.delivery_status, 'SENT'),
                   provider_message_id = v.pid, sent_at = ${now}, billed = true, worker_id = null, in_doubt_since = null, updated_at = ${now}
            from v where m.id = v.id and ((m.state = 'sending' and m.worker_id = ${this.workerId}) or m.state = 'in_doubt')
            returning m.id),
          ev as (insert into message_events (message_id, at, state, delivery_status, status_code) select id, ${now}, 'sent', 'SENT', ${STATUS.success} from upd)
          select id from upd`.execute(trx);
        const mine = new Set(stored.rows.map((r) => String(r.id)));
        // A long SMS's parts, whose receipts decide it (receipts.ts applyParts).
        const parts = accepted.filter((a) => a.partIds && mine.has(String(a.row.id))).flatMap((a) => a.partIds!.map((pid) => ({ row: a.row, pid })));
        if (parts.length) {
          await sql`insert into message_parts (channel_id, provider_part_id, message_id)
                    select * from unnest(${parts.map((p) => p.row.channel_id)}::int[], ${parts.map((p) => p.pid)}::text[], ${parts.map((p) => p.row.id)}::bigint[])
                    on conflict do nothing`.execute(trx);
        }
        for (const [companyId, list] of groupBy(accepted.map((a) => a.row).filter((r) => mine.has(String(r.id))), (r) => r.company_id)) {
          await consume(trx, { companyId, amount: sum(list, (r) => r.cost), messageCount: list.length, deploymentId: single(list), now });
        }
      }
      if (retry.length) {
        await sql`
          update messages m set state = 'queued', worker_id = null, not_before = v.at, updated_at = ${now}
          from unnest(${retry.map((r) => r.row.id)}::bigint[], ${retry.map((r) => r.at)}::timestamptz[]) as v(id, at)
          where m.id = v.id and m.state = 'sending' and m.worker_id = ${this.workerId}`.execute(trx);
      }
      if (failed.length) {
        const stored = await sql<{ id: number | string }>`
          with upd as (
            update messages m set state = 'failed', status_code = v.code, delivery_status = 'FAILED', error_code = v.err, worker_id = null,
                   done_at = ${now}, updated_at = ${now}
            from unnest(${failed.map((f) => f.row.id)}::bigint[], ${failed.map((f) => f.code)}::int[], ${failed.map((f) => f.error)}::text[]) as v(id, code, err)
            where m.id = v.id and ((m.state = 'sending' and m.worker_id = ${this.workerId}) or m.state = 'in_doubt')
            returning m.id, m.status_code),
          ev as (insert into message_events (message_id, at, state, delivery_status, status_code) select id, ${now}, 'failed', 'FAILED', status_code from upd)
          select id from upd`.execute(trx);
        const mine = new Set(stored.rows.map((r) => String(r.id)));
        for (const [companyId, list] of groupBy(failed.map((f) => f.row).filter((r) => mine.has(String(r.id))), (r) => r.company_id)) {
          await release(trx, { companyId, amount: sum(list, (r) => r.cost), messageCount: list.length, deploymentId: single(list), reference: 'refused by the provider', now });
        }
      }
    });
    if (fallback.length) await this.fallBack(fallback, now);
    this.stats.accepted += accepted.length;
    this.stats.retried += retry.length;
    this.stats.failed += failed.length;
    if (accepted.length) await reconcileOrphans(this.db, now);
  }

  /** RCS numbers that are not RCS-capable go by SMS on the company's fallback channel. */
  private async fallBack(rows: ClaimedRow[], now: Date): Promise<void> {
    for (const row of rows) {
      const target = await this.options.adapters.fallbackFor?.(row.company_id);
      await this.db.transaction().execute(async (trx) => {
        if (!target) {
          await sql`update messages set state = 'failed', status_code = ${STATUS.dispatchError}, delivery_status = 'FAILED', error_code = 'no-fallback', worker_id = null, done_at = ${now}, updated_at = ${now} where id = ${row.id} and state = 'sending'`.execute(trx);
          await release(trx, { companyId: row.company_id, amount: row.cost, messageCount: 1, now, reference: 'no SMS fallback channel' });
          return;
        }
        const priced = messageCost(target.platform, row.body ?? undefined);
        const extra = priced.cost - row.cost;
        // The SMS may cost more parts than the RCS message: hold the difference, or fail with 81.
        if (extra > 0) {
          const held = await reserve(trx, { companyId: row.company_id, amount: extra, messageCount: 0, reference: 'fallback to SMS costs more', now });
          if (!held) {
            await sql`update messages set state = 'rejected', status_code = ${STATUS.insufficientCredits}, worker_id = null, done_at = ${now}, updated_at = ${now} where id = ${row.id}`.execute(trx);
            await release(trx, { companyId: row.company_id, amount: row.cost, messageCount: 1, now });
            return;
          }
        } else if (extra < 0) {
          await release(trx, { companyId: row.company_id, amount: -extra, messageCount: 0, now, reference: 'fallback costs less' });
        }
        await sql`update messages set channel_id = ${target.id}, parts = ${priced.parts}, encoding = ${priced.encoding}, cost = ${priced.cost},
                  state = 'queued', worker_id = null, not_before = ${now}, held_reason = 'fallbackSms', updated_at = ${now}
                  where id = ${row.id}`.execute(trx);
        await sql`insert into message_events (message_id, at, state, detail) values (${row.id}, ${now}, 'queued', 'fallback to SMS')`.execute(trx);
      });
      this.stats.fellBack++;
    }
  }

  /**
   * Connects the adapters of channels with rows in doubt or waiting for their receipt. Receipts
   * are what tells whether an in-doubt row left (and what finishes a sent one), and an SMSC keeps
   * the receipts of a system_id while none of its sessions is bound, handing them over at the
   * next bind. Adapters connect lazily (at the first submit), so without this a worker restarted
   * with nothing left to send would never bind: the grace period would run out and messages that
   * did reach the handset would be sent a second time. One index probe per channel.
   */
  private async attachAwaiting(): Promise<void> {
    const channels = await sql<{ id: number }>`
      select c.id from channels c where c.enabled and (
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

  /**
   * Refreshes the planner's statistics of the messages table. PGlite has no autovacuum, and a
   * bulk enqueue adds 100,000 rows at once: with the old statistics the planner believes the table
   * is small and records each batch's answers and receipts by scanning every message (each batch
   * then costs more as the table grows). The first full batch refreshes them (they then know the
   * table's size, which is what the plans need), then every time the rows claimed since reach the
   * table's size (at least 5,000). On PostgreSQL this only comes earlier than autovacuum would.
   */
  private async refreshStatistics(): Promise<void> {
    this.sinceAnalyze = 0;
    try {
      await sql`analyze messages`.execute(this.db);
      const size = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = 'messages'::regclass`.execute(this.db);
      this.analyzeAfter = Math.max(5000, Math.round(size.rows[0]?.n ?? 0));
      this.stats.analyzed += 1;
    } catch (error) {
      this.options.log('could not refresh the statistics of messages', error);
    }
  }

  /** Heartbeat, dead workers' rows to in-doubt, in-doubt resolution, finished deployments. */
  async maintain(): Promise<void> {
    const now = this.options.now();
    await this.db.updateTable('engine_workers').set({ heartbeat_at: now }).where('id', '=', this.workerId).execute();
    const staleBefore = new Date(now.getTime() - this.options.leaseMs);
    const dead = await this.db.deleteFrom('engine_workers').where('heartbeat_at', '<', staleBefore).where('id', '<>', this.workerId).returning('id').execute();
    // Rows claimed by a worker that is gone (dead, or deleted above): they may have been sent.
    await sql`update messages set state = 'in_doubt', in_doubt_since = ${now}, worker_id = null, updated_at = ${now}
              where state = 'sending' and worker_id is not null and worker_id <> ${this.workerId}
                and not exists (select 1 from engine_workers w where w.id = messages.worker_id)`.execute(this.db);
    if (dead.length) this.options.log(`recovered the rows of ${dead.length} dead worker(s)`);
    await this.attachAwaiting();
    await reconcileOrphans(this.db, now);
    const expired = await this.db.deleteFrom('orphan_receipts').where('received_at', '<', new Date(now.getTime() - this.options.orphanTtlMs)).executeTakeFirst();
    if (Number(expired.numDeletedRows) > 0) this.options.log(`dropped ${expired.numDeletedRows} receipt(s) that matched no message within ${Math.round(this.options.orphanTtlMs / 3_600_000)} h`);
    const graceBefore = new Date(now.getTime() - this.options.inDoubtGraceMs);
    // A long message cut between parts goes again whole (its UDH reference changes, so the handset
    // never joins old and new parts); the receipts of its cut attempt's parts are dropped with it.
    const requeued = await sql<{ requeued: number; dropped: number }>`
      with rq as (
        update messages set state = 'queued', not_before = ${now}, in_doubt_since = null, held_reason = 'inDoubtResend', updated_at = ${now}
        where state = 'in_doubt' and in_doubt_since < ${graceBefore}
        returning id, channel_id, to_number, parts),
      gone as (
        delete from orphan_receipts o using rq
        where rq.parts > 1 and o.channel_id = rq.channel_id and o.destination = rq.to_number and o.user_reference = (rq.id % 65536)
        returning o.id)
      select (select count(*) from rq)::int as requeued, (select count(*) from gone)::int as dropped`.execute(this.db);
    const { requeued: again = 0, dropped = 0 } = requeued.rows[0] ?? {};
    if (dropped > 0) this.options.log(`dropped ${dropped} receipt(s) of long messages cut between parts, which go again whole`);
    if (again > 0) this.wake();
    // Scheduled deployments whose time came: their rows were queued with that not_before.
    await sql`update deployments set state = 'running', started_at = ${now}, updated_at = ${now}
              where state = 'scheduled' and scheduled_at <= ${now}`.execute(this.db);
    await sql`update deployments d set state = 'completed', finished_at = ${now}, updated_at = ${now}
              where d.state = 'running' and not exists (
                select 1 from messages m where m.deployment_id = d.id and m.state in ('queued', 'sending', 'in_doubt', 'paused'))`.execute(this.db);
  }
}

const sum = <T>(items: T[], f: (t: T) => number) => items.reduce((a, t) => a + f(t), 0);
/** The deployment of a batch when all its rows share one (the ledger row then names it). */
function single(rows: ClaimedRow[]): number | null {
  const ids = new Set(rows.map((r) => (r.deployment_id === null ? null : Number(r.deployment_id))));
  return ids.size === 1 ? [...ids][0] : null;
}
