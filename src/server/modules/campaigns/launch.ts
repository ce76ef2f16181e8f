// Launching a campaign: one deployment, its messages rendered from the file's sendable rows and
// created through the one send step (messaging/send-messages.ts: block list, duplicates, credits,
// send window), all in one transaction: when the credits do not cover it (99986) nothing is created.
import { sql, type Kysely } from 'kysely';
import { entryBlocksSql, sqlInstant } from '../../../core/block-list.ts';
import { refusedLinks, render } from '../../../core/message-content.ts';
import { createDeployment, recordDeploymentTotals } from '../../../engine/lifecycle/deployments.ts';
import { InsufficientCreditsError, messageCost, type EnqueueItem, type Purpose } from '../../../engine/lifecycle/enqueue.ts';
import type { ChannelPlatform } from '../../../engine/channel-adapter.ts';
import type { Database } from '../../../engine/database.ts';
import { balanceOf } from '../../../engine/credits.ts';
import type { CampaignPreview } from '../../../generated/types.gen.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { fail } from '../../errors/api-error.ts';
import { sendMessages } from '../../messaging/send-messages.ts';
import { childCodes, contentLinks, personalise } from '../shortener/links.ts';
import { whatsappLaunchItems, whatsappSummary, withTemplateValues } from './whatsapp-campaign.ts';

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

export async function launchCampaign(deps: ServerDeps, me: Session, campaignId: number): Promise<number> {
  const db = deps.db;
  const campaign = await deps.db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!campaign) throw fail('99959');
  if (campaign.label !== 'Active') throw fail('99984');
  const channel = await channelOf(deps, campaign);
  if (!campaign.recipients_file_id) throw fail('99985', 'The campaign has no recipients file yet.');
  const rows = await sendableRows(db, campaign.recipients_file_id);
  if (!rows.length) throw fail('99985', 'The recipients file has no sendable rows.');
  // WhatsApp (issue 12): the template's messages, or null for free text (refused outside the 24-hour window).
  const templateItems = await whatsappLaunchItems(deps, campaign, channel, rows);
  const now = deps.now();
  const at = campaign.kind === 'scheduled' && campaign.scheduled_at && campaign.scheduled_at > now ? campaign.scheduled_at : now;
  // Shortener (issue 5): the company's short links in the content (99925 for any other link of ours).
  const links = await contentLinks(deps, me.companyId, campaign.content);
  const purpose = campaign.purpose as Purpose;
  try {
    const deploymentId = await sendMessages(deps, {
      companyId: me.companyId, channel, purpose, source: 'campaign', createdBy: me.userId, now, at, onInsufficientCredits: 'throw',
    }, async (trx, enqueue) => {
      const id = await createDeployment(trx, { companyId: me.companyId, campaignId: campaign.id, channelId: channel.id, purpose, at, createdBy: me.userId, now });
      // Shortener (issue 5): each recipient gets their own child code of every link, set-based, in this transaction.
      const codes = links.length
        ? await childCodes(trx, { companyId: me.companyId, campaignId: campaign.id, createdBy: me.userId, now, links, phones: rows.map((r) => r.phone!) })
        : null;
      const result = await enqueue(templateItems ?? itemsOf(campaign.content, rows, codes ? (body, phone) => personalise(body, links, codes, phone) : undefined), id);
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

/** What a launch now would do, without doing it. */
export async function previewCampaign(deps: ServerDeps, me: Session, campaignId: number): Promise<CampaignPreview> {
  const db = deps.db;
  const campaign = await deps.db.selectFrom('campaigns').selectAll().where('id', '=', campaignId).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!campaign) throw fail('99959');
  const channel = await channelOf(deps, campaign);
  const now = deps.now();
  const file = campaign.recipients_file_id;
  const all = file ? await db.selectFrom('recipient_rows').select(['phone', 'variables', 'send', 'result']).where('file_id', '=', file).execute() : [];
  const sendable = all.filter((r) => r.send && r.phone);
  const invalid = all.filter((r) => r.result === 'fail' || r.result === 'error').length;
  const duplicatesInFile = all.filter((r) => !r.send && (r.result === 'pass' || r.result === 'warn')).length;
  const blockedRows = sendable.length
    ? await db.selectFrom('block_list').select('phone').where('company_id', '=', me.companyId)
      .where(sql<boolean>`${sql.raw(entryBlocksSql('block_list', sqlInstant(now)))}`)
      .where('phone', 'in', [...new Set(sendable.map((r) => r.phone!))]).execute()
    : [];
  const blocked = new Set(blockedRows.map((b) => b.phone));
  const going = sendable.filter((r) => !blocked.has(r.phone!));
  let credits = 0;
  let parts = 0;
  let encoding: string | null = null;
  for (const r of going) {
    const priced = messageCost(channel.platform, render(campaign.content, withTemplateValues(campaign, r.variables), { allowEmpty: true }));
    credits += priced.cost;
    if (priced.parts >= parts) { parts = priced.parts; encoding = priced.encoding; }
  }
  const at = campaign.kind === 'scheduled' && campaign.scheduled_at && campaign.scheduled_at > now ? campaign.scheduled_at : now;
  const windowAt = campaign.purpose === 'commercial' ? await deps.messaging.sendWindow(me.companyId, at) : null;
  const { balance } = await balanceOf(db, me.companyId);
  return {
    recipients: sendable.length,
    goNow: windowAt || at > now ? 0 : going.length,
    wait: windowAt || at > now ? going.length : 0,
    waitUntil: windowAt ? windowAt.toISOString() : at > now ? at.toISOString() : null,
    blocked: sendable.length - going.length,
    duplicates: duplicatesInFile,
    invalid,
    parts,
    encoding,
    credits,
    balance,
    enough: balance >= credits,
    refusedLinks: refusedLinks(campaign.content, deps.messaging.shortBaseUrls).map((l) => l.url),
    // WhatsApp (issue 12): recipients outside the 24-hour window for free text, template parameters without a column.
    ...(await whatsappSummary(deps, campaign, channel, sendable.map((r) => r.phone!))),
  };
}
