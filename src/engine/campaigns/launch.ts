// Launching a campaign: one deployment, its messages rendered from the file's sendable rows and
// created through the one send step (send.ts: the refusal rules, credits, send window), chunk by
// chunk: the first chunk with the deployment in the request (when the credits do not cover it,
// 99986, nothing is created), the rest by the launch job (launch-step.ts), each chunk in one
// transaction with the job's cursor. The request, the recurring schedule (recurrence.ts) and the
// FTP intake launch through this one function.
import type { Transaction } from 'kysely';
import type { Database } from '../database.ts';
import { advanceJob, createDeployment, createJob, InsufficientCreditsError, recordDeploymentTotals, recordLaunchChunk, type Purpose } from '../lifecycle/index.ts';
import { refuse } from '../refused.ts';
import type { Caller, CampaignDeps } from './deps.ts';
import { checkCampaignFlow } from './flow-check.ts';
import { channelOf, isSendable, LAUNCHABLE_LABELS, loadCampaign, plannedAt, sendableChunk, sendRequest, writeChunk, type LaunchCampaign, type LaunchPlan } from './launch-plan.ts';
import { contentLinks } from './links.ts';
import { sendMessages } from './send.ts';
import { launchChunkSize } from './settings.ts';
import { whatsappLaunchItems } from './whatsapp.ts';

/**
 * Launch (a big launch never stalls the server). The request writes the deployment and
 * the first chunk of its messages in one transaction: a launch that fits in one chunk is done
 * there, whole, as it always was; a bigger one answers 'preparing' with its launch job, which the
 * engine's job runner (launch-step.ts) carries on chunk by chunk off the request path.
 * Credits are reserved with each chunk's messages (engine/credits.ts: never below zero, whatever
 * runs at once): a launch the credits do not cover from its first chunk is refused (99986, nothing
 * created); one they stop covering mid-way is cancelled with that reason (launchStep).
 */
/**
 * Launches the campaign as `me`; answers the deployment's id. `withDeployment` runs in the
 * transaction that creates the deployment (the FTP intake records its file's outcome there, so a
 * file is launched once whatever crashes when).
 */
export async function launchCampaign(deps: CampaignDeps, me: Caller, campaignId: number, withDeployment?: (trx: Transaction<Database>, deploymentId: number) => Promise<void>): Promise<number> {
  const campaign = await loadCampaign(deps, me, campaignId);
  if (!LAUNCHABLE_LABELS.includes(campaign.label)) throw refuse('99984');
  // Its flow must still be published and pushable (99994, 99968, 99990).
  await checkCampaignFlow(deps.db, me.companyId, campaign.flow_id, campaign.kind);
  if (campaign.label === 'Active') return launchRecipients(deps, me, campaign, withDeployment);
  // An aborted campaign (its last run cancelled) launched again is active again, with the new run.
  return launchRecipients(deps, me, campaign, async (trx, deploymentId) => {
    await trx.updateTable('campaigns').set({ label: 'Active', updated_at: deps.now() }).where('id', '=', campaignId).where('label', '=', 'Aborted').execute();
    await withDeployment?.(trx, deploymentId);
  });
}

/**
 * Launches a recipients file as one deployment: a campaign's (launchCampaign), or a file that
 * carries its own messages with no campaign (`id` null: the provider's file processor, whose rows
 * hold the message in a column the content names). One path, so either gets the same refusal
 * rules, credits, send window and chunked launch.
 */
export async function launchRecipients(deps: CampaignDeps, me: Caller, campaign: LaunchCampaign, withDeployment?: (trx: Transaction<Database>, deploymentId: number) => Promise<void>): Promise<number> {
  const channel = await channelOf(deps, campaign);
  const fileId = campaign.recipients_file_id;
  if (!fileId) throw refuse('99985', 'The campaign has no recipients file yet.');
  const counted = await deps.db.selectFrom('recipient_rows').select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('file_id', '=', fileId).where(isSendable).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (!total) throw refuse('99985', 'The recipients file has no sendable rows.');
  const chunk = launchChunkSize();
  const rows = await sendableChunk(deps.db, fileId, 0, chunk);
  // WhatsApp: the template's messages, or null for free text (refused outside the 24-hour window: 99907; a parameter without its column: 99908).
  const templateItems = await whatsappLaunchItems(deps, campaign, channel, rows);
  const now = deps.now();
  // Shortener: the company's short links in the content (99925 for any other link of ours).
  const links = await contentLinks(deps, me.companyId, campaign.content);
  const plan: LaunchPlan = { deploymentId: 0, companyId: me.companyId, campaign, fileId, channel, purpose: campaign.purpose as Purpose, createdBy: me.userId, now, at: plannedAt(campaign, now), links };
  const preparing = total > rows.length;
  try {
    const deploymentId = await sendMessages(deps, sendRequest(plan), async (trx, enqueue) => {
      const id = await createDeployment(trx, { companyId: me.companyId, campaignId: campaign.id, channelId: channel.id, purpose: plan.purpose, at: plan.at, createdBy: me.userId, now, preparing: preparing ? { total } : undefined });
      await withDeployment?.(trx, id);
      const result = await writeChunk(trx, enqueue, { ...plan, deploymentId: id }, rows, templateItems);
      if (!preparing) {
        await recordDeploymentTotals(trx, id, result.ids.length, result.reservedCredits);
        return id;
      }
      await recordLaunchChunk(trx, id, result.ids.length, result.reservedCredits, now);
      const job = await createJob(trx, 'launch', {
        deploymentId: id, companyId: me.companyId, campaign: { ...campaign, scheduled_at: campaign.scheduled_at?.toISOString() ?? null }, fileId,
        channel, purpose: plan.purpose, createdBy: me.userId, now: now.toISOString(), at: plan.at.toISOString(), links,
      }, now);
      await advanceJob(trx, job, rows[rows.length - 1].row_no, result.ids.length, now, null);
      return id;
    });
    deps.messaging.wake();
    if (preparing) deps.messaging.wakeJobs?.();
    return deploymentId;
  } catch (error) {
    if (error instanceof InsufficientCreditsError) throw refuse('99986');
    throw error;
  }
}

