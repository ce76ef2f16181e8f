// Launching a campaign: one deployment, its messages rendered from the file's sendable rows and
// created through the one send step (messaging/send-messages.ts: the refusal rules, credits, send
// window), all in one transaction: when the credits do not cover it (99986) nothing is created.
// The preview (the detail's summary tab) is the same launch, run to the end in a transaction that
// is then rolled back (issue 12): every decision it shows (block list, duplicates against what was
// already sent, the send window, the credits, the parts of each rendered message) is the one the
// launch would make, read from the rows the launch itself wrote.
import { sql, type Kysely, type Transaction } from 'kysely';
import { refusedLinks, render } from '../../../core/message-content.ts';
import { nonGsmCharacters } from '../../../core/sms-parts.ts';
import { createDeployment, recordDeploymentTotals } from '../../../engine/lifecycle/deployments.ts';
import { InsufficientCreditsError, type EnqueueItem, type EnqueueResult, type Purpose } from '../../../engine/lifecycle/enqueue.ts';
import { STATUS } from '../../../engine/lifecycle/message-states.ts';
import type { ChannelPlatform } from '../../../engine/channel-adapter.ts';
import type { Database } from '../../../engine/database.ts';
import { balanceOf } from '../../../engine/credits.ts';
import type { CampaignPreview } from '../../../generated/types.gen.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { fail } from '../../errors/api-error.ts';
import { duplicateWindowHours } from '../../messaging/duplicate-window.ts';
import { sendMessages } from '../../messaging/send-messages.ts';
import { ApiError } from '../../errors/api-error.ts';
import { childCodes, contentLinks, personalise } from '../shortener/links.ts';
import { whatsappLaunchItems, whatsappSummary, withTemplateValues } from './whatsapp-campaign.ts';

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

async function sendableRows(db: Kysely<Database>, fileId: number) {
  return db.selectFrom('recipient_rows').select(['phone', 'variables']).where('file_id', '=', fileId).where('send', '=', true)
    .where('phone', 'is not', null).orderBy('row_no').execute();
}

function itemsOf(content: string, rows: { phone: string | null; variables: Record<string, string> }[], perRecipient?: (body: string, phone: string) => string): EnqueueItem[] {
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
  deps: ServerDeps, me: Session, campaign: LaunchCampaign, rows: Awaited<ReturnType<typeof sendableRows>>,
  onInsufficientCredits: 'throw' | 'report',
  /** A WhatsApp template campaign's messages (whatsapp-campaign.ts), or null: the content rendered per row. */
  templateItems: EnqueueItem[] | null,
  finish: (trx: Transaction<Database>, deploymentId: number, result: EnqueueResult) => Promise<T>,
): Promise<T> {
  const channel = await channelOf(deps, campaign);
  const now = deps.now();
  const at = plannedAt(campaign, now);
  // Shortener (issue 5): the company's short links in the content (99925 for any other link of ours).
  const links = await contentLinks(deps, me.companyId, campaign.content);
  const purpose = campaign.purpose as Purpose;
  return sendMessages(deps, {
    companyId: me.companyId, channel, purpose, source: 'campaign', createdBy: me.userId, now, at, onInsufficientCredits,
  }, async (trx, enqueue) => {
    const id = await createDeployment(trx, { companyId: me.companyId, campaignId: campaign.id, channelId: channel.id, purpose, at, createdBy: me.userId, now });
    // Shortener (issue 5): each recipient gets their own child code of every link, set-based, in this transaction.
    const codes = links.length
      ? await childCodes(trx, { companyId: me.companyId, campaignId: campaign.id, createdBy: me.userId, now, links, phones: rows.map((r) => r.phone!) })
      : null;
    // A template campaign the launch would refuse is still priced by its text, each parameter filled from its mapped column (empty when unmapped).
    const textRows = campaign.template_id === null ? rows : rows.map((r) => ({ ...r, variables: withTemplateValues(campaign, r.variables) }));
    const result = await enqueue(templateItems ?? itemsOf(campaign.content, textRows, codes ? (body, phone) => personalise(body, links, codes, phone) : undefined), id);
    return finish(trx, id, result);
  });
}

