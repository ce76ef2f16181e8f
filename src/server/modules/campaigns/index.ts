// Campaigns (schemas/api/campaigns.yaml, component 2001): write, upload recipients, preview,
// launch, and the edit lock that a second person approves.
import { variablesOf } from '../../../core/message-content.ts';
import type { Campaign, CampaignRecurrence } from '../../../generated/types.gen.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { checkCampaignFlow, firstRunFrom, launchCampaign, loadDeployment, previewCampaign, sendCampaignTest } from '../../../engine/campaigns/index.ts';
import { toDeployment } from '../deployments/deployment-answer.ts';
import { campaignMessages } from './messages.ts';
import { campaignQuery, checkContent, checkLength, checkSchedule, keptTemplate, toCampaign } from './records.ts';
import { campaignTests } from './campaign-tests.ts';
import { storePastedRecipients } from './recipients-paste.ts';
import { recipientRowsPage } from './recipient-rows-page.ts';
import { storeRecipientsFile } from './recipients-upload.ts';
import { editable, recipientsTarget } from './recipients-target.ts';

const nameTaken = () => failFields([fieldError('name', '99926')]);

async function getCampaign(deps: ServerDeps, me: Session, id: number): Promise<Campaign> {
  const row = await campaignQuery(deps.db, me.companyId).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw fail('99959');
  return toCampaign(row, deps.now());
}

/** The company's channel (99972 on channelId otherwise); answers its platform. */
async function checkChannel(deps: ServerDeps, me: Session, channelId: number): Promise<string> {
  const channel = await deps.db.selectFrom('channels').select(['id', 'platform']).where('id', '=', channelId).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!channel) throw failFields([fieldError('channelId', '99972')]);
  return channel.platform;
}

