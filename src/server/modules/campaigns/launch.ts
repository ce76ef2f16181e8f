// Launching a campaign: one deployment, its messages rendered from the file's sendable rows and
// created through the one send step (messaging/send-messages.ts: the refusal rules, credits, send
// window), chunk by chunk: the first chunk with the deployment in the request (when the
// credits do not cover it, 99986, nothing is created), the rest by the engine's launch job, each
// chunk in one transaction with the job's cursor (launchStep).
// The preview (the detail's summary tab) is the same launch, run to the end in a transaction that
// is then rolled back: every decision it shows (block list, duplicates against what was
// already sent, the send window, the credits, the parts of each rendered message) is the one the
// launch would make, read from the rows the launch itself wrote.
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { refusedLinks, render } from '../../../core/message-content.ts';
import { nonGsmCharacters } from '../../../core/sms-parts.ts';
import { capabilitiesOf } from '../../../engine/channels/index.ts';
import {
  advanceJob, createDeployment, createJob, finishJob, finishPreparing, InsufficientCreditsError, lockJob, recordDeploymentTotals, recordLaunchChunk, STATUS,
  stopPreparing, type EnqueueItem, type EnqueueResult, type Purpose,
} from '../../../engine/lifecycle/index.ts';
import type { JobHandler } from '../../../engine/jobs/index.ts';
import type { ChannelPlatform } from '../../../engine/channel-adapter.ts';
import type { Database } from '../../../engine/database.ts';
import { balanceOf } from '../../../engine/credits.ts';
import type { CampaignPreview, Deployment } from '../../../generated/types.gen.ts';
import type { MessagingHooks, ServerDeps, Session } from '../../context.ts';
import { fail } from '../../errors/api-error.ts';
import { duplicateWindowHours } from '../../messaging/duplicate-window.ts';
import { sendMessages, type Enqueue } from '../../messaging/send-messages.ts';
import { launchChunkSize, previewStagedMax } from '../../messaging/engine-settings.ts';
import { ApiError } from '../../errors/api-error.ts';
import { childCodes, contentLinks, personalise, type ContentLink } from '../shortener/links.ts';
import { whatsappLaunchItems, whatsappSummary, withTemplateValues } from './whatsapp-campaign.ts';
import { MessageStatistics } from '../../../engine/message-statistics.ts';
import { startCampaignConversations, flowVersions } from '../../../engine/conversations/index.ts';
import { checkCampaignFlow } from './records.ts';

/** Rendered messages the summary shows as they would go. */
const SAMPLES = 3;

interface LaunchCampaign {
  id: number;
  company_id: number;
  content: string;
  purpose: string;
  kind: string;
  scheduled_at: Date | null;
  channel_id: number | null;
  recipients_file_id: number | null;
  label: string;
  template_id: number | null;
  template_mapping: Record<string, string>;
  variables: string[];
  /** A flow each recipient's conversation starts on. */
  flow_id?: number | null;
}

async function loadCampaign(deps: ServerDeps, me: Session, campaignId: number): Promise<LaunchCampaign> {
  const campaign = await deps.db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!campaign) throw fail('99959');
  return campaign;
}

export async function channelOf(deps: ServerDeps, campaign: LaunchCampaign): Promise<{ id: number; platform: ChannelPlatform }> {
  if (!campaign.channel_id) throw fail('99985');
  const channel = await deps.db.selectFrom('channels').select(['id', 'platform', 'enabled'])
    .where('id', '=', campaign.channel_id).where('company_id', '=', campaign.company_id).executeTakeFirst();
  if (!channel || !channel.enabled) throw fail('99972');
  return { id: channel.id, platform: channel.platform as ChannelPlatform };
}

/** A sendable row of the recipients file, as the launch renders it. */
type RecipientRow = { phone: string | null; variables: Record<string, string> };

/** A row the launch sends: kept by the file's checks (not a repeat, not failed) and with a number. */
const isSendable = (eb: ExpressionBuilder<Database, 'recipient_rows'>) => eb.and([eb('send', '=', true), eb('phone', 'is not', null)]);

