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
import { groupBy } from './group-by.ts';
import { adoptInDoubt, recordReceiptProgress } from './lifecycle/in-doubt.ts';
import { deliveryRank } from './lifecycle/message-states.ts';
import { applyParts, applyStatuses, applyStatusesThrough, applyWatermarks, type Watermark } from './lifecycle/receipt.ts';
import type { Database } from './database.ts';
import { userReferenceSql } from './user-reference.ts';


/** Which of these ids are stored parts of long messages on the channel. */
async function storedParts(db: Kysely<Database>, channelId: number, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await sql<{ provider_part_id: string }>`
    select provider_part_id from message_parts where channel_id = ${channelId} and provider_part_id = any(${ids}::text[])`.execute(db);
  return new Set(rows.rows.map((r) => r.provider_part_id));
}

/** Watermarks wait as orphans without a provider id or user reference, keyed by the recipient. */
async function storeWatermarks(db: Kysely<Database>, channelId: number, marks: Watermark[], now: Date): Promise<void> {
  if (!marks.length) return;
  await db.insertInto('orphan_receipts').values(marks.map((m) => ({
    channel_id: channelId, provider_message_id: null, delivery_status: m.status, error_code: null, destination: m.recipient, user_reference: null, at: m.at, received_at: now, network: null,
  }))).execute();
}

const isWatermark = (e: StatusEvent): e is StatusEvent & { watermark: Date; recipient: string } => e.watermark !== undefined && !!e.recipient;

/** Keeps the highest-ranked event per provider id: one UPDATE … FROM may match a row only once. */
function collapse(events: StatusEvent[]): StatusEvent[] {
  const best = new Map<string, StatusEvent>();
  for (const e of events) {
    const seen = best.get(e.providerMessageId);
    if (!seen || deliveryRank(e.status) > deliveryRank(seen.status)) best.set(e.providerMessageId, { ...seen, ...e, destination: e.destination ?? seen?.destination, userReference: e.userReference ?? seen?.userReference, network: e.network ?? seen?.network });
  }
  return [...best.values()];
}

async function storeOrphans(db: Kysely<Database>, channelId: number, events: StatusEvent[], now: Date): Promise<void> {
  if (!events.length) return;
  await db.insertInto('orphan_receipts').values(events.map((e) => ({
    channel_id: channelId, provider_message_id: e.providerMessageId, delivery_status: e.status, error_code: e.errorCode ?? null,
    destination: e.destination ?? null, user_reference: e.userReference ?? null, at: e.at, received_at: now, network: e.network ?? null,
  }))).execute();
}

type OrphanRow = { provider_message_id: string; delivery_status: string; error_code: string | null; at: Date; network: string | null };
const orphanEvent = (r: OrphanRow): StatusEvent =>
  ({ providerMessageId: r.provider_message_id, status: r.delivery_status as StatusEvent['status'], errorCode: r.error_code ?? undefined, at: new Date(r.at), ...(r.network ? { network: r.network } : {}) });

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
      and ${userReferenceSql('m.id')} = o.user_reference
    where o.provider_message_id is not null and o.user_reference is not null and m.parts > 1 and m.provider_message_id is not null
      and m.state in ('sent', 'delivered', 'read', 'failed', 'unauthorized', 'timeout', 'undefined')
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
  const partReceipts = await sql<OrphanRow & { channel_id: number }>`
    delete from orphan_receipts o using message_parts p
    where o.channel_id = p.channel_id and o.provider_message_id = p.provider_part_id
    returning o.channel_id, o.provider_message_id, o.delivery_status, o.error_code, o.at, o.network`.execute(db);
  for (const [channelId, rows] of groupBy(partReceipts.rows, (r) => r.channel_id)) {
    await applyParts(db, channelId, collapse(rows.map(orphanEvent)), now);
  }
  // Adopted messages are now plain sent messages: put their receipts back through the normal path.
  // A long message's first part id is its provider id too: only its part row may take that receipt.
  const waiting = await sql<OrphanRow & { channel_id: number }>`
    delete from orphan_receipts o using messages m
    where o.channel_id = m.channel_id and o.provider_message_id = m.provider_message_id and m.parts <= 1
    returning o.channel_id, o.provider_message_id, o.delivery_status, o.error_code, o.at, o.network`.execute(db);
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
      let waitingMarks = 0;
      for (const [channelId, entries] of groupBy(batch, (b) => b.channelId)) {
        const all = entries.map((b) => b.event);
        const marks = all.filter(isWatermark).map((e) => ({ recipient: e.recipient, status: e.status, at: e.watermark }));
        const pendingMarks = await applyWatermarks(db, channelId, marks, at);
        await storeWatermarks(db, channelId, pendingMarks, at);
        waitingMarks += pendingMarks.length;
        const events = all.filter((e) => !isWatermark(e) && e.providerMessageId);
        if (!events.length) continue;
        // Receipts the adapter could not place: parts of stored long messages first.
        const unknown = collapse(events.filter((e) => e.scope === 'unknown'));
        const knownParts = await storedParts(db, channelId, unknown.map((e) => e.providerMessageId));
        const parts = collapse([...events.filter((e) => e.scope === 'part'), ...unknown.filter((e) => knownParts.has(e.providerMessageId))]);
        const singles = unknown.filter((e) => !knownParts.has(e.providerMessageId));
        const whole = collapse(events.filter((e) => e.scope === undefined));
        const matchedParts = await applyParts(db, channelId, parts, at);
        const wholes = await applyStatusesThrough(db, channelId, whole, at);
        const unplaced = await applyStatusesThrough(db, channelId, singles, at, true);
        const matched = new Set([...matchedParts, ...wholes.matched, ...unplaced.matched]);
        await storeOrphans(db, channelId, [...parts, ...whole, ...singles].filter((e) => !matched.has(e.providerMessageId)), at);
        // After the orphans: once this passes an in-doubt row, the receipt that names it is stored.
        const through = [wholes.claimedThrough, unplaced.claimedThrough].reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);
        await recordReceiptProgress(db, channelId, through, at);
      }
      // Watermarks stored to wait for an in-flight message: its submit answer may have been
      // recorded between our match and our store, and the dispatcher's reconcile after it may
      // have run before our store committed. Looking once more now means the mark does not wait
      // for the next maintenance round (a Messenger conversation's "read" showed late); if the
      // message is still in flight, the dispatcher's reconcile after its record sees our row.
      // (Receipts naming a message wait as before: their reconcile also adopts in-doubt rows,
      // which keeps its own pace.)
      if (waitingMarks) await reconcileOrphans(db, at);
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
