// In-doubt recovery (ARCHITECTURE 5): a message whose worker died after handing it to the channel
// may have left. Its rows go 'in_doubt' (the worker's own restart, or another worker finding its
// heartbeat stale); a receipt that names one adopts it as sent; one that no receipt names within
// the grace period expires and is queued to go again. Each change with its SQL.
import { sql, type Kysely, type Transaction } from 'kysely';
import { consume } from '../credits.ts';
import type { Database } from '../database.ts';
import { STATUS } from './message-states.ts';
import { userReferenceSql } from '../user-reference.ts';

/**
 * A restart under the same worker id (a supervisor restarting a named worker within its lease):
 * rows still 'sending' under this id were claimed by the previous life, since this one has
 * claimed nothing yet. Its heartbeat row was just renewed, so no other worker will ever find them
 * dead: they go in doubt here, exactly as a dead worker's rows do.
 */
export async function markOwnRowsInDoubt(db: Kysely<Database>, workerId: string, now: Date): Promise<void> {
  await sql`update messages set state = 'in_doubt', in_doubt_since = ${now}, worker_id = null, updated_at = ${now}
            where state = 'sending' and worker_id = ${workerId}`.execute(db);
}

/**
 * Rows this live worker claimed but holds in no batch any more (`inFlight` are those it does): a
 * batch that failed after its claim (the connection dropped, the claim's commit answer or the
 * record of the submit answers was lost, a deadlock) left them 'sending' under a heartbeat that
 * stays fresh, so no other worker would ever recover them. They may have been submitted, so
 * they go in doubt like a dead worker's rows; their receipts adopt those that left. Only rows
 * claimed before `claimedBefore` (a lease ago): a claim that committed but whose rows are not
 * yet in `inFlight` is younger; were one older, the fencing check before the submit
 * (stillClaimed) keeps it from going out.
 */
