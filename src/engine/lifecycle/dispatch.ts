// The state changes of a message on its way to a channel (ARCHITECTURE 5), each with its SQL:
// claim (queued → sending under a worker), held back by the send window (sending → queued),
// and what the channel answered: accepted (→ sent, credits consumed), retry later (→ queued, or
// overflow when the provider's throughput or queue limit refused it), refused (→ failed, or
// unauthorized when it refused our sender or account; credits released), or an RCS number that is not RCS-capable (→ queued again
// on the company's SMS channel, or failed / rejected when it cannot go). The dispatcher
// (../dispatcher.ts) decides which applies; the rows change only here.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ChannelPlatform, TemplateRef } from '../channel-adapter.ts';
import { consume, release, reserve, shortfallStatus } from '../credits.ts';
import type { Database } from '../database.ts';
import { groupBy } from '../group-by.ts';
import { messageCost } from './enqueue.ts';
import { STATUS } from './message-states.ts';

/** A message as a worker claimed it. */
export interface ClaimedRow {
  id: number | string;
  company_id: number;
  channel_id: number;
  deployment_id: number | string | null;
  to_number: string;
  body: string | null;
  template: TemplateRef | null;
  purpose: string;
  source: string;
  cost: number;
  /** How many times it was claimed, this claim included. */
  attempts: number;
}

/**
 * Claim: up to `limit` due queued messages become 'sending' under this worker (SKIP LOCKED: workers
 * never share a row). The ids are picked once, as an array (an InitPlan): with `id in (select …)`
 * and the statistics of a table that was small until a 100,000-row enqueue, PostgreSQL chose a
 * nested-loop semi join that ran the locking, sorting subquery once per row of the table, and two
 * workers' first claims ran for more than ten minutes. A message that must follow
 * another (a conversation's next reply, `after_message_id`) waits until that one left the queue:
 * its submit was answered, so the SMSC takes them in order.
 *
 * Messages queued unpaid (a conversation's replies, enqueue's `creditsAt: 'claim'`) are paid for in
 * the same transaction (payClaimed): a message being sent is always one whose credits are reserved,
 * whatever crashes when. `rows` are the messages to send; `refused` those the credits did not cover.
 */
export async function claimQueued(db: Kysely<Database>, workerId: string, limit: number, now: Date): Promise<{ rows: ClaimedRow[]; refused: number }> {
  return db.transaction().execute(async (trx) => {
    const claimed = await sql<ClaimedRow & { unpaid: boolean; platform: ChannelPlatform }>`
      update messages m set state = 'sending', worker_id = ${workerId}, claimed_at = ${now}, attempts = m.attempts + 1, updated_at = ${now}
      where m.id = any(array(
        select id from messages q where state = 'queued' and not_before <= ${now}
          and (q.after_message_id is null or not exists (
            select 1 from messages p where p.id = q.after_message_id and p.state in ('queued', 'sending')))
        order by not_before, id limit ${limit} for update skip locked))
      returning m.id, m.company_id, m.channel_id, m.deployment_id, m.to_number, m.body, m.template, m.purpose, m.source, m.cost, m.attempts, m.unpaid,
        (select c.platform from channels c where c.id = m.channel_id) as platform`.execute(trx);
    const refused = await payClaimed(trx, claimed.rows.filter((r) => r.unpaid), now);
    const rows = claimed.rows.filter((r) => !refused.has(String(r.id))).map(({ unpaid: _u, platform: _p, ...row }) => row);
    return { rows, refused: refused.size };
  });
}

/**
 * Reserves the credits of claimed messages that were queued unpaid: one reservation per company
 * and channel type for the batch; when the balance cannot cover it, one by one in order, so those
 * it covers still go. The others are refused — 81, or the plan's 82 / 83 (credits.ts
 * shortfallStatus) — as an API message the credits do not cover is. Answers the refused ids.
 */
async function payClaimed(trx: Transaction<Database>, unpaid: readonly (ClaimedRow & { platform: ChannelPlatform })[], now: Date): Promise<Set<string>> {
  const refused = new Set<string>();
  if (!unpaid.length) return refused;
  const refusedStatus = new Map<string, number>();
  for (const list of groupBy(unpaid, (r) => `${r.company_id}:${r.platform}`).values()) {
    const { company_id: companyId, platform } = list[0];
    const cost = sum(list, (r) => r.cost);
    if (await reserve(trx, { companyId, amount: cost, platform, messageCount: list.length, now })) continue;
    for (const row of [...list].sort((a, b) => Number(a.id) - Number(b.id))) {
      if (await reserve(trx, { companyId, amount: row.cost, platform, messageCount: 1, now })) continue;
      refused.add(String(row.id));
      refusedStatus.set(String(row.id), await shortfallStatus(trx, companyId, platform, now));
    }
  }
  const ids = unpaid.map((r) => String(r.id));
  await sql`update messages set unpaid = false where id = any(${ids}::bigint[])`.execute(trx);
  if (refused.size) {
    const out = [...refused];
    await sql`update messages m set state = 'rejected', status_code = v.status, worker_id = null, done_at = ${now}, updated_at = ${now}
      from unnest(${out}::bigint[], ${out.map((id) => refusedStatus.get(id)!)}::int[]) as v(id, status) where m.id = v.id`.execute(trx);
    await sql`insert into message_events (message_id, at, state, status_code, detail)
      select id, ${now}, state, status_code, 'credits reserved at the claim' from messages where id = any(${out}::bigint[])`.execute(trx);
  }
  return refused;
}

