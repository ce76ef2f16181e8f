// Message templates (schemas/api/templates.yaml, component 2002): reusable content with its
// purpose for one channel type. WhatsApp templates go to Meta for review through one of the
// company's WhatsApp channels (deps.messaging.whatsappTemplates) and wait in PENDING until Meta's
// webhook answers (status.ts); the other channels' templates need no review (APPROVED at once).
//
// A submission is written first (so the name is taken and a fast webhook finds the row) and then
// sent to Meta; when Meta refuses it or cannot be reached, the write is undone and the caller
// gets the reason (99911, 99965, 99966): nothing is left half-submitted.
import { sql } from 'kysely';
import { variablesOf } from '../../../core/message-content.ts';
import { categoryForPurpose, whatsappBodyProblem } from '../../../core/whatsapp-template.ts';
import { capabilitiesOf, type TemplateCallResult, type TemplateDraft } from '../../../engine/channels/index.ts';
import type { Template } from '../../../generated/types.gen.ts';
import { templateStatuses, type TemplateCategory } from '../../../generated/enums.gen.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, failFields, fieldError, messageFor, type ApiError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { checkContent } from '../campaigns/records.ts';
import { templateQuery, toTemplate } from './records.ts';

const nameTaken = () => failFields([fieldError('name', '99913')]);
const WHATSAPP_ONLY = ['category', 'language', 'channelId'] as const;
const STATUSES = new Set<string>(templateStatuses);

async function getTemplate(deps: ServerDeps, me: Session, id: number): Promise<Template> {
  const row = await templateQuery(deps.db, me.companyId).where('t.id', '=', id).executeTakeFirst();
  if (!row) throw fail('99959');
  return toTemplate(row);
}

async function nameFree(deps: ServerDeps, me: Session, name: string, except?: number): Promise<void> {
  let q = deps.db.selectFrom('templates').select('id').where('company_id', '=', me.companyId).where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (except !== undefined) q = q.where('id', '<>', except);
  if (await q.executeTakeFirst()) throw nameTaken();
}

/** The channel type must be one the company may use (99972). */
async function checkPlatform(deps: ServerDeps, me: Session, platform: string): Promise<void> {
  const row = await deps.db.selectFrom('company_channel_types').select('platform').where('company_id', '=', me.companyId).where('platform', '=', platform).executeTakeFirst();
  if (!row) throw failFields([fieldError('channel', '99972')]);
}

/** The enabled WhatsApp channel a template goes through: the one named, else the company's of highest priority. */
async function whatsappChannel(deps: ServerDeps, me: Session, channelId: number | undefined): Promise<number> {
  let q = deps.db.selectFrom('channels').select('id').where('company_id', '=', me.companyId).where('platform', '=', 'whatsapp').where('enabled', '=', true);
  if (channelId !== undefined) q = q.where('id', '=', channelId);
  const row = await q.orderBy('priority', 'desc').orderBy('id').executeTakeFirst();
  if (!row) throw failFields([fieldError('channelId', channelId === undefined ? '99999' : '99972', 'an enabled WhatsApp channel of the company')]);
  return row.id;
}

/** Meta's body rules (99910; a body over 1024 characters is 99931). */
function checkWhatsAppBody(content: string, category: TemplateCategory): void {
  const problem = whatsappBodyProblem(content, category);
  if (!problem) return;
  throw failFields([fieldError('content', problem.code === 'tooLong' ? '99931' : '99910', problem.detail)]);
}

/** Meta's answer when it is not a yes: refused (99911, with Meta's reason), unreachable (99965), bad token (99966). */
function refusal(result: Extract<TemplateCallResult, { ok: false }>): ApiError {
  if (result.kind === 'refused') return fail('99911', `${messageFor('99911')} (${result.reason})`);
  return fail(result.kind === 'unreachable' ? '99965' : '99966', `${messageFor(result.kind === 'unreachable' ? '99965' : '99966')} (${result.reason})`);
}

/** Meta's own status when its answer carries one we know (it may approve at once). */
const answeredStatus = (result: TemplateCallResult) => (result.ok && result.status && STATUSES.has(result.status) ? result.status : 'PENDING');

