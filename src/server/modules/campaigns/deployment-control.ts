// Deployment actions (spec 4): play, pause, cancel, delete, and the batch rule for up to 10
// numbers. A processed deployment (completed or cancelled) cannot be changed (99984). Only what
// has not been handed to a channel is reached: sent messages keep their course.
import { sql, type Kysely } from 'kysely';
import { release } from '../../../engine/credits.ts';
import { STATUS } from '../../../engine/message-states.ts';
import type { Database } from '../../../engine/database.ts';
import type { Deployment } from '../../../generated/types.gen.ts';
import { fail } from '../../errors/api-error.ts';

const PROCESSED = ['completed', 'cancelled'];

export async function loadDeployment(db: Kysely<Database>, companyId: number, id: number) {
  const row = await db.selectFrom('deployments').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw fail('99959');
  return row;
}

export async function toDeployment(db: Kysely<Database>, row: Awaited<ReturnType<typeof loadDeployment>>): Promise<Deployment> {
  const counts = await sql<{ state: string; held: boolean; n: number | string }>`
    select state, (state = 'queued' and held_reason is not null) as held, count(*) as n
    from messages where deployment_id = ${row.id} group by 1, 2`.execute(db);
  const c = { queued: 0, held: 0, sending: 0, sent: 0, delivered: 0, read: 0, failed: 0, rejected: 0, cancelled: 0, other: 0 };
  for (const r of counts.rows) {
    const n = Number(r.n);
    if (r.held) c.held += n;
    else if (r.state === 'in_doubt') c.sending += n;
    else if (r.state === 'paused') c.queued += n;
    else if (r.state === 'timeout' || r.state === 'undefined') c.other += n;
    else if (r.state in c) c[r.state as keyof typeof c] += n;
    else c.other += n;
  }
  const campaign = row.campaign_id ? await db.selectFrom('campaigns').select('name').where('id', '=', row.campaign_id).executeTakeFirst() : null;
  return {
    id: Number(row.id), campaignId: row.campaign_id, campaignName: campaign?.name ?? null, channelId: row.channel_id,
    state: row.state as Deployment['state'], purpose: row.purpose as Deployment['purpose'], total: row.total,
    reservedCredits: Number(row.reserved_credits), counts: c,
    scheduledAt: row.scheduled_at?.toISOString() ?? null, startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null, createdAt: row.created_at.toISOString(),
  };
}

/** Cancels the not-yet-sent messages matched by `where` and gives their credits back. */
async function cancelUnsent(trx: Kysely<Database>, companyId: number, deploymentId: number, now: Date, numbers?: string[]): Promise<number> {
  const cancelled = await sql<{ cost: number }>`
    update messages set state = 'cancelled', status_code = ${STATUS.cancelled}, worker_id = null, done_at = ${now}, updated_at = ${now}
    where deployment_id = ${deploymentId} and state in ('queued', 'paused')
      ${numbers ? sql`and to_number = any(${numbers}::text[])` : sql``}
    returning cost`.execute(trx);
  const amount = cancelled.rows.reduce((a, r) => a + Number(r.cost), 0);
  await release(trx, { companyId, amount, deploymentId, messageCount: cancelled.rows.length, reference: 'cancelled', now });
  return cancelled.rows.length;
}

export async function controlDeployment(db: Kysely<Database>, companyId: number, id: number, action: 'play' | 'pause' | 'cancel', now: Date): Promise<void> {
  const row = await loadDeployment(db, companyId, id);
  if (PROCESSED.includes(row.state)) throw fail('99984');
  await db.transaction().execute(async (trx) => {
    if (action === 'pause') {
      if (row.state === 'paused') return;
      await sql`update messages set state = 'paused', updated_at = ${now} where deployment_id = ${id} and state = 'queued'`.execute(trx);
      await trx.updateTable('deployments').set({ state: 'paused', updated_at: now }).where('id', '=', id).execute();
    } else if (action === 'play') {
      // A scheduled deployment played now starts now (its commercial messages still keep the window).
      await sql`update messages set state = 'queued', not_before = least(not_before, ${now}), updated_at = ${now}
                where deployment_id = ${id} and state in ('paused', 'queued') and (held_reason is null or ${row.state} = 'scheduled')`.execute(trx);
      await trx.updateTable('deployments').set({ state: 'running', started_at: row.started_at ?? now, updated_at: now }).where('id', '=', id).execute();
    } else {
      await cancelUnsent(trx, companyId, id, now);
      await trx.updateTable('deployments').set({ state: 'cancelled', finished_at: now, updated_at: now }).where('id', '=', id).execute();
    }
  });
}

export async function deleteDeployment(db: Kysely<Database>, companyId: number, id: number, now: Date): Promise<void> {
  const row = await loadDeployment(db, companyId, id);
  const sent = await db.selectFrom('messages').select('id').where('deployment_id', '=', id).where('billed', '=', true).limit(1).executeTakeFirst();
  if (sent || !['scheduled', 'cancelled', 'paused'].includes(row.state)) throw fail('99984');
  await db.transaction().execute(async (trx) => {
    await cancelUnsent(trx, companyId, id, now);
    await trx.deleteFrom('deployments').where('id', '=', id).execute();
  });
}

export async function numbersAction(db: Kysely<Database>, companyId: number, id: number, action: 'cancel' | 'schedule', numbers: string[], at: Date | null, now: Date): Promise<number> {
  const row = await loadDeployment(db, companyId, id);
  if (PROCESSED.includes(row.state)) throw fail('99984');
  return db.transaction().execute(async (trx) => {
    if (action === 'cancel') return cancelUnsent(trx, companyId, id, now, numbers);
    const moved = await sql`update messages set not_before = ${at ?? now}, held_reason = 'scheduledByUser', updated_at = ${now}
              where deployment_id = ${id} and state in ('queued', 'paused') and to_number = any(${numbers}::text[])`.execute(trx);
    return Number(moved.numAffectedRows ?? 0);
  });
}