/** The file's own counts, in one pass: rows the launch sends, rows that cannot be sent, numbers repeated within the file. */
async function fileCounts(db: Kysely<Database>, fileId: number): Promise<{ sendable: number; invalid: number; repeated: number }> {
  const counts = await db.selectFrom('recipient_rows').where('file_id', '=', fileId).select((eb) => [
    eb.fn.countAll<string | number>().filterWhere(isSendable).as('sendable'),
    eb.fn.countAll<string | number>().filterWhere('result', 'in', ['fail', 'error']).as('invalid'),
    eb.fn.countAll<string | number>().filterWhere((w) => w.and([w('send', '=', false), w('result', 'in', ['pass', 'warn'])])).as('repeated'),
  ]).executeTakeFirstOrThrow();
  return { sendable: Number(counts.sendable), invalid: Number(counts.invalid), repeated: Number(counts.repeated) };
}

function itemsOf(content: string, rows: RecipientRow[], perRecipient?: (body: string, phone: string) => string): EnqueueItem[] {
  return rows.map((r) => {
    const body = render(content, r.variables, { allowEmpty: true });
    return { to: r.phone!, body: perRecipient ? perRecipient(body, r.phone!) : body };
  });
}

const plannedAt = (campaign: LaunchCampaign, now: Date) =>
  campaign.kind === 'scheduled' && campaign.scheduled_at && campaign.scheduled_at > now ? campaign.scheduled_at : now;

/**
 * The one launch: creates the deployment, the recipients' short codes and the messages (every
 * decision made by the engine's enqueue), then hands the transaction to `finish` — the launch
 * records the totals and commits; the preview reads the rows back and rolls back.
 */
async function runLaunch<T>(
  deps: ServerDeps, me: Session, campaign: LaunchCampaign, rows: RecipientRow[],
  onInsufficientCredits: 'throw' | 'report',
  /** A WhatsApp template campaign's messages (whatsapp-campaign.ts), or null: the content rendered per row. */
  templateItems: EnqueueItem[] | null,
  finish: (trx: Transaction<Database>, deploymentId: number, result: EnqueueResult) => Promise<T>,
): Promise<T> {
  const channel = await channelOf(deps, campaign);
  const now = deps.now();
  const at = plannedAt(campaign, now);
  // Shortener: the company's short links in the content (99925 for any other link of ours).
  const links = await contentLinks(deps, me.companyId, campaign.content);
  const purpose = campaign.purpose as Purpose;
  return sendMessages(deps, {
    companyId: me.companyId, channel, purpose, source: 'campaign', createdBy: me.userId, now, at, onInsufficientCredits,
  }, async (trx, enqueue) => {
    const id = await createDeployment(trx, { companyId: me.companyId, campaignId: campaign.id, channelId: channel.id, purpose, at, createdBy: me.userId, now });
    // Shortener: each recipient gets their own child code of every link, set-based, in this transaction.
    const codes = links.length
      ? await childCodes(trx, { companyId: me.companyId, campaignId: campaign.id, createdBy: me.userId, now, links, phones: rows.map((r) => r.phone!) })
      : null;
    // A template campaign the launch would refuse is still priced by its text, each parameter filled from its mapped column (empty when unmapped).
    const textRows = campaign.template_id === null ? rows : rows.map((r) => ({ ...r, variables: withTemplateValues(campaign, r.variables) }));
    const result = await enqueue(templateItems ?? itemsOf(campaign.content, textRows, codes ? (body, phone) => personalise(body, links, codes, phone) : undefined), id);
    return finish(trx, id, result);
  });
}

/** What a launch's chunks share: decided once, at the launch (every chunk decides as the launch would have then). */
export interface LaunchPlan {
  deploymentId: number;
  companyId: number;
  campaign: LaunchCampaign;
  fileId: number;
  channel: { id: number; platform: ChannelPlatform };
  purpose: Purpose;
  createdBy: number;
  now: Date;
  at: Date;
  links: ContentLink[];
}

/** The sendable rows after `cursor` (a row_no), in file order, at most `limit`. */
async function sendableChunk(db: Kysely<Database>, fileId: number, cursor: number, limit: number) {
  return db.selectFrom('recipient_rows').select(['row_no', 'phone', 'variables']).where('file_id', '=', fileId).where(isSendable)
    .where('row_no', '>', cursor).orderBy('row_no').limit(limit).execute();
}

