// What a launch is made of, shared by the launch, its job's steps and the preview: the campaign
// as the launch reads it, its channel, the file's sendable rows in chunks, and one chunk's
// messages written in the caller's transaction (the recipients' short codes, then the engine's
// enqueue, which decides every message, then each recipient's conversation when the campaign
// carries a flow).
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { render } from '../../core/message-content.ts';
import type { ChannelPlatform } from '../channel-adapter.ts';
import { flowVersions, startCampaignConversations } from '../conversations/index.ts';
import type { Database } from '../database.ts';
import type { EnqueueItem, EnqueueResult, Purpose } from '../lifecycle/index.ts';
import { refuse } from '../refused.ts';
import type { Caller, CampaignDeps } from './deps.ts';
import { childCodes, personalise, type ContentLink } from './links.ts';
import type { Enqueue } from './send.ts';
import { withTemplateValues } from './whatsapp.ts';

export interface LaunchCampaign {
  /** null: a file launched without a campaign (its rows carry the message). */
  id: number | null;
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

/** A campaign is launched (or tried) while Active, or again once Aborted (its run cancelled); an Executed series is over. */
export const LAUNCHABLE_LABELS: readonly string[] = ['Active', 'Aborted'];

export async function loadCampaign(deps: CampaignDeps, me: Caller, campaignId: number): Promise<LaunchCampaign> {
  const campaign = await deps.db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!campaign) throw refuse('99959');
  return campaign;
}

export async function channelOf(deps: Pick<CampaignDeps, 'db'>, campaign: LaunchCampaign): Promise<{ id: number; platform: ChannelPlatform }> {
  if (!campaign.channel_id) throw refuse('99985');
  const channel = await deps.db.selectFrom('channels').select(['id', 'platform', 'enabled'])
    .where('id', '=', campaign.channel_id).where('company_id', '=', campaign.company_id).executeTakeFirst();
  if (!channel || !channel.enabled) throw refuse('99972');
  return { id: channel.id, platform: channel.platform as ChannelPlatform };
}

/** A sendable row of the recipients file, as the launch renders it. */
export type RecipientRow = { phone: string | null; variables: Record<string, string> };

/** A row the launch sends: kept by the file's checks (not a repeat, not failed) and with a number. */
export const isSendable = (eb: ExpressionBuilder<Database, 'recipient_rows'>) => eb.and([eb('send', '=', true), eb('phone', 'is not', null)]);

/** The file's own counts, in one pass: rows the launch sends, rows that cannot be sent, numbers repeated within the file. */
export async function fileCounts(db: Kysely<Database>, fileId: number): Promise<{ sendable: number; invalid: number; repeated: number }> {
  const counts = await db.selectFrom('recipient_rows').where('file_id', '=', fileId).select((eb) => [
    eb.fn.countAll<string | number>().filterWhere(isSendable).as('sendable'),
    eb.fn.countAll<string | number>().filterWhere('result', 'in', ['fail', 'error']).as('invalid'),
    eb.fn.countAll<string | number>().filterWhere((w) => w.and([w('send', '=', false), w('result', 'in', ['pass', 'warn'])])).as('repeated'),
  ]).executeTakeFirstOrThrow();
  return { sendable: Number(counts.sendable), invalid: Number(counts.invalid), repeated: Number(counts.repeated) };
}

/**
 * The messages of a chunk of rows as the launch sends them: a WhatsApp template campaign's
 * template messages (whatsapp.ts), else the content rendered with each row's values (and a
 * template's parameters filled), each body passed through `perRecipient` (its short links).
 */
export function messagesOf(campaign: LaunchCampaign, rows: RecipientRow[], templateItems: EnqueueItem[] | null, perRecipient?: (body: string, phone: string) => string): EnqueueItem[] {
  if (templateItems) return templateItems;
  const textRows = campaign.template_id === null ? rows : rows.map((r) => ({ ...r, variables: withTemplateValues(campaign, r.variables) }));
  return itemsOf(campaign.content, textRows, perRecipient);
}

function itemsOf(content: string, rows: RecipientRow[], perRecipient?: (body: string, phone: string) => string): EnqueueItem[] {
  return rows.map((r) => {
    const body = render(content, r.variables, { allowEmpty: true });
    return { to: r.phone!, body: perRecipient ? perRecipient(body, r.phone!) : body };
  });
}

/** The instant a launch at `now` plans its messages for: a scheduled campaign's future instant, else now (a recurring campaign's Launch runs it now; its schedule runs the rest). */
export const plannedAt = (campaign: Pick<LaunchCampaign, 'kind' | 'scheduled_at'>, now: Date) =>
  campaign.kind === 'scheduled' && campaign.scheduled_at && campaign.scheduled_at > now ? campaign.scheduled_at : now;

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

/** Every sendable row's number, in file order. */
export async function sendablePhones(db: Kysely<Database>, fileId: number): Promise<string[]> {
  const rows = await db.selectFrom('recipient_rows').select('phone').where('file_id', '=', fileId).where(isSendable).orderBy('row_no').execute();
  return rows.map((r) => r.phone!);
}

/** The sendable rows after `cursor` (a row_no), in file order, at most `limit`. */
export async function sendableChunk(db: Kysely<Database>, fileId: number, cursor: number, limit: number) {
  return db.selectFrom('recipient_rows').select(['row_no', 'phone', 'variables']).where('file_id', '=', fileId).where(isSendable)
    .where('row_no', '>', cursor).orderBy('row_no').limit(limit).execute();
}

/** One chunk's messages, written in the caller's transaction: the recipients' short codes, then the enqueue (every decision). */
export async function writeChunk(trx: Transaction<Database>, enqueue: Enqueue, plan: LaunchPlan, rows: RecipientRow[], templateItems: EnqueueItem[] | null): Promise<EnqueueResult> {
  const { campaign, links } = plan;
  // Short links are the campaign's (a file without a campaign names none: its content is a column).
  const codes = links.length && campaign.id !== null
    ? await childCodes(trx, { companyId: plan.companyId, campaignId: campaign.id, createdBy: plan.createdBy, now: plan.now, links, phones: rows.map((r) => r.phone!) })
    : null;
  const result = await enqueue(messagesOf(campaign, rows, templateItems, codes ? (body, phone) => personalise(body, links, codes, phone) : undefined), plan.deploymentId);
  if (campaign.flow_id && campaign.id !== null) {
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

export const sendRequest = (plan: LaunchPlan) => ({
  companyId: plan.companyId, channel: plan.channel, purpose: plan.purpose, source: 'campaign' as const, createdBy: plan.createdBy,
  now: plan.now, at: plan.at, onInsufficientCredits: 'throw' as const,
});