export const templatesHandlers: DomainHandlers<'templates'> = {
  'templates.list': async (ctx) => {
    const me = caller(ctx);
    let base = templateQuery(ctx.deps.db, me.companyId);
    if (ctx.query.channel) base = base.where('t.channel', '=', ctx.query.channel);
    if (ctx.query.purpose) base = base.where('t.purpose', '=', ctx.query.purpose);
    if (ctx.query.status) base = base.where('t.status', '=', ctx.query.status);
    return paginate(base, ctx.query, {
      sortable: { name: 't.name', channel: 't.channel', purpose: 't.purpose', category: 't.category', status: 't.status', createdAt: 't.created_at', updatedAt: 't.updated_at' },
      defaultSort: { column: 't.updated_at', order: 'desc' },
      tieBreaker: 't.id',
      search: ['t.name', 't.content'],
      map: toTemplate,
    });
  },

  'templates.get': async (ctx) => getTemplate(ctx.deps, caller(ctx), ctx.params.id),

  'templates.create': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const deps = ctx.deps;
    const purpose = b.purpose ?? 'commercial';
    checkContent(b.content, deps.messaging.shortBaseUrls);
    await checkPlatform(deps, me, b.channel);
    const now = deps.now();
    const values = { company_id: me.companyId, name: b.name, channel: b.channel, purpose, content: b.content, variables: JSON.stringify(variablesOf(b.content)), created_by: me.userId, created_at: now, updated_at: now };

    if (!capabilitiesOf(b.channel).templates) {
      const foreign = WHATSAPP_ONLY.filter((f) => b[f] !== undefined);
      if (foreign.length) throw failFields(foreign.map((f) => fieldError(f, '99931', 'only for WhatsApp templates')));
      await nameFree(deps, me, b.name);
      const row = await uniqueOr(() => deps.db.insertInto('templates').values({ ...values, status: 'APPROVED', status_at: now }).returning('id').executeTakeFirstOrThrow(), nameTaken);
      return getTemplate(deps, me, row.id);
    }

    if (!b.language) throw failFields([fieldError('language', '99999')]);
    const category = b.category ?? categoryForPurpose[purpose];
    checkWhatsAppBody(b.content, category);
    const channelId = await whatsappChannel(deps, me, b.channelId);
    await nameFree(deps, me, b.name);
    const row = await uniqueOr(() => deps.db.insertInto('templates').values({
      ...values, category, language: b.language!, channel_id: channelId, status: 'PENDING', status_at: now, submitted_at: now,
    }).returning('id').executeTakeFirstOrThrow(), nameTaken);
    const result = await deps.messaging.whatsappTemplates.submit(channelId, { name: b.name, language: b.language, category, content: b.content });
    if (!result.ok) {
      await deps.db.deleteFrom('templates').where('id', '=', row.id).execute();
      throw refusal(result);
    }
    // A webhook may already have found the row by name (and set Meta's id and a newer status).
    const status = answeredStatus(result);
    await deps.db.updateTable('templates')
      .set({ provider_template_id: result.id, ...(status !== 'PENDING' ? { status } : {}) })
      .where('id', '=', row.id).where('provider_template_id', 'is', null).execute();
    return getTemplate(deps, me, row.id);
  },

  'templates.update': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const deps = ctx.deps;
    const current = await deps.db.selectFrom('templates').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!current) throw fail('99959');
    if (b.content !== undefined) checkContent(b.content, deps.messaging.shortBaseUrls);
    const now = deps.now();
    const set: Record<string, unknown> = { updated_at: now };
    if (b.purpose !== undefined) set.purpose = b.purpose;
    if (b.content !== undefined) {
      set.content = b.content;
      set.variables = JSON.stringify(variablesOf(b.content));
    }

    if (!capabilitiesOf(current.channel).templates) {
      const foreign = (['category', 'language'] as const).filter((f) => b[f] !== undefined);
      if (foreign.length) throw failFields(foreign.map((f) => fieldError(f, '99931', 'only for WhatsApp templates')));
      if (b.name !== undefined && b.name !== current.name) {
        await nameFree(deps, me, b.name, current.id);
        set.name = b.name;
      }
      await uniqueOr(() => deps.db.updateTable('templates').set(set).where('id', '=', current.id).execute(), nameTaken);
      return getTemplate(deps, me, current.id);
    }

    // WhatsApp: Meta knows the template by name and language; a new one is a new template.
    const fixed = (['name', 'language'] as const).filter((f) => b[f] !== undefined && b[f] !== current[f]);
    if (fixed.length) throw failFields(fixed.map((f) => fieldError(f, '99931', 'fixed once submitted to Meta: create a new template instead')));
    if (current.status === 'PENDING') throw fail('99912');
    const category = (b.category ?? current.category) as TemplateCategory;
    const content = b.content ?? current.content;
    const resubmit = category !== current.category || content !== current.content;
    if (!resubmit) {
      await deps.db.updateTable('templates').set(set).where('id', '=', current.id).execute();
      return getTemplate(deps, me, current.id);
    }
    checkWhatsAppBody(content, category);
    if (!current.channel_id) throw failFields([fieldError('channelId', '99972', 'the WhatsApp channel of this template was deleted')]);
    // In review again from now; Meta's answer (the webhook) decides.
    await deps.db.updateTable('templates').set({ ...set, category, status: 'PENDING', rejection_reason: null, status_at: now, submitted_at: now }).where('id', '=', current.id).execute();
    const draft: TemplateDraft = { name: current.name, language: current.language!, category, content };
    const result = current.provider_template_id
      ? await deps.messaging.whatsappTemplates.edit(current.channel_id, current.provider_template_id, draft)
      : await deps.messaging.whatsappTemplates.submit(current.channel_id, draft);
    if (!result.ok) {
      const { id: _id, ...before } = current;
      await deps.db.updateTable('templates').set({ ...before, variables: JSON.stringify(current.variables) }).where('id', '=', current.id).execute();
      throw refusal(result);
    }
    const status = answeredStatus(result);
    if (result.id || status !== 'PENDING') {
      await deps.db.updateTable('templates').set({ ...(result.id ? { provider_template_id: result.id } : {}), ...(status !== 'PENDING' ? { status } : {}) })
        .where('id', '=', current.id).where('status', '=', 'PENDING').execute();
    }
    return getTemplate(deps, me, current.id);
  },

  'templates.delete': async (ctx) => {
    const me = caller(ctx);
    const deps = ctx.deps;
    const row = await deps.db.selectFrom('templates').select(['id', 'name', 'channel', 'channel_id', 'provider_template_id']).where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!row) throw fail('99959');
    if (capabilitiesOf(row.channel).templates && row.channel_id && row.provider_template_id) {
      const result = await deps.messaging.whatsappTemplates.remove(row.channel_id, row.provider_template_id, row.name);
      // Meta refusing means it no longer knows the template: it goes here too.
      if (!result.ok && result.kind !== 'refused') throw refusal(result);
    }
    await deps.db.deleteFrom('templates').where('id', '=', row.id).where('company_id', '=', me.companyId).execute();
    return { ok: true as const };
  },
};
