// Receipts and inbound messages on the database: the ReceiptSink every adapter reports to.
// Statuses are buffered and applied set-based (one statement per flush), monotonically: a late
// SENT never overwrites DELIVERED, a replayed webhook changes nothing. A receipt whose message
// does not carry the provider id yet (it arrived before the submit answer was stored, or its
// worker died in between) waits in orphan_receipts; reconcile() matches it later. Watermark
// receipts (Messenger: "everything sent to this person up to T was delivered/read") name no
// message: they apply to every message of the channel to that recipient claimed at or before the
// watermark, and wait as orphans too while such a message is still in flight.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { InboundEvent, ReceiptSink, StatusEvent } from './channel-adapter.ts';
import { consume } from './credits.ts';
import { groupBy } from './group-by.ts';
import { deliveryRank, deliveryRankSql, FINAL_DELIVERY_SQL, STATUS, stateForDeliverySql } from './message-states.ts';
import type { Database } from './database.ts';


/**
 * What every applied status change writes, as the last CTEs of its statement: the message's event
 * row and, for an API message whose company has a callback URL, the status callback to deliver.
 * `rows` names an earlier CTE with the changed messages' id, state, delivery_status, company_id
 * and source.
 */
function recordChanges(rows: 'changed' | 'upd', now: Date) {
  const r = sql.raw(rows);
  return sql`ev as (
      insert into message_events (message_id, at, state, delivery_status, detail)
      select ${r}.id, ${now}, ${r}.state, ${r}.delivery_status, 'receipt' from ${r}),
    cb as (
      insert into status_callbacks (company_id, message_id, url, payload, next_attempt_at, created_at)
      select ${r}.company_id, ${r}.id, s.callback_url,
             jsonb_build_object('id', ${r}.id::text, 'state', ${r}.state, 'deliveryStatus', ${r}.delivery_status, 'at', ${now}::timestamptz),
             ${now}, ${now}
      from ${r} join messaging_settings s on s.company_id = ${r}.company_id
      where ${r}.source = 'api' and s.callback_url is not null)`;
}

/**
 * Applies statuses to messages by (channel, provider id); answers the provider ids it matched.
 * `prior` finds each receipt's message, with its state before this statement, through the
 * provider-id index one receipt at a time: the lateral subquery with OFFSET 0 is not flattened
 * into a join that a planner without fresh statistics (PGlite has no autovacuum; a bulk enqueue
 * just added 100,000 rows) runs as a scan of every message of the channel on every flush.
 * A replayed or repeated receipt matches its message (it is no orphan) but changes nothing, and
 * then writes no event and queues no callback. `singlePartOnly` (receipts whose scope the adapter
 * could not tell) keeps a part's receipt from deciding a long message whose first part it names.
 */
async function applyStatuses(db: Kysely<Database>, channelId: number, events: StatusEvent[], now: Date, singlePartOnly = false): Promise<Set<string>> {
  if (!events.length) return new Set();
  const pids = events.map((e) => e.providerMessageId);
  const result = await sql<{ provider_message_id: string }>`
    with v as (
      select * from unnest(${pids}::text[], ${events.map((e) => e.status)}::text[], ${events.map((e) => e.errorCode ?? null)}::text[],
                           ${events.map((e) => e.at)}::timestamptz[]) as v(pid, st, err, at)),
    prior as (
      select m.id, m.state, m.delivery_status, v.pid, v.st, v.err, v.at from v
      cross join lateral (select x.id, x.state, x.delivery_status from messages x
                          where x.channel_id = ${channelId} and x.provider_message_id = v.pid ${singlePartOnly ? sql`and x.parts <= 1` : sql``} offset 0) m),
    upd as (
      update messages m set
        delivery_status = case when ${sql.raw(deliveryRankSql('v.st'))} > ${sql.raw(deliveryRankSql('m.delivery_status'))} then v.st else m.delivery_status end,
        state = case when m.state in ('sent', 'sending', 'in_doubt') or ${sql.raw(deliveryRankSql('v.st'))} > ${sql.raw(deliveryRankSql('m.delivery_status'))}
                     then ${sql.raw(stateForDeliverySql(`case when ${deliveryRankSql('v.st')} > ${deliveryRankSql('m.delivery_status')} then v.st else m.delivery_status end`))}
                     else m.state end,
        error_code = coalesce(v.err, m.error_code),
        done_at = case when v.st in ${sql.raw(FINAL_DELIVERY_SQL)} then coalesce(m.done_at, v.at) else m.done_at end,
        in_doubt_since = null,
        updated_at = ${now}
      from prior v where m.id = v.id
      returning m.id, m.provider_message_id, m.state, m.delivery_status, m.company_id, m.source),
    changed as (
      select upd.* from upd join prior on prior.id = upd.id
      where (prior.state, prior.delivery_status) is distinct from (upd.state, upd.delivery_status)),
    ${recordChanges('changed', now)}
    select provider_message_id from upd`.execute(db);
  return new Set(result.rows.map((r) => r.provider_message_id));
}