export async function launchCampaign(deps: ServerDeps, me: Session, campaignId: number): Promise<number> {
  const campaign = await loadCampaign(deps, me, campaignId);
  if (campaign.label !== 'Active') throw fail('99984');
  const channel = await channelOf(deps, campaign);
  if (!campaign.recipients_file_id) throw fail('99985', 'The campaign has no recipients file yet.');
  const rows = await sendableRows(deps.db, campaign.recipients_file_id);
  if (!rows.length) throw fail('99985', 'The recipients file has no sendable rows.');
  // WhatsApp (issue 12): the template's messages, or null for free text (refused outside the 24-hour window: 99907; a parameter without its column: 99908).
  const templateItems = await whatsappLaunchItems(deps, campaign, channel, rows);
  try {
    const deploymentId = await runLaunch(deps, me, campaign, rows, 'throw', templateItems, async (trx, id, result) => {
      await recordDeploymentTotals(trx, id, result.ids.length, result.reservedCredits);
      return id;
    });
    deps.messaging.wake();
    return deploymentId;
  } catch (error) {
    if (error instanceof InsufficientCreditsError) throw fail('99986');
    throw error;
  }
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
async function stagedLaunch(deps: ServerDeps, me: Session, campaign: LaunchCampaign, rows: Awaited<ReturnType<typeof sendableRows>>): Promise<Staged> {
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

/** What a launch now would do, without doing it: the launch itself, rolled back. */
export async function previewCampaign(deps: ServerDeps, me: Session, campaignId: number): Promise<CampaignPreview> {
  const db = deps.db;
  const campaign = await loadCampaign(deps, me, campaignId);
  const channel = await channelOf(deps, campaign);
  const file = campaign.recipients_file_id;
  const all = file ? await db.selectFrom('recipient_rows').select(['send', 'result']).where('file_id', '=', file).execute() : [];
  const invalid = all.filter((r) => r.result === 'fail' || r.result === 'error').length;
  const duplicatesInFile = all.filter((r) => !r.send && (r.result === 'pass' || r.result === 'warn')).length;
  const rows = file ? await sendableRows(db, file) : [];
  const staged = rows.length ? await stagedLaunch(deps, me, campaign, rows) : null;
  const ucs2 = channel.platform === 'sms' && staged ? ucs2FromValues(campaign.content, staged.ucs2Bodies) : { characters: [], rows: 0 };
  const credits = staged?.credits ?? 0;
  const { balance } = await balanceOf(db, me.companyId);
  return {
    recipients: rows.length,
    goNow: staged?.goNow ?? 0,
    wait: staged?.wait ?? 0,
    waitUntil: staged?.waitUntil?.toISOString() ?? null,
    blocked: staged?.blocked ?? 0,
    duplicates: duplicatesInFile + (staged?.duplicates ?? 0),
    duplicateHours: await duplicateWindowHours(db, me.companyId),
    invalid,
    parts: staged?.parts ?? 0,
    partsMin: staged?.partsMin ?? 0,
    partsMax: staged?.partsMax ?? 0,
    encoding: staged?.encodings.length ? staged.encodings.join(' + ') : null,
    ucs2Characters: ucs2.characters,
    ucs2Rows: ucs2.rows,
    samples: staged?.samples ?? [],
    credits,
    balance,
    enough: !staged?.shortOfCredits && balance >= credits,
    refusedLinks: refusedLinks(campaign.content, deps.messaging.shortBaseUrls).map((l) => l.url),
    // WhatsApp (issue 12): recipients outside the 24-hour window for free text, template parameters without a column.
    ...(await whatsappSummary(deps, campaign, channel, rows.map((r) => r.phone!))),
  };
}