export const campaignsHandlers: DomainHandlers<'campaigns'> = {
  'campaigns.list': async (ctx) => {
    const me = caller(ctx);
    const now = ctx.deps.now();
    let base = campaignQuery(ctx.deps.db, me.companyId);
    if (ctx.query.kind) base = base.where('c.kind', '=', ctx.query.kind);
    if (ctx.query.label) base = base.where('c.label', '=', ctx.query.label);
    return paginate(base, ctx.query, {
      sortable: { name: 'c.name', kind: 'c.kind', createdAt: 'c.created_at', updatedAt: 'c.updated_at' },
      defaultSort: { column: 'c.created_at', order: 'desc' },
      tieBreaker: 'c.id',
      search: ['c.name'],
      map: (row) => toCampaign(row, now),
    });
  },

  'campaigns.get': async (ctx) => getCampaign(ctx.deps, caller(ctx), ctx.params.id),

  'campaigns.create': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    checkContent(b.content, ctx.deps.messaging.shortBaseUrls);
    checkSchedule(b.kind, b.scheduledAt, b.recurrence);
    checkLength(b.content, await checkChannel(ctx.deps, me, b.channelId));
    const templateId = await keptTemplate(ctx.deps.db, me.companyId, b.channelId, b.templateId);
    const flowId = await checkCampaignFlow(ctx.deps.db, me.companyId, b.flowId, b.kind);
    const now = ctx.deps.now();
    const row = await uniqueOr(() => ctx.deps.db.insertInto('campaigns').values({
      company_id: me.companyId, name: b.name.trim(), kind: b.kind, purpose: b.purpose ?? 'commercial', channel_id: b.channelId, content: b.content,
      variables: JSON.stringify(variablesOf(b.content)), template_id: templateId, scheduled_at: b.scheduledAt ?? null,
      recurrence: b.recurrence ? JSON.stringify(b.recurrence) : null, max_complete_interactions: b.maxCompleteInteractions ?? null, flow_id: flowId,
      next_run_at: b.kind === 'recurring' && b.recurrence ? firstRunFrom(b.recurrence, now) : null,
      created_by: me.userId, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow(), nameTaken);
    return getCampaign(ctx.deps, me, row.id);
  },

  'campaigns.update': async (ctx) => {
    const me = caller(ctx);
    const current = await editable(ctx.deps, me, ctx.params.id);
    const b = ctx.body;
    if (b.content !== undefined) checkContent(b.content, ctx.deps.messaging.shortBaseUrls);
    checkSchedule(b.kind ?? current.kind, b.scheduledAt === undefined ? current.scheduled_at?.toISOString() : b.scheduledAt, b.recurrence === undefined ? current.recurrence : b.recurrence);
    // The content against the channel it will go through: the new one, or the campaign's own.
    if (b.channelId !== undefined) checkLength(b.content ?? current.content, await checkChannel(ctx.deps, me, b.channelId));
    else if (b.content !== undefined) {
      const own = current.channel_id === null ? undefined : await ctx.deps.db.selectFrom('channels').select('platform').where('id', '=', current.channel_id).executeTakeFirst();
      checkLength(b.content, own?.platform ?? null);
    }
    const set: Record<string, unknown> = { updated_at: ctx.deps.now() };
    if (b.name !== undefined) set.name = b.name.trim();
    if (b.kind !== undefined) set.kind = b.kind;
    if (b.purpose !== undefined) set.purpose = b.purpose;
    if (b.channelId !== undefined) set.channel_id = b.channelId;
    if (b.content !== undefined) { set.content = b.content; set.variables = JSON.stringify(variablesOf(b.content)); }
    if (b.scheduledAt !== undefined) set.scheduled_at = b.scheduledAt;
    if (b.recurrence !== undefined) set.recurrence = b.recurrence ? JSON.stringify(b.recurrence) : null;
    // An edited rule (or kind) moves the run the scheduler waits for: the new rule's first run from now.
    if (b.recurrence !== undefined || b.kind !== undefined) {
      const kind = b.kind ?? current.kind;
      const rule = (b.recurrence === undefined ? current.recurrence : b.recurrence) as CampaignRecurrence | null;
      set.next_run_at = kind === 'recurring' && rule ? firstRunFrom(rule, ctx.deps.now()) : null;
    }
    if (b.maxCompleteInteractions !== undefined) set.max_complete_interactions = b.maxCompleteInteractions;
    // The flow against the campaign's kind as it will be (a call flow may not be scheduled: 99990).
    if (b.flowId !== undefined || (b.kind !== undefined && current.flow_id !== null)) set.flow_id = await checkCampaignFlow(ctx.deps.db, me.companyId, b.flowId === undefined ? current.flow_id : b.flowId, b.kind ?? current.kind);
    // The template follows a new channel or a new choice; its parameters' columns are the user's.
    if (b.templateId !== undefined || b.channelId !== undefined) set.template_id = await keptTemplate(ctx.deps.db, me.companyId, b.channelId ?? current.channel_id!, b.templateId === undefined ? current.template_id : b.templateId, b.templateId === undefined ? 'drop' : 'refuse');
    if (b.templateMapping !== undefined) set.template_mapping = JSON.stringify(b.templateMapping);
    await uniqueOr(() => ctx.deps.db.updateTable('campaigns').set(set).where('id', '=', current.id).where('company_id', '=', me.companyId).execute(), nameTaken);
    return getCampaign(ctx.deps, me, current.id);
  },

  'campaigns.delete': async (ctx) => {
    const me = caller(ctx);
    const row = await editable(ctx.deps, me, ctx.params.id);
    const running = await ctx.deps.db.selectFrom('deployments').select('id').where('campaign_id', '=', row.id).where('state', 'in', ['running', 'paused', 'scheduled']).executeTakeFirst();
    if (running) throw fail('99984');
    await ctx.deps.db.deleteFrom('campaigns').where('id', '=', row.id).where('company_id', '=', me.companyId).execute();
    return { ok: true as const };
  },

  'campaigns.uploadRecipients': async (ctx) => {
    const me = caller(ctx);
    return storeRecipientsFile(ctx.deps.db, ctx.request, await recipientsTarget(ctx.deps, me, ctx.params.id), me.userId, ctx.deps.now());
  },

  'campaigns.pasteRecipients': async (ctx) => {
    const me = caller(ctx);
    return storePastedRecipients(ctx.deps.db, ctx.body.numbers, await recipientsTarget(ctx.deps, me, ctx.params.id), me.userId, ctx.deps.now());
  },

  'campaigns.recipients': async (ctx) => {
    const me = caller(ctx);
    const campaign = await getCampaign(ctx.deps, me, ctx.params.id);
    const fileId = (await ctx.deps.db.selectFrom('campaigns').select('recipients_file_id').where('id', '=', campaign.id).executeTakeFirstOrThrow()).recipients_file_id;
    const mapped = campaign.templateId === null ? [] : [...new Set(Object.values(campaign.templateMapping))];
    return recipientRowsPage(ctx.deps.db, fileId, ctx.query, mapped);
  },

  'campaigns.preview': async (ctx) => previewCampaign(ctx.deps, caller(ctx), ctx.params.id),

  'campaigns.messages': campaignMessages,

  'campaigns.sendTest': async (ctx) => sendCampaignTest(ctx.deps, caller(ctx), ctx.params.id, ctx.body.phones),

  'campaigns.tests': campaignTests,

  'campaigns.launch': async (ctx) => {
    const me = caller(ctx);
    const id = await launchCampaign(ctx.deps, me, ctx.params.id);
    const db = ctx.deps.db;
    return toDeployment(db, await loadDeployment(db, me.companyId, id));
  },

  'campaigns.requestLock': async (ctx) => {
    const me = caller(ctx);
    const wanted = ctx.body.lock ? 'pendinglockForEdit' : 'pendingunlockForEdit';
    const from = ctx.body.lock ? 'unlockedForEdit' : 'lockedForEdit';
    const changed = await ctx.deps.db.updateTable('campaigns').set({ edit_lock: wanted, lock_requested_by: me.userId, updated_at: ctx.deps.now() })
      .where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).where('edit_lock', '=', from).executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) {
      await getCampaign(ctx.deps, me, ctx.params.id); // 99959 when it is not ours
      throw fail('99984');
    }
    return getCampaign(ctx.deps, me, ctx.params.id);
  },

  'campaigns.approveLock': async (ctx) => {
    const me = caller(ctx);
    const row = await ctx.deps.db.selectFrom('campaigns').select(['id', 'edit_lock', 'lock_requested_by']).where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!row) throw fail('99959');
    if (!row.edit_lock.startsWith('pending')) throw fail('99984');
    if (row.lock_requested_by === me.userId) throw fail('99923');
    const next = row.edit_lock === 'pendinglockForEdit' ? 'lockedForEdit' : 'unlockedForEdit';
    await ctx.deps.db.updateTable('campaigns').set({ edit_lock: next, lock_requested_by: null, updated_at: ctx.deps.now() })
      .where('id', '=', row.id).where('edit_lock', '=', row.edit_lock).execute();
    return getCampaign(ctx.deps, me, row.id);
  },
};