/**
 * Applies receipts of single parts of long SMS (scope 'part'), then decides their messages from
 * all their parts: FAILED as soon as a part failed, else, once every part has a final status,
 * DELIVERED when all were delivered, TIME_OUT when one expired, UNDEFINED otherwise. The decision
 * goes through applyStatuses under the message's provider id, so it is monotonic and writes the
 * event and callback like any receipt. A part keeps its first final status; an intermediate part
 * receipt changes nothing. Answers the part ids it matched.
 *
 * Two workers may each store a part of the same message at once: the part update locks the
 * message row first, so whichever decides last sees the other's part (a part stored inside a
 * longer transaction, reconcile, is then waited for, not missed).
 */
async function applyParts(db: Kysely<Database>, channelId: number, events: StatusEvent[], now: Date): Promise<Set<string>> {
  if (!events.length) return new Set();
  const matched = await sql<{ provider_part_id: string; message_id: string | number; final: boolean }>`
    with v as (
      select * from unnest(${events.map((e) => e.providerMessageId)}::text[], ${events.map((e) => e.status)}::text[],
                           ${events.map((e) => e.errorCode ?? null)}::text[], ${events.map((e) => e.at)}::timestamptz[]) as v(pid, st, err, at)),
    hit as (
      select p.provider_part_id, p.message_id, v.st, v.err, v.at from v
      join message_parts p on p.channel_id = ${channelId} and p.provider_part_id = v.pid),
    lk as (select m.id from messages m where m.id in (select message_id from hit) order by m.id for update of m),
    upd as (
      update message_parts p set delivery_status = hit.st, error_code = hit.err, at = hit.at
      from hit where p.channel_id = ${channelId} and p.provider_part_id = hit.provider_part_id and p.delivery_status is null
        and hit.st in ${sql.raw(FINAL_DELIVERY_SQL)} and exists (select 1 from lk where lk.id = p.message_id)
      returning p.provider_part_id)
    select hit.provider_part_id, hit.message_id, hit.st in ${sql.raw(FINAL_DELIVERY_SQL)} as final from hit`.execute(db);
  // Every message a final part receipt names is decided again, not only those whose part changed
  // now: a worker that died between storing a part and deciding its message left the decision to
  // the receipt the SMSC delivers again (unacknowledged), which finds its part already stored.
  // Deciding twice changes nothing (applyStatuses is monotonic).
  const touched = [...new Set(matched.rows.filter((r) => r.final).map((r) => String(r.message_id)))];
  if (touched.length) {
    const decided = await sql<{ provider_message_id: string; status: StatusEvent['status']; err: string | null; at: Date }>`
      select m.provider_message_id, d.status, d.err, d.at from messages m
      cross join lateral (
        select case when bool_or(p.delivery_status in ('FAILED', 'UNAUTHORIZED')) then 'FAILED'
                    when count(p.delivery_status) >= m.parts then
                      case when bool_and(p.delivery_status = 'DELIVERED') then 'DELIVERED'
                           when bool_or(p.delivery_status = 'TIME_OUT') then 'TIME_OUT' else 'UNDEFINED' end
               end as status,
               min(p.error_code) filter (where p.delivery_status <> 'DELIVERED') as err,
               max(p.at) as at
        from message_parts p where p.message_id = m.id) d
      where m.id = any(${touched}::bigint[]) and m.provider_message_id is not null and d.status is not null`.execute(db);
    const verdicts = decided.rows.map((r): StatusEvent => ({ providerMessageId: r.provider_message_id, status: r.status, ...(r.err ? { errorCode: r.err } : {}), at: new Date(r.at) }));
    await applyStatuses(db, channelId, verdicts, now);
  }
  return new Set(matched.rows.map((r) => r.provider_part_id));
}

