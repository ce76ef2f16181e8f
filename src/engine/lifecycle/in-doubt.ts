// In-doubt recovery (ARCHITECTURE 5): a message whose worker died after handing it to the channel
// may have left. Its rows go 'in_doubt' (the worker's own restart, or another worker finding its
// heartbeat stale); a receipt that names one adopts it as sent; one that no receipt names within
// the grace period expires and is queued to go again. Each change with its SQL.
import { sql, type Kysely, type Transaction } from 'kysely';
import { consume } from '../credits.ts';
import type { Database } from '../database.ts';
import { STATUS } from './message-states.ts';

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

/** Rows claimed by a worker that is gone (dead, or its heartbeat row deleted as stale): they may have been sent. */
export async function markDeadWorkersRowsInDoubt(db: Kysely<Database>, workerId: string, now: Date): Promise<void> {
  await sql`update messages set state = 'in_doubt', in_doubt_since = ${now}, worker_id = null, updated_at = ${now}
            where state = 'sending' and worker_id is not null and worker_id <> ${workerId}
              and not exists (select 1 from engine_workers w where w.id = messages.worker_id)`.execute(db);
}

/**
 * Expiry: in-doubt rows that no receipt named before `graceBefore` are queued to go again. A long
 * message cut between parts goes again whole (its UDH reference changes, so the handset never
 * joins old and new parts); the receipts of its cut attempt's parts are dropped with it.
 */
export async function resendExpiredInDoubt(db: Kysely<Database>, graceBefore: Date, now: Date): Promise<{ requeued: number; dropped: number }> {
  const result = await sql<{ requeued: number; dropped: number }>`
    with rq as (
      update messages set state = 'queued', not_before = ${now}, in_doubt_since = null, held_reason = 'inDoubtResend', updated_at = ${now}
      where state = 'in_doubt' and in_doubt_since < ${graceBefore}
      returning id, channel_id, to_number, parts),
    gone as (
      delete from orphan_receipts o using rq
      where rq.parts > 1 and o.channel_id = rq.channel_id and o.destination = rq.to_number and o.user_reference = (rq.id % 65536)
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