export async function markStrandedRowsInDoubt(db: Kysely<Database>, workerId: string, inFlight: readonly string[], claimedBefore: Date, now: Date): Promise<number> {
  const result = await sql`update messages set state = 'in_doubt', in_doubt_since = ${now}, worker_id = null, updated_at = ${now}
            where state = 'sending' and worker_id = ${workerId} and claimed_at < ${claimedBefore}
              and not (id = any(${inFlight}::bigint[]))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Rows claimed by a worker that is gone (dead, or its heartbeat row deleted as stale): they may have been sent. */
export async function markDeadWorkersRowsInDoubt(db: Kysely<Database>, workerId: string, now: Date): Promise<void> {
  await sql`update messages set state = 'in_doubt', in_doubt_since = ${now}, worker_id = null, updated_at = ${now}
            where state = 'sending' and worker_id is not null and worker_id <> ${workerId}
              and not exists (select 1 from engine_workers w where w.id = messages.worker_id)`.execute(db);
}

/**
 * How long an in-doubt row may wait for receipts to pass it (default ten minutes, the old fixed
 * grace): an SMSC that stopped sending receipts, or a channel whose older messages never get one
 * (a handset off for days), would otherwise hold it for ever.
 */
export const IN_DOUBT_MAX_MS = 10 * 60_000;

/**
 * Receipts may come this much out of the order their messages were handed over (an SMSC's
 * window, its own delays, the parts of a batch): a receipt of a message claimed within it says
 * nothing yet, and a channel whose receipts stopped coming this long ago has sent what it had.
 */
export const RECEIPT_ORDER_SLACK_MS = 5_000;

/**
 * Notes how far the channel's receipts have come: the latest claim time among the messages these
 * receipts named (the receipt statement answers it: applyStatusesThrough), and that receipts came
 * now. Written by the receipt sink after it stored them (its orphans too), so a receipt that would
 * have named an in-doubt row claimed earlier is stored before this passes it.
 */
export async function recordReceiptProgress(db: Kysely<Database>, channelId: number, claimedThrough: Date | null, now: Date): Promise<void> {
  await sql`
    insert into receipt_progress (channel_id, through, received_at)
    values (${channelId}, ${claimedThrough}::timestamptz, ${now}::timestamptz)
    on conflict (channel_id) do update set received_at = excluded.received_at,
      through = case when receipt_progress.through is null or receipt_progress.through < excluded.through then excluded.through else receipt_progress.through end`.execute(db);
}

export type InDoubtExpiry = {
  /** Rows in doubt since before this waited their grace. */
  graceBefore: Date;
  /** Rows in doubt since before this go again whatever the receipts say (IN_DOUBT_MAX_MS). */
  maxBefore: Date;
  now: Date;
};

/**
 * Expiry: an in-doubt row goes again when it has waited its grace, no waiting receipt names it,
 * (a single-part one: its receipt stored meanwhile is adopted by the next reconcile instead),
 * and the channel's receipts have passed it: a receipt was stored for a message claimed after it
 * (beyond the slack), or nothing claimed before it still waits for a receipt and none came for
 * the slack (the last receipt of a backlog is followed by those just behind it, an SMSC's delays
 * apart; the crash test's last kill, after the final submit, found that). A restarted worker
 * reads what the SMSC kept behind everything queued before it, and a grace that ran out in that
 * backlog sent messages a second time that had reached the SMSC (the crash test: 2,557 of 100,000
 * under load). After `maxBefore` the receipts are no longer waited for.
 * A long message cut between parts goes again whole (its UDH reference changes, so the handset
 * never joins old and new parts); the receipts of its cut attempt's parts are dropped with it.
 */
export async function resendExpiredInDoubt(db: Kysely<Database>, expiry: InDoubtExpiry): Promise<{ requeued: number; dropped: number }> {
  const { graceBefore, maxBefore, now } = expiry;
  const slack = sql`${RECEIPT_ORDER_SLACK_MS} * interval '1 millisecond'`;
  const result = await sql<{ requeued: number; dropped: number }>`
    with ch as (
      select d.channel_id,
        p.through, coalesce(p.received_at < ${now}::timestamptz - ${slack}, true) as quiet,
        (select min(s.claimed_at) from messages s where s.channel_id = d.channel_id and s.state = 'sent') as oldest_awaiting
      from (select distinct channel_id from messages where state = 'in_doubt' and in_doubt_since < ${graceBefore}) d
      left join receipt_progress p on p.channel_id = d.channel_id),
    rq as (
      update messages m set state = 'queued', not_before = ${now}, in_doubt_since = null, held_reason = 'inDoubtResend', updated_at = ${now}
      from ch
      where m.channel_id = ch.channel_id and m.state = 'in_doubt' and m.in_doubt_since < ${graceBefore}
        and (m.in_doubt_since < ${maxBefore} or m.claimed_at is null
             or ch.through > m.claimed_at + ${slack}
             or (ch.quiet and (ch.oldest_awaiting is null or ch.oldest_awaiting > m.claimed_at + ${slack})))
        and (m.parts > 1 or not exists (select 1 from orphan_receipts o where o.channel_id = m.channel_id and o.destination = m.to_number
                          and o.user_reference = ${userReferenceSql('m.id')} and o.provider_message_id is not null))
      returning m.id, m.channel_id, m.to_number, m.parts),
    gone as (
      delete from orphan_receipts o using rq
      where rq.parts > 1 and o.channel_id = rq.channel_id and o.destination = rq.to_number and o.user_reference = ${userReferenceSql('rq.id')}
      returning o.id)
    select (select count(*) from rq)::int as requeued, (select count(*) from gone)::int as dropped`.execute(db);
  const { requeued = 0, dropped = 0 } = result.rows[0] ?? {};
  return { requeued, dropped };
}

/**
 * An in-doubt message (its worker died between handing it to the provider and storing the
 * answer) that a waiting receipt names by destination and user_message_reference did leave (a
 * long one when receipts name as many parts as it has: a worker that died between two parts left
 * a cut message, which is sent again whole after the grace period, see resendExpiredInDoubt): it
 * takes the receipt's provider id, becomes sent, and its credits are consumed (its worker
 * never got to record it, so nobody else will). The receipt itself stays
 * in orphan_receipts: the next step of reconcileOrphans applies it by the provider id just set
 * (a DELIVERED receipt makes the message delivered, not just sent).
 */
export async function adoptInDoubt(trx: Transaction<Database>, now: Date): Promise<number> {
  // `m.state = 'in_doubt'` in the UPDATE itself: PostgreSQL re-checks it on a row another
  // worker's reconcile adopted meanwhile, so a message is adopted (and billed) once.
  const rows = await sql<{ id: number | string; company_id: number; channel_id: number; deployment_id: number | string | null; cost: number; was_billed: boolean }>`
    with cand as (
      select m.id as mid, m.parts, o.id as oid, o.provider_message_id from orphan_receipts o
      join messages m on m.state = 'in_doubt' and o.channel_id = m.channel_id and o.destination = m.to_number and o.user_reference = ${userReferenceSql('m.id')}
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
      returning m.id, m.company_id, m.channel_id, m.deployment_id, m.cost, prev.billed as was_billed),
    ev as (
      insert into message_events (message_id, at, state, delivery_status, status_code, detail)
      select id, ${now}, 'sent', 'SENT', ${STATUS.success}, 'in doubt: its receipt names it' from upd)
    select * from upd`.execute(trx);
  const unbilled = rows.rows.filter((r) => !r.was_billed);
  const groups = new Map<string, typeof unbilled>();
  for (const r of unbilled) {
    const key = `${r.company_id}|${r.channel_id}|${r.deployment_id ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const list of groups.values()) {
    const first = list[0];
    await consume(trx, {
      companyId: first.company_id, channelId: first.channel_id, amount: list.reduce((a, r) => a + Number(r.cost), 0), messageCount: list.length,
      deploymentId: first.deployment_id === null ? null : Number(first.deployment_id), reference: 'sent before its worker died', now,
    });
  }
  return rows.rows.length;
}
