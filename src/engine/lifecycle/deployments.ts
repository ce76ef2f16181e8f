// Every state change of a deployment (spec 4), and the changes it makes to its messages: launch,
// pause, play, cancel (all of it or some numbers), delete, start at its scheduled time, completion.
// Only what has not been handed to a channel is reached: sent messages keep their course. The
// server decides whether an action is allowed (99984 for a processed deployment) and calls these;
// it never writes deployments.state or its messages' state itself.
import { sql, type Kysely, type Transaction } from 'kysely';
import { release } from '../credits.ts';
import type { Database } from '../database.ts';
import { OPEN_STATES, STATUS, UNSENT_STATES, statesSql } from './message-states.ts';

/** The states from which a deployment cannot change any more. */
export const PROCESSED_DEPLOYMENT_STATES: readonly string[] = ['completed', 'cancelled'];

const UNSENT_SQL = statesSql(UNSENT_STATES);

export interface NewDeployment {
  companyId: number;
  campaignId: number | null;
  channelId: number;
  purpose: string;
  /** When its messages are planned: later than `now` makes it 'scheduled', else it runs now. */
  at: Date;
  createdBy: number | null;
  now: Date;
  /** A launch written by a job: 'preparing' until its last chunk, with this many recipients. */
  preparing?: { total: number };
  /** A resend: the run whose messages that did not arrive it sends again. */
  resendOf?: number | null;
}

/** Launch: a campaign run's deployment, scheduled for `at` or running from now (or preparing first). Answers its id. */
export async function createDeployment(trx: Transaction<Database>, d: NewDeployment): Promise<number> {
  const later = d.at > d.now;
  const row = await trx.insertInto('deployments').values({
    company_id: d.companyId, campaign_id: d.campaignId, channel_id: d.channelId, state: d.preparing ? 'preparing' : later ? 'scheduled' : 'running',
    purpose: d.purpose, scheduled_at: later ? d.at : null, started_at: later || d.preparing ? null : d.now, reserved_credits: 0,
    total: d.preparing?.total ?? 0, created_by: d.createdBy, created_at: d.now, updated_at: d.now, resend_of: d.resendOf ?? null,
  }).returning('id').executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Launch, once its messages are enqueued: how many it has and the credits they hold. */
export async function recordDeploymentTotals(trx: Transaction<Database>, id: number, total: number, reservedCredits: number): Promise<void> {
  await trx.updateTable('deployments').set({ total, enqueued: total, reserved_credits: reservedCredits }).where('id', '=', id).execute();
}

/** A chunk of a preparing deployment's messages is written: its progress and the credits they hold (same transaction). */
export async function recordLaunchChunk(trx: Transaction<Database>, id: number, added: number, reservedCredits: number, now: Date): Promise<void> {
  await sql`update deployments set enqueued = enqueued + ${added}, reserved_credits = reserved_credits + ${reservedCredits}, updated_at = ${now}
            where id = ${id}`.execute(trx);
}

/** Its last chunk is written: the deployment runs (or waits for its date), its total what was written. */
export async function finishPreparing(trx: Transaction<Database>, id: number, at: Date, now: Date): Promise<void> {
  const later = at > now;
  await sql`update deployments set state = ${later ? 'scheduled' : 'running'}, scheduled_at = ${later ? at : null},
              started_at = ${later ? null : now}, total = enqueued, updated_at = ${now}
            where id = ${id} and state = 'preparing'`.execute(trx);
}

/**
 * A launch that cannot go on (the credits ran out for a chunk: 'insufficientCredits'): what it wrote
 * and did not send is cancelled, its credits released, and the deployment is cancelled with the reason.
 */
export async function stopPreparing(db: Kysely<Database>, companyId: number, id: number, reason: string, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await cancelUnsentMessages(trx, companyId, id, now);
    const stopped = await trx.updateTable('deployments').set({ state: 'cancelled', stop_reason: reason, total: sql<number>`enqueued`, finished_at: now, updated_at: now })
      .where('id', '=', id).where('state', '=', 'preparing').executeTakeFirst();
    if (Number(stopped.numUpdatedRows) > 0) await abortCampaignOf(trx, id, now);
  });
}

/** Pause: its queued messages (and those waiting after an overflow) wait as 'paused' until it is played again. */
export async function pauseDeployment(db: Kysely<Database>, id: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`update messages set state = 'paused', updated_at = ${now} where deployment_id = ${id} and state in ('queued', 'overflow')`.execute(trx);
    await trx.updateTable('deployments').set({ state: 'paused', updated_at: now }).where('id', '=', id).execute();
  });
}

/**
 * Play: paused messages are queued again and it runs. A scheduled deployment played now starts now
 * (its commercial messages still keep the send window).
 */
export async function playDeployment(db: Kysely<Database>, deployment: { id: number; state: string; startedAt: Date | null }, now: Date): Promise<void> {
  const { id } = deployment;
  await db.transaction().execute(async (trx) => {
    await sql`update messages set state = 'queued', not_before = least(not_before, ${now}), updated_at = ${now}
              where deployment_id = ${id} and state in ('paused', 'queued') and (held_reason is null or ${deployment.state} = 'scheduled')`.execute(trx);
    await trx.updateTable('deployments').set({ state: 'running', started_at: deployment.startedAt ?? now, updated_at: now }).where('id', '=', id).execute();
  });
}