/**
 * Which of these claimed rows are still this worker's ('sending' under its id), asked right before
 * they are handed to the provider. A worker that stalled past its lease (CPU starvation, a long
 * pause) was declared dead by another one, which put its rows in doubt; they may be sent again by
 * whoever resolves them after the grace period, so the stalled worker must not submit them too.
 */
export async function stillClaimed(db: Kysely<Database>, workerId: string, ids: (number | string)[]): Promise<Set<string>> {
  const rows = await sql<{ id: number | string }>`
    select id from messages where id = any(${ids}::bigint[]) and state = 'sending' and worker_id = ${workerId}`.execute(db);
  return new Set(rows.rows.map((r) => String(r.id)));
}

/** Claimed outside their company's send window (a deployment can run past 19:00): they wait for `until`. */
export async function holdForSendWindow(db: Kysely<Database>, ids: (number | string)[], until: Date, now: Date): Promise<void> {
  await sql`update messages set state = 'queued', worker_id = null, not_before = ${until}, held_reason = 'sendWindow', updated_at = ${now}
            where id = any(${ids}::bigint[]) and state = 'sending'`.execute(db);
}

export interface Accepted { row: ClaimedRow; pid: string; partIds?: string[] }
const OVERFLOW_DETAIL = 'throughput or queue limit of the channel exceeded';

export interface Retry { row: ClaimedRow; at: Date; overflow: boolean }
export interface Refused { row: ClaimedRow; code: number; error: string | null; unauthorized: boolean }

/**
 * Submit accepted: the messages become sent with the provider's id, a long SMS's part ids are
 * stored (their receipts decide it, see receipt.ts applyParts), and their credits are consumed.
 * 'in_doubt' too: if our lease lapsed while we waited, we still know the answer best. Only rows
 * still ours: after a lapsed lease another worker may have resolved or resent a row, and its
 * credits must not be consumed twice.
 */
export async function recordAccepted(trx: Transaction<Database>, workerId: string, accepted: Accepted[], now: Date): Promise<void> {
  if (!accepted.length) return;
  const stored = await sql<{ id: number | string }>`
    with v as (select * from unnest(${accepted.map((a) => a.row.id)}::bigint[], ${accepted.map((a) => a.pid)}::text[]) as v(id, pid)),
    upd as (
      update messages m set state = 'sent', status_code = ${STATUS.success}, delivery_status = coalesce(m.delivery_status, 'SENT'),
             provider_message_id = v.pid, sent_at = ${now}, billed = true, worker_id = null, in_doubt_since = null, updated_at = ${now}
      from v where m.id = v.id and ((m.state = 'sending' and m.worker_id = ${workerId}) or m.state = 'in_doubt')
      returning m.id),
    ev as (insert into message_events (message_id, at, state, delivery_status, status_code) select id, ${now}, 'sent', 'SENT', ${STATUS.success} from upd)
    select id from upd`.execute(trx);
  const mine = new Set(stored.rows.map((r) => String(r.id)));
  const parts = accepted.filter((a) => a.partIds && mine.has(String(a.row.id))).flatMap((a) => a.partIds!.map((pid) => ({ row: a.row, pid })));
  if (parts.length) {
    await sql`insert into message_parts (channel_id, provider_part_id, message_id)
              select * from unnest(${parts.map((p) => p.row.channel_id)}::int[], ${parts.map((p) => p.pid)}::text[], ${parts.map((p) => p.row.id)}::bigint[])
              on conflict do nothing`.execute(trx);
  }
  // Per company and channel: a channel type's promotional credits are spent first (credits.ts).
  for (const list of groupBy(accepted.map((a) => a.row).filter((r) => mine.has(String(r.id))), (r) => `${r.company_id}:${r.channel_id}`).values()) {
    await consume(trx, { companyId: list[0].company_id, channelId: list[0].channel_id, amount: sum(list, (r) => r.cost), messageCount: list.length, deploymentId: single(list), now });
  }
}