/** One chunk's messages, written in the caller's transaction: the recipients' short codes, then the enqueue (every decision). */
async function writeChunk(trx: Transaction<Database>, enqueue: Enqueue, plan: LaunchPlan, rows: RecipientRow[], templateItems: EnqueueItem[] | null): Promise<EnqueueResult> {
  const { campaign, links } = plan;
  const codes = links.length
    ? await childCodes(trx, { companyId: plan.companyId, campaignId: campaign.id, createdBy: plan.createdBy, now: plan.now, links, phones: rows.map((r) => r.phone!) })
    : null;
  const textRows = campaign.template_id === null ? rows : rows.map((r) => ({ ...r, variables: withTemplateValues(campaign, r.variables) }));
  const result = await enqueue(templateItems ?? itemsOf(campaign.content, textRows, codes ? (body, phone) => personalise(body, links, codes, phone) : undefined), plan.deploymentId);
  if (campaign.flow_id) {
    // Each recipient whose message was queued starts the flow after it (the message ids are in the rows' order).
    const variables = new Map(result.ids.length === rows.length ? result.ids.map((id, i) => [id, rows[i].variables] as const) : []);
    await startCampaignConversations(trx, campaignFlowVersions, {
      companyId: plan.companyId, campaignId: campaign.id, flowId: campaign.flow_id, channel: plan.channel, messageIds: result.ids, variables, now: plan.at,
    });
  }
  return result;
}

/** The published flows the launches start (a version never changes once published: cached). */
const campaignFlowVersions = flowVersions();

const sendRequest = (plan: LaunchPlan) => ({
  companyId: plan.companyId, channel: plan.channel, purpose: plan.purpose, source: 'campaign' as const, createdBy: plan.createdBy,
  now: plan.now, at: plan.at, onInsufficientCredits: 'throw' as const,
});

/**
 * Launch (a big launch never stalls the server). The request writes the deployment and
 * the first chunk of its messages in one transaction: a launch that fits in one chunk is done
 * there, whole, as it always was; a bigger one answers 'preparing' with its launch job, which the
 * engine's job runner (messaging/jobs.ts) carries on chunk by chunk off the request path.
 * Credits are reserved with each chunk's messages (engine/credits.ts: never below zero, whatever
 * runs at once): a launch the credits do not cover from its first chunk is refused (99986, nothing
 * created); one they stop covering mid-way is cancelled with that reason (launchStep).
 */
/**
 * Launches the campaign as `me`; answers the deployment's id. `withDeployment` runs in the
 * transaction that creates the deployment (the FTP intake records its file's outcome there, so a
 * file is launched once whatever crashes when).
 */
export async function launchCampaign(deps: ServerDeps, me: Session, campaignId: number, withDeployment?: (trx: Transaction<Database>, deploymentId: number) => Promise<void>): Promise<number> {
  const campaign = await loadCampaign(deps, me, campaignId);
  if (campaign.label !== 'Active') throw fail('99984');
  const channel = await channelOf(deps, campaign);
  // Its flow must still be published and pushable (99994, 99968, 99990).
  await checkCampaignFlow(deps.db, me.companyId, campaign.flow_id, campaign.kind);
  const fileId = campaign.recipients_file_id;
  if (!fileId) throw fail('99985', 'The campaign has no recipients file yet.');
  const counted = await deps.db.selectFrom('recipient_rows').select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('file_id', '=', fileId).where(isSendable).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (!total) throw fail('99985', 'The recipients file has no sendable rows.');
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
    if (error instanceof InsufficientCreditsError) throw fail('99986');
    throw error;
  }
}

/** Why a launch job stops (schemas/enums/deployment-stop-reason.yaml), or null: not a refusal, the step is tried again. */
function stopReasonOf(error: unknown): NonNullable<Deployment['stopReason']> | null {
  if (error instanceof InsufficientCreditsError) return 'insufficientCredits';
  if (!(error instanceof ApiError)) return null;
  return error.code === '99907' ? 'whatsappWindow' : error.code === '99908' ? 'templateParameters' : 'refused';
}

/** What the launch job's steps need: the database, the clock and the engine's send window and wake-up. */
export interface LaunchDeps {
  db: Kysely<Database>;
  now: () => Date;
  messaging: Pick<MessagingHooks, 'sendWindow' | 'wake'>;
}