/** Cancels the deployment's not-yet-sent messages (those to `numbers` only, when given) and gives their credits back. */
export async function cancelUnsentMessages(trx: Transaction<Database>, companyId: number, deploymentId: number, now: Date, numbers?: string[]): Promise<number> {
  const cancelled = await sql<{ cost: number; unpaid: boolean }>`
    update messages set state = 'cancelled', status_code = ${STATUS.cancelled}, worker_id = null, done_at = ${now}, updated_at = ${now}
    where deployment_id = ${deploymentId} and state in ${sql.raw(UNSENT_SQL)}
      ${numbers ? sql`and to_number = any(${numbers}::text[])` : sql``}
    returning cost, unpaid`.execute(trx);
  // A message queued unpaid (its credits reserved at the claim, migration 0496) gives nothing back.
  const amount = cancelled.rows.reduce((a, r) => a + (r.unpaid ? 0 : Number(r.cost)), 0);
  await release(trx, { companyId, amount, deploymentId, messageCount: cancelled.rows.length, reference: 'cancelled', now });
  return cancelled.rows.length;
}

/** Cancel: what was not sent is cancelled (its credits released) and the deployment is done. */
export async function cancelDeployment(db: Kysely<Database>, companyId: number, id: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await cancelUnsentMessages(trx, companyId, id, now);
    await trx.updateTable('deployments').set({ state: 'cancelled', finished_at: now, updated_at: now }).where('id', '=', id).execute();
    await abortCampaignOf(trx, id, now);
  });
}

/**
 * A cancelled run aborts its campaign (spec 4's label Aborted): an open or scheduled campaign's
 * one send did not go. A recurring campaign's series goes on (one run cancelled is not the rule
 * ended). Launching the campaign again makes it Active (engine/campaigns/launch.ts).
 */
async function abortCampaignOf(trx: Transaction<Database>, deploymentId: number, now: Date): Promise<void> {
  await sql`update campaigns set label = 'Aborted', updated_at = ${now}
            where id = (select campaign_id from deployments where id = ${deploymentId}) and label = 'Active' and kind <> 'recurring'`.execute(trx);
}

/**
 * A company the provider disabled stops sending at once: every message of it not yet handed to a
 * channel is refused with 85 (client inactive), its credits given back, and its runs that had not
 * finished are cancelled with the reason companyDisabled. What was already sent keeps its course.
 * Answers how many messages it refused. Called in the transaction that disables the company.
 */
export async function haltCompany(trx: Transaction<Database>, companyId: number, now: Date): Promise<number> {
  const refused = await sql<{ cost: number; unpaid: boolean; id: number | string }>`
    update messages set state = 'rejected', status_code = ${STATUS.clientInactive}, worker_id = null, done_at = ${now}, updated_at = ${now}
    where company_id = ${companyId} and state in ${sql.raw(UNSENT_SQL)}
    returning id, cost, unpaid`.execute(trx);
  if (refused.rows.length) {
    await sql`insert into message_events (message_id, at, state, status_code, detail)
      select id, ${now}, 'rejected', ${STATUS.clientInactive}, 'the company was disabled' from unnest(${refused.rows.map((r) => r.id)}::bigint[]) as v(id)`.execute(trx);
  }
  const amount = refused.rows.reduce((a, r) => a + (r.unpaid ? 0 : Number(r.cost)), 0);
  await release(trx, { companyId, amount, messageCount: refused.rows.length, reference: 'company disabled', now });
  const stopped = await trx.updateTable('deployments').set({ state: 'cancelled', stop_reason: 'companyDisabled', finished_at: now, updated_at: now })
    .where('company_id', '=', companyId).where('state', 'in', ['scheduled', 'running', 'paused']).returning('id').execute();
  for (const d of stopped) await abortCampaignOf(trx, Number(d.id), now);
  return refused.rows.length;
}

/** Cancel some numbers of a deployment; answers how many messages it cancelled. */
export async function cancelNumbers(db: Kysely<Database>, companyId: number, id: number, numbers: string[], now: Date): Promise<number> {
  return db.transaction().execute((trx) => cancelUnsentMessages(trx, companyId, id, now, numbers));
}

/** Schedule some numbers of a deployment for `at` (they keep their state); answers how many messages moved. */
export async function rescheduleNumbers(db: Kysely<Database>, id: number, numbers: string[], at: Date, now: Date): Promise<number> {
  const moved = await sql`update messages set not_before = ${at}, held_reason = 'scheduledByUser', updated_at = ${now}
            where deployment_id = ${id} and state in ${sql.raw(UNSENT_SQL)} and to_number = any(${numbers}::text[])`.execute(db);
  return Number(moved.numAffectedRows ?? 0);
}

/** Delete: what was not sent is cancelled (its credits released), then the deployment goes. */
export async function deleteDeployment(db: Kysely<Database>, companyId: number, id: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await cancelUnsentMessages(trx, companyId, id, now);
    await trx.deleteFrom('deployments').where('id', '=', id).execute();
  });
}

/** Scheduled deployments whose time came run (their rows were queued with that not_before). */
export async function startDueDeployments(db: Kysely<Database>, now: Date): Promise<void> {
  await sql`update deployments set state = 'running', started_at = ${now}, updated_at = ${now}
            where state = 'scheduled' and scheduled_at <= ${now}`.execute(db);
}

/** Completion: a running deployment with nothing left to send or to hear back from about sending is completed. */
export async function completeFinishedDeployments(db: Kysely<Database>, now: Date): Promise<void> {
  await sql`update deployments d set state = 'completed', finished_at = ${now}, updated_at = ${now}
            where d.state = 'running' and not exists (
              select 1 from messages m where m.deployment_id = d.id and m.state in ${sql.raw(statesSql(OPEN_STATES))})`.execute(db);
}