/**
 * Submit to retry (a transient error): the messages wait in the queue until their `at`. Those the
 * provider refused for its throughput or queue limit wait as 'overflow' with status 70 (failed
 * attempt) and an event saying so, until releaseOverflow queues them again at their `at`.
 */
export async function requeueForRetry(trx: Transaction<Database>, workerId: string, retry: Retry[], now: Date): Promise<void> {
  if (!retry.length) return;
  await sql`
    with upd as (
      update messages m set state = case when v.overflow then 'overflow' else 'queued' end,
             status_code = case when v.overflow then ${STATUS.failedAttempt} else m.status_code end,
             worker_id = null, not_before = v.at, updated_at = ${now}
      from unnest(${retry.map((r) => r.row.id)}::bigint[], ${retry.map((r) => r.at)}::timestamptz[], ${retry.map((r) => r.overflow)}::boolean[]) as v(id, at, overflow)
      where m.id = v.id and m.state = 'sending' and m.worker_id = ${workerId}
      returning m.id, m.state, m.status_code)
    insert into message_events (message_id, at, state, status_code, detail)
    select id, ${now}, state, status_code, ${OVERFLOW_DETAIL} from upd where state = 'overflow'`.execute(trx);
}

/** Overflowed messages whose back-off is over are queued again (the dispatcher's maintenance round); answers how many. */
export async function releaseOverflow(db: Kysely<Database>, now: Date): Promise<number> {
  const result = await sql`update messages set state = 'queued', updated_at = ${now} where state = 'overflow' and not_before <= ${now}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Submit refused (or no channel to send through): the messages fail with their status code and their credits are released. */
export async function recordRefused(trx: Transaction<Database>, workerId: string, failed: Refused[], now: Date): Promise<void> {
  if (!failed.length) return;
  const stored = await sql<{ id: number | string }>`
    with upd as (
      update messages m set state = case when v.unauthorized then 'unauthorized' else 'failed' end, status_code = v.code,
             delivery_status = case when v.unauthorized then 'UNAUTHORIZED' else 'FAILED' end, error_code = v.err, worker_id = null,
             done_at = ${now}, updated_at = ${now}
      from unnest(${failed.map((f) => f.row.id)}::bigint[], ${failed.map((f) => f.code)}::int[], ${failed.map((f) => f.error)}::text[], ${failed.map((f) => f.unauthorized)}::boolean[]) as v(id, code, err, unauthorized)
      where m.id = v.id and ((m.state = 'sending' and m.worker_id = ${workerId}) or m.state = 'in_doubt')
      returning m.id, m.state, m.delivery_status, m.status_code),
    ev as (insert into message_events (message_id, at, state, delivery_status, status_code) select id, ${now}, state, delivery_status, status_code from upd)
    select id from upd`.execute(trx);
  const mine = new Set(stored.rows.map((r) => String(r.id)));
  for (const [companyId, list] of groupBy(failed.map((f) => f.row).filter((r) => mine.has(String(r.id))), (r) => r.company_id)) {
    await release(trx, { companyId, amount: sum(list, (r) => r.cost), messageCount: list.length, deploymentId: single(list), reference: 'refused by the provider', now });
  }
}

/**
 * An RCS number that is not RCS-capable goes by SMS on the company's fallback channel `target`:
 * queued again there, repriced (the difference held or given back). Without a fallback channel it
 * fails (92); when the credits do not cover the SMS's extra parts it is rejected (81).
 */
export async function fallBackToSms(db: Kysely<Database>, row: ClaimedRow, target: { id: number; platform: ChannelPlatform } | null, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!target) {
      await sql`update messages set state = 'failed', status_code = ${STATUS.dispatchError}, delivery_status = 'FAILED', error_code = 'no-fallback', worker_id = null, done_at = ${now}, updated_at = ${now} where id = ${row.id} and state = 'sending'`.execute(trx);
      await release(trx, { companyId: row.company_id, amount: row.cost, messageCount: 1, now, reference: 'no SMS fallback channel' });
      return;
    }
    const priced = messageCost(target.platform, row.body ?? undefined);
    const extra = priced.cost - row.cost;
    // The SMS may cost more parts than the RCS message: hold the difference, or fail with 81.
    if (extra > 0) {
      const held = await reserve(trx, { companyId: row.company_id, amount: extra, platform: 'sms', messageCount: 0, reference: 'fallback to SMS costs more', now });
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
}

const sum = <T>(items: T[], f: (t: T) => number) => items.reduce((a, t) => a + f(t), 0);
/** The deployment of a batch when all its rows share one (the ledger row then names it). */
function single(rows: ClaimedRow[]): number | null {
  const ids = new Set(rows.map((r) => (r.deployment_id === null ? null : Number(r.deployment_id))));
  return ids.size === 1 ? [...ids][0] : null;
}