/** Which of these ids are stored parts of long messages on the channel. */
async function storedParts(db: Kysely<Database>, channelId: number, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await sql<{ provider_part_id: string }>`
    select provider_part_id from message_parts where channel_id = ${channelId} and provider_part_id = any(${ids}::text[])`.execute(db);
  return new Set(rows.rows.map((r) => r.provider_part_id));
}

type Watermark = { recipient: string; status: string; at: Date };

/**
 * Applies watermark receipts set-based: every message of the channel to `recipient` that has a
 * provider id and was claimed (handed to the provider) at or before the watermark rises to the
 * status, never down. Answers the receipts that must wait: a message to that recipient claimed
 * before the watermark is still in flight (its answer is not stored yet).
 */
async function applyWatermarks(db: Kysely<Database>, channelId: number, marks: Watermark[], now: Date): Promise<Watermark[]> {
  if (!marks.length) return [];
  const v = sql`unnest(${marks.map((m) => m.recipient)}::text[], ${marks.map((m) => m.status)}::text[], ${marks.map((m) => m.at)}::timestamptz[]) as v(recipient, st, wm)`;
  // The company's id lets the (company_id, to_number, created_at) index find the recipient's messages.
  const company = sql`(select company_id from channels where id = ${channelId})`;
  // Which marks must also wait is read BEFORE the update: a message that turns from sending to
  // sent between the two statements is then either updated now or kept for later, never missed
  // (applying a mark twice changes nothing: statuses only rise).
  const pending = await sql<{ recipient: string; st: string; wm: Date }>`
    select v.recipient, v.st, v.wm from ${v}
    where exists (select 1 from messages m where m.company_id = ${company} and m.channel_id = ${channelId} and m.to_number = v.recipient
                  and m.state in ('sending', 'in_doubt') and m.claimed_at <= v.wm)`.execute(db);
  await sql`
    with w as (
      select distinct on (m.id) m.id, v.st, v.wm from ${v} join messages m on m.to_number = v.recipient
      where m.company_id = ${company} and m.channel_id = ${channelId} and m.provider_message_id is not null and m.claimed_at <= v.wm
        and ${sql.raw(deliveryRankSql('v.st'))} > ${sql.raw(deliveryRankSql('m.delivery_status'))}
      order by m.id, ${sql.raw(deliveryRankSql('v.st'))} desc),
    upd as (
      update messages m set delivery_status = w.st, state = ${sql.raw(stateForDeliverySql('w.st'))},
        done_at = case when w.st in ${sql.raw(FINAL_DELIVERY_SQL)} then coalesce(m.done_at, w.wm) else m.done_at end,
        in_doubt_since = null, updated_at = ${now}
      from w where m.id = w.id
      returning m.id, m.state, m.delivery_status, m.company_id, m.source),
    ${recordChanges('upd', now)}
    select count(*) from upd`.execute(db);
  return pending.rows.map((r) => ({ recipient: r.recipient, status: r.st, at: new Date(r.wm) }));
}

/** Watermarks wait as orphans without a provider id or user reference, keyed by the recipient. */
async function storeWatermarks(db: Kysely<Database>, channelId: number, marks: Watermark[], now: Date): Promise<void> {
  if (!marks.length) return;
  await db.insertInto('orphan_receipts').values(marks.map((m) => ({
    channel_id: channelId, provider_message_id: null, delivery_status: m.status, error_code: null, destination: m.recipient, user_reference: null, at: m.at, received_at: now,
  }))).execute();
}

const isWatermark = (e: StatusEvent): e is StatusEvent & { watermark: Date; recipient: string } => e.watermark !== undefined && !!e.recipient;

