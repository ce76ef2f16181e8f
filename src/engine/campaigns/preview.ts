// The preview (the detail's summary tab) is the same launch, run to the end in a transaction that
// is then rolled back: every decision it shows (block list, duplicates against what was
// already sent, the send window, the credits, the parts of each rendered message) is the one the
// launch would make, read from the rows the launch itself wrote.
import { sql, type Transaction } from 'kysely';
import { refusedLinks } from '../../core/message-content.ts';
import { nonGsmCharacters } from '../../core/sms-parts.ts';
import type { CampaignPreview } from '../../generated/types.gen.ts';
import { capabilitiesOf, EMPTY_PARAMETER_CODE } from '../channels/index.ts';
import { balanceOf } from '../credits.ts';
import type { Database } from '../database.ts';
import { createDeployment, STATUS, type EnqueueItem, type EnqueueResult, type Purpose } from '../lifecycle/index.ts';
import { Refused } from '../refused.ts';
import type { Caller, CampaignDeps } from './deps.ts';
import { channelOf, fileCounts, loadCampaign, plannedAt, sendableChunk, sendablePhones, sendRequest, writeChunk, type LaunchCampaign, type LaunchPlan, type RecipientRow } from './launch-plan.ts';
import { contentLinks } from './links.ts';
import { duplicateWindowHours, sendMessages } from './send.ts';
import { priceRowsAfter } from './preview-pricing.ts';
import { previewStagedMax } from './settings.ts';
import { whatsappLaunchItems, whatsappSummary } from './whatsapp.ts';

/** Rendered messages the summary shows as they would go. */
const SAMPLES = 3;

/**
 * The launch as the preview runs it: the deployment and the rows' messages written by the
 * launch's own chunk writer (the recipients' short codes, the enqueue and every decision), then
 * the transaction handed to `finish`, which reads the rows back and rolls back. Conversations are
 * not staged: the summary counts messages, and a flow is checked when the launch runs.
 */
async function runLaunch<T>(
  deps: CampaignDeps, me: Caller, campaign: LaunchCampaign, rows: RecipientRow[],
  /** A WhatsApp template campaign's messages (whatsapp.ts), or null: the content rendered per row. */
  templateItems: EnqueueItem[] | null,
  finish: (trx: Transaction<Database>, deploymentId: number, result: EnqueueResult) => Promise<T>,
): Promise<T> {
  const channel = await channelOf(deps, campaign);
  const now = deps.now();
  // Shortener: the company's short links in the content (99925 for any other link of ours).
  const links = await contentLinks(deps, me.companyId, campaign.content);
  const plan: LaunchPlan = {
    deploymentId: 0, companyId: me.companyId, campaign: { ...campaign, flow_id: null }, fileId: campaign.recipients_file_id ?? 0, channel,
    purpose: campaign.purpose as Purpose, createdBy: me.userId, now, at: plannedAt(campaign, now), links,
  };
  // Short of credits, the preview still stages every message and says so (the launch refuses, 99986).
  return sendMessages(deps, { ...sendRequest(plan), onInsufficientCredits: 'report' }, async (trx, enqueue) => {
    const id = await createDeployment(trx, { companyId: me.companyId, campaignId: campaign.id, channelId: channel.id, purpose: plan.purpose, at: plan.at, createdBy: me.userId, now });
    return finish(trx, id, await writeChunk(trx, enqueue, { ...plan, deploymentId: id }, rows, templateItems));
  });
}

/** What the rolled-back launch wrote, summed in SQL (a file can hold 100,000 rows). */
interface Staged {
  goNow: number;
  wait: number;
  waitUntil: Date | null;
  blocked: number;
  duplicates: number;
  /** Template messages refused for an empty parameter (lifecycle/refusal-rules.ts). */
  emptyParameters: number;
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
    go_now: string | number; wait: string | number; wait_until: Date | string | null; blocked: string | number; duplicates: string | number; empty_parameters: string | number;
    parts: string | number | null; parts_min: number | null; parts_max: number | null; encodings: string[] | null;
  }>`
    select count(*) filter (where state = 'queued' and not_before <= ${now}) as go_now,
           count(*) filter (where state = 'queued' and not_before > ${now}) as wait,
           max(not_before) filter (where state = 'queued' and not_before > ${now}) as wait_until,
           count(*) filter (where state = 'rejected' and status_code = ${STATUS.blacklisted}) as blocked,
           count(*) filter (where state = 'rejected' and status_code = ${STATUS.duplicate}) as duplicates,
           count(*) filter (where state = 'rejected' and error_code = ${EMPTY_PARAMETER_CODE}) as empty_parameters,
           sum(parts) filter (where state = 'queued') as parts, min(parts) as parts_min, max(parts) as parts_max,
           array_agg(distinct encoding) filter (where encoding is not null) as encodings
    from messages where id = any(${ids})`.execute(trx);
  const t = totals.rows[0];
  const ucs2 = await sql<{ body: string }>`select body from messages where id = any(${ids}) and encoding = 'UCS-2' and body is not null`.execute(trx);
  const first = await sql<{ to_number: string; body: string }>`
    select to_number, body from messages where id = any(${ids}) and body is not null order by id limit ${SAMPLES}`.execute(trx);
  return {
    goNow: Number(t.go_now), wait: Number(t.wait), waitUntil: t.wait_until ? new Date(t.wait_until) : null,
    blocked: Number(t.blocked), duplicates: Number(t.duplicates), emptyParameters: Number(t.empty_parameters),
    parts: Number(t.parts ?? 0), partsMin: t.parts_min ?? 0, partsMax: t.parts_max ?? 0, encodings: [...(t.encodings ?? [])].sort(),
    ucs2Bodies: ucs2.rows.map((r) => r.body), samples: first.rows.map((r) => `${r.to_number}: ${r.body}`),
    credits: result.neededCredits, shortOfCredits: result.shortOfCredits,
  };
}

