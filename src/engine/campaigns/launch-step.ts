// The launch job's step (jobs/kinds.ts 'launch'): the next chunk of a big launch's recipients,
// written with the job's cursor in one transaction, off the request path.
import { sql, type Kysely } from 'kysely';
import type { Deployment } from '../../generated/types.gen.ts';
import type { Database } from '../database.ts';
import type { JobHandler } from '../jobs/index.ts';
import { advanceJob, finishJob, finishPreparing, InsufficientCreditsError, lockJob, recordLaunchChunk, stopPreparing, type EnqueueItem, type Purpose } from '../lifecycle/index.ts';
import { MessageStatistics } from '../message-statistics.ts';
import { Refused } from '../refused.ts';
import type { CampaignHooks } from './deps.ts';
import { sendableChunk, sendRequest, writeChunk, type LaunchCampaign, type LaunchPlan } from './launch-plan.ts';
import type { ContentLink } from './links.ts';
import { sendMessages } from './send.ts';
import { launchStepSizing } from './settings.ts';
import { StepSizer } from './step-sizer.ts';
import { whatsappLaunchItems } from './whatsapp.ts';

/** Why a launch job stops (schemas/enums/deployment-stop-reason.yaml), or null: not a refusal, the step is tried again. */
function stopReasonOf(error: unknown): NonNullable<Deployment['stopReason']> | null {
  if (error instanceof InsufficientCreditsError) return 'insufficientCredits';
  if (!(error instanceof Refused)) return null;
  return error.code === '99907' ? 'whatsappWindow' : error.code === '99908' ? 'templateParameters' : 'refused';
}

/** What the launch job's steps need: the database, the clock and the engine's send window and wake-up. */
export interface LaunchDeps {
  db: Kysely<Database>;
  now: () => Date;
  messaging: Pick<CampaignHooks, 'sendWindow' | 'wake'>;
}

/**
 * One step of a launch job (engine/jobs/kinds.ts 'launch'): the next chunk of recipients after the
 * job's cursor, written with the cursor's move in one transaction, so a crash between steps
 * resumes after the last chunk written: every recipient gets exactly one message. The last step
 * sets the deployment running (or scheduled). A deployment cancelled meanwhile ends the job.
 */
export function launchStep(deps: LaunchDeps, options: { leaseMs?: number } = {}): JobHandler<'launch'> {
  // Read once per handler: a step's size follows this process's database and its measured speed.
  let sizer: StepSizer | null = null;
  const leaseMs = options.leaseMs ?? 60_000;
  // A launch grows the table from a few rows to a million. Statistics taken while it was (nearly)
  // empty make the refusal rules scan it, each chunk slower than the last (60 -> 130 ms per 100
  // rows by row 2,500, PGlite's one thread held meanwhile): refreshed once, after the first 1,000
  // rows. Once the planner knows the rows per page it scales the estimate with the table's pages by
  // itself, so later refreshes (300 ms each at 100,000 rows on PGlite) would only add stalls.
  const statistics = new MessageStatistics(deps.db, { first: 1000, floor: Number.POSITIVE_INFINITY });
  return async (job) => {
    const p = job.payload;
    const campaign = { ...p.campaign, scheduled_at: p.campaign.scheduled_at ? new Date(String(p.campaign.scheduled_at)) : null } as LaunchCampaign;
    const plan: LaunchPlan = {
      deploymentId: p.deploymentId, companyId: p.companyId, campaign, fileId: p.fileId, channel: p.channel as LaunchPlan['channel'],
      purpose: p.purpose as Purpose, createdBy: p.createdBy, now: new Date(p.now), at: new Date(p.at), links: p.links as ContentLink[],
    };
    // Read before the transaction (PGlite has one connection; the WhatsApp plan reads the database), checked in it.
    const current = await deps.db.selectFrom('jobs').select('cursor').where('id', '=', job.id).executeTakeFirstOrThrow();
    const cursor = Number(current.cursor);
    sizer ??= new StepSizer(launchStepSizing());
    const limit = sizer.next();
    const rows = await sendableChunk(deps.db, plan.fileId, cursor, limit);
    let templateItems: EnqueueItem[] | null = null;
    try {
      templateItems = rows.length ? await whatsappLaunchItems({ db: deps.db, now: () => plan.now }, campaign, plan.channel, rows) : null;
      let held = 0;
      const outcome = await sendMessages(deps, sendRequest(plan), async (trx, enqueue) => {
        held = performance.now();
        const locked = await lockJob(trx, job.id);
        if (!locked) return 'done' as const;
        if (locked.cursor !== cursor) return 'more' as const; // another step got here first: read again
        const state = await sql<{ state: string }>`select state from deployments where id = ${plan.deploymentId} for update`.execute(trx);
        const realNow = deps.now();
        if (state.rows[0]?.state !== 'preparing') {
          await finishJob(trx, job.id, realNow);
          return 'done' as const;
        }
        if (rows.length) {
          const result = await writeChunk(trx, enqueue, plan, rows, templateItems);
          await recordLaunchChunk(trx, plan.deploymentId, result.ids.length, result.reservedCredits, realNow);
          await advanceJob(trx, job.id, rows[rows.length - 1].row_no, result.ids.length, realNow, leaseMs);
        }
        if (rows.length === limit) return 'more' as const;
        await finishPreparing(trx, plan.deploymentId, plan.at, realNow);
        await finishJob(trx, job.id, realNow);
        return 'done' as const;
      });
      // How long the step held the database (its transaction, through the commit): the next step's size.
      if (held) sizer.took(rows.length, performance.now() - held);
      if (rows.length) {
        deps.messaging.wake();
        await statistics.note(rows.length);
      }
      return outcome;
    } catch (error) {
      const reason = stopReasonOf(error);
      if (!reason) throw error;
      // The launch cannot go on (credits ran out; a WhatsApp rule refused a chunk): cancelled, with its reason.
      await stopPreparing(deps.db, plan.companyId, plan.deploymentId, reason, deps.now());
      await finishJob(deps.db, job.id, deps.now(), reason);
      return 'done';
    }
  };
}

