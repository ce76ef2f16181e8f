// Receipts change messages (ARCHITECTURE 5): the network's statuses, applied set-based and
// monotonically (a late SENT never overwrites DELIVERED, a replayed webhook changes nothing), to
// messages found by provider id (applyStatuses), to long SMS through their parts (applyParts), and
// to every message to a recipient up to a watermark (applyWatermarks). Every change they make
// writes the message's event and, for API messages, its status callback (recordChanges). The
// receipt sink (../receipts.ts) buffers, routes and keeps what matches nothing for later.
import { sql, type Kysely } from 'kysely';
import type { StatusEvent } from '../channel-adapter.ts';
import type { Database } from '../database.ts';
import { deliveryRankSql, FINAL_DELIVERY_SQL, stateForDeliverySql, statusCodeForDeliverySql } from './message-states.ts';

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
export async function applyStatuses(db: Kysely<Database>, channelId: number, events: StatusEvent[], now: Date, singlePartOnly = false): Promise<Set<string>> {
  return (await applyStatusesThrough(db, channelId, events, now, singlePartOnly)).matched;
}

/** What a flush of receipts matched, and the latest claim among their messages (how far the channel's receipts have come). */
export interface AppliedStatuses { matched: Set<string>; claimedThrough: Date | null }

/** applyStatuses, answering also the latest claim time of the messages matched (the receipt sink's progress). */
export async function applyStatusesThrough(db: Kysely<Database>, channelId: number, events: StatusEvent[], now: Date, singlePartOnly = false): Promise<AppliedStatuses> {
  if (!events.length) return { matched: new Set(), claimedThrough: null };
  const pids = events.map((e) => e.providerMessageId);
  const result = await sql<{ provider_message_id: string; claimed_at: Date | string | null }>`
    with v as (
      select * from unnest(${pids}::text[], ${events.map((e) => e.status)}::text[], ${events.map((e) => e.errorCode ?? null)}::text[],
                           ${events.map((e) => e.at)}::timestamptz[], ${events.map((e) => e.network ?? null)}::text[]) as v(pid, st, err, at, net)),
    prior as (
      select m.id, m.state, m.delivery_status, v.pid, v.st, v.err, v.at, v.net from v
      cross join lateral (select x.id, x.state, x.delivery_status from messages x
                          where x.channel_id = ${channelId} and x.provider_message_id = v.pid ${singlePartOnly ? sql`and x.parts <= 1` : sql``} offset 0) m),
    upd as (
      update messages m set
        delivery_status = case when ${sql.raw(deliveryRankSql('v.st'))} > ${sql.raw(deliveryRankSql('m.delivery_status'))} then v.st else m.delivery_status end,
        state = case when m.state in ('sent', 'sending', 'in_doubt') or ${sql.raw(deliveryRankSql('v.st'))} > ${sql.raw(deliveryRankSql('m.delivery_status'))}
                     then ${sql.raw(stateForDeliverySql(`case when ${deliveryRankSql('v.st')} > ${deliveryRankSql('m.delivery_status')} then v.st else m.delivery_status end`))}
                     else m.state end,
        status_code = case when ${sql.raw(deliveryRankSql('v.st'))} > ${sql.raw(deliveryRankSql('m.delivery_status'))}
                           then ${sql.raw(statusCodeForDeliverySql('v.st', 'm.status_code'))} else m.status_code end,
        error_code = coalesce(v.err, m.error_code),
        network = coalesce(v.net, m.network),
        done_at = case when v.st in ${sql.raw(FINAL_DELIVERY_SQL)} then coalesce(m.done_at, v.at) else m.done_at end,
        in_doubt_since = null,
        updated_at = ${now}
      from prior v where m.id = v.id
      returning m.id, m.provider_message_id, m.state, m.delivery_status, m.company_id, m.source, m.claimed_at),
    changed as (
      select upd.* from upd join prior on prior.id = upd.id
      where (prior.state, prior.delivery_status) is distinct from (upd.state, upd.delivery_status)),
    ${recordChanges('changed', now)}
    select provider_message_id, claimed_at from upd`.execute(db);
  let claimedThrough: Date | null = null;
  for (const r of result.rows) if (r.claimed_at && (!claimedThrough || new Date(r.claimed_at) > claimedThrough)) claimedThrough = new Date(r.claimed_at);
  return { matched: new Set(result.rows.map((r) => r.provider_message_id)), claimedThrough };
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
export async function applyParts(db: Kysely<Database>, channelId: number, events: StatusEvent[], now: Date): Promise<Set<string>> {
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
    const decided = await sql<{ message_id: string | number; provider_message_id: string; status: StatusEvent['status']; err: string | null; at: Date }>`
      select m.id as message_id, m.provider_message_id, d.status, d.err, d.at from messages m
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
    // The serving network a part's receipt named is the message's (every part goes to one handset).
    const networkOfPart = new Map(events.filter((e) => e.network).map((e) => [e.providerMessageId, e.network]));
    const networkOfMessage = new Map(matched.rows.filter((r) => networkOfPart.has(r.provider_part_id)).map((r) => [String(r.message_id), networkOfPart.get(r.provider_part_id)]));
    const verdicts = decided.rows.map((r): StatusEvent => {
      const network = networkOfMessage.get(String(r.message_id));
      return { providerMessageId: r.provider_message_id, status: r.status, ...(r.err ? { errorCode: r.err } : {}), at: new Date(r.at), ...(network ? { network } : {}) };
    });
    await applyStatuses(db, channelId, verdicts, now);
  }
  return new Set(matched.rows.map((r) => r.provider_part_id));
}

export type Watermark = { recipient: string; status: string; at: Date };

/**
 * Applies watermark receipts set-based: every message of the channel to `recipient` that has a
 * provider id and was claimed (handed to the provider) at or before the watermark rises to the
 * status, never down. Answers the receipts that must wait: a message to that recipient claimed
 * before the watermark is still in flight (its answer is not stored yet).
 */
export async function applyWatermarks(db: Kysely<Database>, channelId: number, marks: Watermark[], now: Date): Promise<Watermark[]> {
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
        status_code = ${sql.raw(statusCodeForDeliverySql('w.st', 'm.status_code'))},
        done_at = case when w.st in ${sql.raw(FINAL_DELIVERY_SQL)} then coalesce(m.done_at, w.wm) else m.done_at end,
        in_doubt_since = null, updated_at = ${now}
      from w where m.id = w.id
      returning m.id, m.state, m.delivery_status, m.company_id, m.source),
    ${recordChanges('upd', now)}
    select count(*) from upd`.execute(db);
  return pending.rows.map((r) => ({ recipient: r.recipient, status: r.st, at: new Date(r.wm) }));
}