/** Every launch run to the end and rolled back: what it would write, as it would write it. */
async function stagedLaunch(deps: CampaignDeps, me: Caller, campaign: LaunchCampaign, rows: RecipientRow[]): Promise<Staged> {
  // A WhatsApp campaign the launch would refuse (99907, 99908) is still priced: the summary names why it would be refused.
  const templateItems = await whatsappLaunchItems(deps, campaign, await channelOf(deps, campaign), rows).catch((error: unknown) => {
    if (error instanceof Refused && (error.code === '99907' || error.code === '99908')) return null;
    throw error;
  });
  try {
    await runLaunch(deps, me, campaign, rows, templateItems, async (trx, _id, result) => {
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
 * What a launch now would do, without doing it: the launch itself, rolled back, over the file's
 * first previewStagedMax() sendable rows (staging a million rows in one transaction would hold the
 * embedded database, and every other request, for as long as the launch itself). The rows past
 * them are priced one by one as the launch would price them (preview-pricing.ts): the credits,
 * parts and refusals of the whole file are its own, never the first rows' scaled. The file's own
 * counts (recipients, invalid rows, repeats within the file) are always exact.
 */
export async function previewCampaign(deps: CampaignDeps, me: Caller, campaignId: number): Promise<CampaignPreview> {
  const db = deps.db;
  const campaign = await loadCampaign(deps, me, campaignId);
  const channel = await channelOf(deps, campaign);
  const file = campaign.recipients_file_id;
  const counts = file ? await fileCounts(db, file) : { sendable: 0, invalid: 0, repeated: 0 };
  const recipients = counts.sendable;
  const max = previewStagedMax();
  const rows = file && recipients ? await sendableChunk(db, file, 0, Math.min(recipients, max)) : [];
  const staged = rows.length ? await stagedLaunch(deps, me, campaign, rows) : null;
  const hours = await duplicateWindowHours(db, me.companyId);
  // The rows past the staged ones, priced as the launch would price them.
  const rest = file && rows.length && recipients > rows.length
    ? await priceRowsAfter(deps, { campaign, companyId: me.companyId, channel, fileId: file, links: await contentLinks(deps, me.companyId, campaign.content), duplicateWindowHours: hours }, rows[rows.length - 1].row_no)
    : null;
  const capabilities = capabilitiesOf(channel.platform);
  const segmented = capabilities.segmentedText;
  const stagedUcs2 = segmented && staged ? ucs2FromValues(campaign.content, staged.ucs2Bodies) : { characters: [], rows: 0 };
  const ucs2 = { characters: [...new Set([...stagedUcs2.characters, ...(segmented && rest ? rest.ucs2Characters : [])])], rows: stagedUcs2.rows + (segmented && rest ? rest.ucs2Rows : 0) };
  const credits = (staged?.credits ?? 0) + (rest?.credits ?? 0);
  const { balance } = await balanceOf(db, me.companyId);
  // The 24-hour window is asked for every recipient, staged or not.
  const windowPhones = rest && capabilities.customerServiceWindow ? await sendablePhones(db, file!) : rows.map((r) => r.phone!);
  const whatsapp = await whatsappSummary(deps, campaign, channel, windowPhones);
  // Every message that goes shares one decision of the send window (the same planned instant): the rest go or wait with the staged ones.
  const restWaits = !!staged && staged.wait > 0 && staged.goNow === 0;
  const encodings = [...new Set([...(staged?.encodings ?? []), ...(rest?.encodings ?? [])])].sort();
  const parts = (of: (p: { partsMin: number; partsMax: number }) => number, pick: (a: number, b: number) => number) =>
    staged && rest?.going ? pick(of(staged), of(rest)) : staged ? of(staged) : 0;
  return {
    recipients,
    staged: rows.length,
    estimated: false,
    goNow: (staged?.goNow ?? 0) + (rest && !restWaits ? rest.going : 0),
    wait: (staged?.wait ?? 0) + (rest && restWaits ? rest.going : 0),
    waitUntil: staged?.waitUntil?.toISOString() ?? null,
    blocked: (staged?.blocked ?? 0) + (rest?.blocked ?? 0),
    duplicates: counts.repeated + (staged?.duplicates ?? 0) + (rest?.duplicates ?? 0),
    duplicateHours: hours,
    invalid: counts.invalid,
    // Facts of a channel type only where it has them: parts and UCS-2 on SMS, the window and template cells on WhatsApp.
    parts: segmented ? (staged?.parts ?? 0) + (rest?.parts ?? 0) : null,
    partsMin: segmented ? parts((p) => p.partsMin, Math.min) : null,
    partsMax: segmented ? parts((p) => p.partsMax, Math.max) : null,
    encoding: encodings.length ? encodings.join(' + ') : null,
    ucs2Characters: ucs2.characters,
    ucs2Rows: segmented ? ucs2.rows : null,
    samples: staged?.samples ?? [],
    credits,
    balance,
    enough: !staged?.shortOfCredits && balance >= credits,
    refusedLinks: refusedLinks(campaign.content, deps.messaging.shortBaseUrls).map((l) => l.url),
    // WhatsApp: recipients outside the 24-hour window for free text, template parameters without a column.
    ...whatsapp,
    outsideWindow: capabilities.customerServiceWindow ? whatsapp.outsideWindow : null,
    emptyParameters: capabilities.templates ? (staged?.emptyParameters ?? 0) + (rest?.emptyParameters ?? 0) : null,
  };
}