/** Keeps the highest-ranked event per provider id: one UPDATE … FROM may match a row only once. */
function collapse(events: StatusEvent[]): StatusEvent[] {
  const best = new Map<string, StatusEvent>();
  for (const e of events) {
    const seen = best.get(e.providerMessageId);
    if (!seen || deliveryRank(e.status) > deliveryRank(seen.status)) best.set(e.providerMessageId, { ...seen, ...e, destination: e.destination ?? seen?.destination, userReference: e.userReference ?? seen?.userReference });
  }
  return [...best.values()];
}

async function storeOrphans(db: Kysely<Database>, channelId: number, events: StatusEvent[], now: Date): Promise<void> {
  if (!events.length) return;
  await db.insertInto('orphan_receipts').values(events.map((e) => ({
    channel_id: channelId, provider_message_id: e.providerMessageId, delivery_status: e.status, error_code: e.errorCode ?? null,
    destination: e.destination ?? null, user_reference: e.userReference ?? null, at: e.at, received_at: now,
  }))).execute();
}

/**
 * An in-doubt message (its worker died between handing it to the provider and storing the
 * answer) that a waiting receipt names by destination and user_message_reference did leave (a
 * long one when receipts name as many parts as it has: a worker that died between two parts left
 * a cut message, which is sent again whole after the grace period, see Dispatcher.maintain): it
 * takes the receipt's provider id, becomes sent, and its credits are consumed (its worker
 * never got to record it, so nobody else will). The receipt itself stays
 * in orphan_receipts: the next step of reconcileOrphans applies it by the provider id just set
 * (a DELIVERED receipt makes the message delivered, not just sent).
 */
