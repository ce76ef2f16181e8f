// A deployment as the API answers it (spec 4): its messages counted by state and by the reason
// they were refused. Its actions are the engine's (engine/campaigns/deployment-control.ts).
import { sql, type Kysely } from 'kysely';
import { STATUS } from '../../../engine/lifecycle/index.ts';
import type { loadDeployment } from '../../../engine/campaigns/index.ts';
import type { Database } from '../../../engine/database.ts';
import type { Deployment } from '../../../generated/types.gen.ts';

export async function toDeployment(db: Kysely<Database>, row: Awaited<ReturnType<typeof loadDeployment>>): Promise<Deployment> {
  const counts = await sql<{ state: string; held: boolean; refused: number | null; n: number | string }>`
    select state, (state = 'queued' and held_reason is not null) as held, case when state = 'rejected' then status_code end as refused, count(*) as n
    from messages where deployment_id = ${row.id} group by 1, 2, 3`.execute(db);
  const c = { queued: 0, held: 0, sending: 0, inDoubt: 0, sent: 0, delivered: 0, read: 0, failed: 0, rejected: 0, cancelled: 0, other: 0 };
  const refused = { blocked: 0, duplicate: 0, insufficientCredits: 0, other: 0 };
  let written = 0;
  for (const r of counts.rows) {
    const n = Number(r.n);
    written += n;
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
    resendOf: row.resend_of === null ? null : Number(row.resend_of),
    state: row.state as Deployment['state'], purpose: row.purpose as Deployment['purpose'], total: row.total,
    reservedCredits: Number(row.reserved_credits), counts: c, refused,
    // Of the messages written so far: while the launch is preparing the rest are not counted as
    // going (they may yet be refused), so a launch's notice never promises what the job refuses.
    going: written - c.held - c.rejected - c.cancelled,
    scheduledAt: row.scheduled_at?.toISOString() ?? null, startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null, createdAt: row.created_at.toISOString(),
    enqueued: row.enqueued, stopReason: row.stop_reason as Deployment['stopReason'],
  };
}

