// Deployment actions (spec 4): play, pause, cancel, delete, and the batch rule for up to 10
// numbers. A processed deployment (completed or cancelled) cannot be changed (99984). The state
// changes themselves belong to the engine's lifecycle (src/engine/lifecycle/deployments.ts).
import { sql, type Kysely } from 'kysely';
import {
  cancelDeployment, cancelNumbers, deleteDeployment, pauseDeployment, playDeployment, PROCESSED_DEPLOYMENT_STATES, rescheduleNumbers, STATUS,
} from '../../../engine/lifecycle/index.ts';
import type { Database } from '../../../engine/database.ts';
import type { Deployment } from '../../../generated/types.gen.ts';
import { fail } from '../../errors/api-error.ts';

export async function loadDeployment(db: Kysely<Database>, companyId: number, id: number) {
  const row = await db.selectFrom('deployments').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw fail('99959');
  return row;
}

export async function toDeployment(db: Kysely<Database>, row: Awaited<ReturnType<typeof loadDeployment>>): Promise<Deployment> {
  const counts = await sql<{ state: string; held: boolean; refused: number | null; n: number | string }>`
    select state, (state = 'queued' and held_reason is not null) as held, case when state = 'rejected' then status_code end as refused, count(*) as n
    from messages where deployment_id = ${row.id} group by 1, 2, 3`.execute(db);
  const c = { queued: 0, held: 0, sending: 0, inDoubt: 0, sent: 0, delivered: 0, read: 0, failed: 0, rejected: 0, cancelled: 0, other: 0 };
  const refused = { blocked: 0, duplicate: 0, insufficientCredits: 0, other: 0 };
  for (const r of counts.rows) {
    const n = Number(r.n);
    if (r.refused !== null) {
      const why = r.refused === STATUS.blacklisted ? 'blocked' : r.refused === STATUS.duplicate ? 'duplicate' : r.refused === STATUS.insufficientCredits ? 'insufficientCredits' : 'other';
      refused[why] += n;
    }
    if (r.held) c.held += n;
    else if (r.state === 'in_doubt') c.inDoubt += n;
    else if (r.state === 'paused') c.queued += n;
    else if (r.state === 'timeout' || r.state === 'undefined') c.other += n;
    else if (r.state in c) c[r.state as keyof typeof c] += n;
    else c.other += n;
  }
  const campaign = row.campaign_id ? await db.selectFrom('campaigns').select('name').where('id', '=', row.campaign_id).executeTakeFirst() : null;
  return {
    id: Number(row.id), campaignId: row.campaign_id, campaignName: campaign?.name ?? null, channelId: row.channel_id,
    state: row.state as Deployment['state'], purpose: row.purpose as Deployment['purpose'], total: row.total,
    reservedCredits: Number(row.reserved_credits), counts: c, going: row.total - c.held - c.rejected - c.cancelled, refused,
    scheduledAt: row.scheduled_at?.toISOString() ?? null, startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null, createdAt: row.created_at.toISOString(),
    enqueued: row.enqueued, stopReason: row.stop_reason as Deployment['stopReason'],
  };
}

export async function controlDeployment(db: Kysely<Database>, companyId: number, id: number, action: 'play' | 'pause' | 'cancel', now: Date): Promise<void> {
  const row = await loadDeployment(db, companyId, id);
  if (PROCESSED_DEPLOYMENT_STATES.includes(row.state)) throw fail('99984');
  // While its launch is being written it can only be cancelled (the launch job then stops).
  if (row.state === 'preparing' && action !== 'cancel') throw fail('99984');
  if (action === 'pause') {
    if (row.state !== 'paused') await pauseDeployment(db, id, now);
  } else if (action === 'play') await playDeployment(db, { id, state: row.state, startedAt: row.started_at }, now);
  else await cancelDeployment(db, companyId, id, now);
}

export async function removeDeployment(db: Kysely<Database>, companyId: number, id: number, now: Date): Promise<void> {
  const row = await loadDeployment(db, companyId, id);
  const sent = await db.selectFrom('messages').select('id').where('deployment_id', '=', id).where('billed', '=', true).limit(1).executeTakeFirst();
  if (sent || !['scheduled', 'cancelled', 'paused'].includes(row.state)) throw fail('99984');
  await deleteDeployment(db, companyId, id, now);
}

export async function numbersAction(db: Kysely<Database>, companyId: number, id: number, action: 'cancel' | 'schedule', numbers: string[], at: Date | null, now: Date): Promise<number> {
  const row = await loadDeployment(db, companyId, id);
  if (PROCESSED_DEPLOYMENT_STATES.includes(row.state)) throw fail('99984');
  if (action === 'cancel') return cancelNumbers(db, companyId, id, numbers, now);
  return rescheduleNumbers(db, id, numbers, at ?? now, now);
}