async function adoptInDoubt(trx: Transaction<Database>, now: Date): Promise<number> {
  // `m.state = 'in_doubt'` in the UPDATE itself: PostgreSQL re-checks it on a row another
  // worker's reconcile adopted meanwhile, so a message is adopted (and billed) once.
  const rows = await sql<{ id: number | string; company_id: number; deployment_id: number | string | null; cost: number; was_billed: boolean }>`
    with cand as (
      select m.id as mid, m.parts, o.id as oid, o.provider_message_id from orphan_receipts o
      join messages m on m.state = 'in_doubt' and o.channel_id = m.channel_id and o.destination = m.to_number and o.user_reference = (m.id % 65536)
      where o.provider_message_id is not null),
    pick as (
      select mid, (array_agg(provider_message_id order by oid))[1] as provider_message_id from cand
      group by mid, parts having count(distinct provider_message_id) >= greatest(parts, 1)),
    upd as (
      update messages m set provider_message_id = pick.provider_message_id, state = 'sent', status_code = ${STATUS.success},
             delivery_status = coalesce(m.delivery_status, 'SENT'), sent_at = coalesce(m.sent_at, ${now}), billed = true,
             in_doubt_since = null, updated_at = ${now}
      from pick, messages prev
      where m.id = pick.mid and prev.id = m.id and m.state = 'in_doubt'
      returning m.id, m.company_id, m.deployment_id, m.cost, prev.billed as was_billed),
    ev as (
      insert into message_events (message_id, at, state, delivery_status, status_code, detail)
      select id, ${now}, 'sent', 'SENT', ${STATUS.success}, 'in doubt: its receipt names it' from upd)
    select * from upd`.execute(trx);
  const unbilled = rows.rows.filter((r) => !r.was_billed);
  const groups = new Map<string, typeof unbilled>();
  for (const r of unbilled) {
    const key = `${r.company_id}|${r.deployment_id ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const list of groups.values()) {
    const first = list[0];
    await consume(trx, {
      companyId: first.company_id, amount: list.reduce((a, r) => a + Number(r.cost), 0), messageCount: list.length,
      deploymentId: first.deployment_id === null ? null : Number(first.deployment_id), reference: 'sent before its worker died', now,
    });
  }
  return rows.rows.length;
}

const orphanEvent = (r: { provider_message_id: string; delivery_status: string; error_code: string | null; at: Date }): StatusEvent =>
  ({ providerMessageId: r.provider_message_id, status: r.delivery_status as StatusEvent['status'], errorCode: r.error_code ?? undefined, at: new Date(r.at) });

/**
 * The parts of a long message that left in doubt (its worker died before storing the submit
 * answers, so no part id is stored) are known only by their receipts, which name the destination
 * and the user_message_reference: the receipts of such a message, once it is adopted, become its
 * part rows (as many as it has parts). The orphans are found through the channel's company, so
 * the (company_id, to_number, created_at) index finds the recipient's messages.
 */
async function claimParts(db: Transaction<Database>): Promise<void> {
  await sql`
    insert into message_parts (channel_id, provider_part_id, message_id)
    select distinct on (o.channel_id, o.provider_message_id) o.channel_id, o.provider_message_id, m.id
    from orphan_receipts o
    join channels c on c.id = o.channel_id
    join messages m on m.company_id = c.company_id and m.to_number = o.destination and m.channel_id = o.channel_id
      and (m.id % 65536) = o.user_reference
    where o.provider_message_id is not null and o.user_reference is not null and m.parts > 1 and m.provider_message_id is not null
      and m.state in ('sent', 'delivered', 'read', 'failed', 'timeout', 'undefined')
      and (select count(*) from message_parts p where p.message_id = m.id) < m.parts
    order by o.channel_id, o.provider_message_id, m.id desc
    on conflict do nothing`.execute(db);
}

/**
 * Matches waiting receipts to messages that now carry their provider id, and receipts of in-doubt
 * messages (worker died before storing the submit answer) by destination and the 16-bit
 * user_message_reference we sent. Answers how many receipts it applied.
 * One transaction: a receipt taken out of orphan_receipts is applied in the same commit, so a
 * worker killed between the two steps loses no receipt (and adopts no message without its bill).
 */
export async function reconcileOrphans(db: Kysely<Database>, now: Date): Promise<number> {
  // It runs after every recorded batch: one cheap look first (an orphan stored just after it
  // waits for the next run, at the latest the next maintenance round).
  const any = await sql<{ found: boolean }>`select exists (select 1 from orphan_receipts) as found`.execute(db);
  if (!any.rows[0]?.found) return 0;
  return db.transaction().execute((trx) => reconcileIn(trx, now));
}

async function reconcileIn(db: Transaction<Database>, now: Date): Promise<number> {
  const adopted = await adoptInDoubt(db, now);
  await claimParts(db);
  // Receipts of parts, now that their parts are stored.
  const partReceipts = await sql<{ channel_id: number; provider_message_id: string; delivery_status: string; error_code: string | null; at: Date }>`
    delete from orphan_receipts o using message_parts p
    where o.channel_id = p.channel_id and o.provider_message_id = p.provider_part_id
    returning o.channel_id, o.provider_message_id, o.delivery_status, o.error_code, o.at`.execute(db);
  for (const [channelId, rows] of groupBy(partReceipts.rows, (r) => r.channel_id)) {
    await applyParts(db, channelId, collapse(rows.map(orphanEvent)), now);
  }
  // Adopted messages are now plain sent messages: put their receipts back through the normal path.
  // A long message's first part id is its provider id too: only its part row may take that receipt.
  const waiting = await sql<{ channel_id: number; provider_message_id: string; delivery_status: string; error_code: string | null; at: Date }>`
    delete from orphan_receipts o using messages m
    where o.channel_id = m.channel_id and o.provider_message_id = m.provider_message_id and m.parts <= 1
    returning o.channel_id, o.provider_message_id, o.delivery_status, o.error_code, o.at`.execute(db);
  for (const [channelId, rows] of groupBy(waiting.rows, (r) => r.channel_id)) {
    await applyStatuses(db, channelId, collapse(rows.map(orphanEvent)), now);
  }
  // Watermarks whose in-flight messages have their answers now.
  const marks = await sql<{ channel_id: number; destination: string; delivery_status: string; at: Date }>`
    delete from orphan_receipts o
    where o.provider_message_id is null and o.user_reference is null and o.destination is not null
      and not exists (select 1 from messages m where m.channel_id = o.channel_id and m.to_number = o.destination and m.state in ('sending', 'in_doubt') and m.claimed_at <= o.at)
    returning o.channel_id, o.destination, o.delivery_status, o.at`.execute(db);
  for (const [channelId, rows] of groupBy(marks.rows, (r) => r.channel_id)) {
    const list: Watermark[] = rows.map((r) => ({ recipient: r.destination, status: r.delivery_status, at: new Date(r.at) }));
    await storeWatermarks(db, channelId, await applyWatermarks(db, channelId, list, now), now);
  }
  return adopted + partReceipts.rows.length + waiting.rows.length + marks.rows.length;
}

export interface InboundRouter {
  /** Called after an inbound message is stored (keyword routing, SALIR/CANCELAR, flows). */
  route(channelId: number, event: InboundEvent, inboundId: number): Promise<void>;
}

export interface DatabaseSinkOptions {
  db: Kysely<Database>;
  now?: () => Date;
  /** Flush after this many buffered statuses, or this many milliseconds after the first when no
   *  flush is being written (default 0: the next turn of the event loop); during a flush, statuses
   *  wait for it and go together in the next. */
  maxBuffer?: number;
  flushMs?: number;
  inbound?: (channelId: number, event: InboundEvent) => Promise<void>;
}

export interface DatabaseSink extends ReceiptSink {
  /** Writes everything buffered; resolves when it is stored. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The sink adapters report to. status() resolves only when the status is stored, so an adapter
 * that acknowledges a receipt after awaiting it never loses one in a crash.
 */
export function databaseSink(options: DatabaseSinkOptions): DatabaseSink {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const maxBuffer = options.maxBuffer ?? 1000;
  const flushMs = options.flushMs ?? 0;
  let buffer: { channelId: number; event: StatusEvent; done: () => void; fail: (e: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  let writing = false;

  const write = async (batch: typeof buffer) => {
    try {
      const at = now();
      for (const [channelId, entries] of groupBy(batch, (b) => b.channelId)) {
        const all = entries.map((b) => b.event);
        const marks = all.filter(isWatermark).map((e) => ({ recipient: e.recipient, status: e.status, at: e.watermark }));
        await storeWatermarks(db, channelId, await applyWatermarks(db, channelId, marks, at), at);
        const events = all.filter((e) => !isWatermark(e) && e.providerMessageId);
        if (!events.length) continue;
        // Receipts the adapter could not place: parts of stored long messages first.
        const unknown = collapse(events.filter((e) => e.scope === 'unknown'));
        const knownParts = await storedParts(db, channelId, unknown.map((e) => e.providerMessageId));
        const parts = collapse([...events.filter((e) => e.scope === 'part'), ...unknown.filter((e) => knownParts.has(e.providerMessageId))]);
        const singles = unknown.filter((e) => !knownParts.has(e.providerMessageId));
        const whole = collapse(events.filter((e) => e.scope === undefined));
        const matched = new Set([
          ...(await applyParts(db, channelId, parts, at)),
          ...(await applyStatuses(db, channelId, whole, at)),
          ...(await applyStatuses(db, channelId, singles, at, true)),
        ]);
        await storeOrphans(db, channelId, [...parts, ...whole, ...singles].filter((e) => !matched.has(e.providerMessageId)), at);
      }
      for (const b of batch) b.done();
    } catch (error) {
      for (const b of batch) b.fail(error);
    }
  };

  // Group commit: while a flush is being written, new statuses gather and go in the next flush
  // the moment it ends (no timer). An SMSC sends a window of receipts and waits for their
  // acknowledgements, which wait for the store: waiting on a timer between flushes would cap
  // the receipt rate at one window per timer period, and a growing backlog at the SMSC is what a
  // restarted worker would then have to read through before its in-doubt rows run out of grace.
  const flushNow = (): Promise<void> => {
    if (timer) { clearTimeout(timer); timer = null; }
    const batch = buffer;
    buffer = [];
    if (!batch.length) return chain;
    writing = true;
    // Flushes run one after another so a later status never races an earlier one.
    const mine = (chain = chain.then(() => write(batch)));
    void mine.then(() => {
      if (chain !== mine) return; // a later flush is queued behind this one
      writing = false;
      if (buffer.length) void flushNow();
    });
    return mine;
  };

  return {
    status(channelId, event) {
      return new Promise<void>((resolve, reject) => {
        buffer.push({ channelId, event, done: resolve, fail: reject });
        if (buffer.length >= maxBuffer) void flushNow();
        else if (!writing && !timer) timer = setTimeout(() => void flushNow(), flushMs);
      });
    },
    async inbound(channelId, event) {
      await options.inbound?.(channelId, event);
    },
    flush: flushNow,
    async close() {
      await flushNow();
    },
  };
}