/**
 * One step of a launch job (engine/jobs/kinds.ts 'launch'): the next chunk of recipients after the
 * job's cursor, written with the cursor's move in one transaction, so a crash between steps
 * resumes after the last chunk written: every recipient gets exactly one message. The last step
 * sets the deployment running (or scheduled). A deployment cancelled meanwhile ends the job.
 */
export function launchStep(deps: LaunchDeps, options: { chunkSize?: () => number; leaseMs?: number } = {}): JobHandler<'launch'> {
  const chunkSize = options.chunkSize ?? (() => launchChunkSize());
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
    const limit = chunkSize();
    const rows = await sendableChunk(deps.db, plan.fileId, cursor, limit);
    let templateItems: EnqueueItem[] | null = null;
    try {
      templateItems = rows.length ? await whatsappLaunchItems({ db: deps.db, now: () => plan.now }, campaign, plan.channel, rows) : null;
      const outcome = await sendMessages(deps, sendRequest(plan), async (trx, enqueue) => {
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

/** What the rolled-back launch wrote, summed in SQL (a file can hold 100,000 rows). */
interface Staged {
  goNow: number;
  wait: number;
  waitUntil: Date | null;
  blocked: number;
  duplicates: number;
  parts: number;
  partsMin: number;
  partsMax: number;
  encodings: string[];
  /** Bodies of the UCS-2 messages (where the characters that force it are looked for). */
  ucs2Bodies: string[];
  samples: string[];
  credits: number;
  shortOfCredits: boolean;
}

/** Carries the preview out of the transaction it rolls back. */
class PreviewRollback extends Error {
  constructor(readonly staged: Staged) {
    super('preview: rolled back');
  }
}

async function readBack(trx: Transaction<Database>, result: EnqueueResult, now: Date): Promise<Staged> {
  const ids = sql`${result.ids}::bigint[]`;
  const totals = await sql<{
    go_now: string | number; wait: string | number; wait_until: Date | string | null; blocked: string | number; duplicates: string | number;
    parts: string | number | null; parts_min: number | null; parts_max: number | null; encodings: string[] | null;
  }>`
    select count(*) filter (where state = 'queued' and not_before <= ${now}) as go_now,
           count(*) filter (where state = 'queued' and not_before > ${now}) as wait,
           max(not_before) filter (where state = 'queued' and not_before > ${now}) as wait_until,
           count(*) filter (where state = 'rejected' and status_code = ${STATUS.blacklisted}) as blocked,
           count(*) filter (where state = 'rejected' and status_code = ${STATUS.duplicate}) as duplicates,
           sum(parts) filter (where state = 'queued') as parts, min(parts) as parts_min, max(parts) as parts_max,
           array_agg(distinct encoding) filter (where encoding is not null) as encodings
    from messages where id = any(${ids})`.execute(trx);
  const t = totals.rows[0];
  const ucs2 = await sql<{ body: string }>`select body from messages where id = any(${ids}) and encoding = 'UCS-2' and body is not null`.execute(trx);
  const first = await sql<{ to_number: string; body: string }>`
    select to_number, body from messages where id = any(${ids}) and body is not null order by id limit ${SAMPLES}`.execute(trx);
  return {
    goNow: Number(t.go_now), wait: Number(t.wait), waitUntil: t.wait_until ? new Date(t.wait_until) : null,
    blocked: Number(t.blocked), duplicates: Number(t.duplicates),
    parts: Number(t.parts ?? 0), partsMin: t.parts_min ?? 0, partsMax: t.parts_max ?? 0, encodings: [...(t.encodings ?? [])].sort(),
    ucs2Bodies: ucs2.rows.map((r) => r.body), samples: first.rows.map((r) => `${r.to_number}: ${r.body}`),
    credits: result.neededCredits, shortOfCredits: result.shortOfCredits,
  };
}

/** Every launch run to the end and rolled back: what it would write, as it would write it. */
async function stagedLaunch(deps: ServerDeps, me: Session, campaign: LaunchCampaign, rows: RecipientRow[]): Promise<Staged> {
  // A WhatsApp campaign the launch would refuse (99907, 99908) is still priced: the summary names why it would be refused.
  const templateItems = await whatsappLaunchItems(deps, campaign, await channelOf(deps, campaign), rows).catch((error: unknown) => {
    if (error instanceof ApiError && (error.code === '99907' || error.code === '99908')) return null;
    throw error;
  });
  try {
    await runLaunch(deps, me, campaign, rows, 'report', templateItems, async (trx, _id, result) => {
      throw new PreviewRollback(await readBack(trx, result, deps.now()));
    });
  } catch (error) {
    if (error instanceof PreviewRollback) return error.staged;
    throw error;
  }
  throw new Error('unreachable: the preview always rolls back');
}

/** The characters the file's values bring that force UCS-2 where the campaign's own text does not. */
function ucs2FromValues(content: string, bodies: readonly string[]): { characters: string[]; rows: number } {
  const own = new Set(nonGsmCharacters(content));
  const characters = new Set<string>();
  let rows = 0;
  for (const body of bodies) {
    const added = nonGsmCharacters(body).filter((ch) => !own.has(ch));
    if (added.length) rows++;
    for (const ch of added) characters.add(ch);
  }
  return { characters: [...characters], rows };
}

/**
 * What a launch now would do, without doing it: the launch itself, rolled back. A file of more
 * sendable rows than previewStagedMax() is staged on its first rows only and the counts scaled to
 * the whole file (`estimated`): staging a million rows in one transaction would hold the embedded
 * database, and every other request, for as long as the launch itself (item 1). The
 * file's own counts (recipients, invalid rows, repeats within the file) are always exact.
 */
export async function previewCampaign(deps: ServerDeps, me: Session, campaignId: number): Promise<CampaignPreview> {
  const db = deps.db;
  const campaign = await loadCampaign(deps, me, campaignId);
  const channel = await channelOf(deps, campaign);
  const file = campaign.recipients_file_id;
  const counts = file ? await fileCounts(db, file) : { sendable: 0, invalid: 0, repeated: 0 };
  const recipients = counts.sendable;
  const max = previewStagedMax();
  const rows = file && recipients ? await sendableChunk(db, file, 0, Math.min(recipients, max)) : [];
  const staged = rows.length ? await stagedLaunch(deps, me, campaign, rows) : null;
  // Counts of the staged rows, scaled to the whole file when only its first rows were staged.
  const scale = rows.length && recipients > rows.length ? recipients / rows.length : 1;
  const scaled = (n: number) => Math.round(n * scale);
  const ucs2 = capabilitiesOf(channel.platform).segmentedText && staged ? ucs2FromValues(campaign.content, staged.ucs2Bodies) : { characters: [], rows: 0 };
  const credits = Math.ceil((staged?.credits ?? 0) * scale);
  const { balance } = await balanceOf(db, me.companyId);
  const whatsapp = await whatsappSummary(deps, campaign, channel, rows.map((r) => r.phone!));
  return {
    recipients,
    staged: rows.length,
    estimated: rows.length < recipients,
    goNow: scaled(staged?.goNow ?? 0),
    wait: scaled(staged?.wait ?? 0),
    waitUntil: staged?.waitUntil?.toISOString() ?? null,
    blocked: scaled(staged?.blocked ?? 0),
    duplicates: counts.repeated + scaled(staged?.duplicates ?? 0),
    duplicateHours: await duplicateWindowHours(db, me.companyId),
    invalid: counts.invalid,
    parts: scaled(staged?.parts ?? 0),
    partsMin: staged?.partsMin ?? 0,
    partsMax: staged?.partsMax ?? 0,
    encoding: staged?.encodings.length ? staged.encodings.join(' + ') : null,
    ucs2Characters: ucs2.characters,
    ucs2Rows: scaled(ucs2.rows),
    samples: staged?.samples ?? [],
    credits,
    balance,
    enough: !staged?.shortOfCredits && balance >= credits,
    refusedLinks: refusedLinks(campaign.content, deps.messaging.shortBaseUrls).map((l) => l.url),
    // WhatsApp: recipients outside the 24-hour window for free text, template parameters without a column.
    ...whatsapp,
    outsideWindow: scaled(whatsapp.outsideWindow),
  };
}
