// Events (schemas/api/events.yaml, component 2001): named triggers the company's own systems fire
// through the public API. CRUD from the console; POST /v1/events/{key}/fire fills the event's
// {{variables}} per recipient and enqueues through the one send step exactly like POST /v1/messages
// (source 'api': block list 5, duplicates 93, credits 81, the send window by purpose, status
// callbacks), raising the event's counters in the same transaction. An Idempotency-Key makes a
// retried fire answer the first one's messages instead of sending again (http/idempotency.ts).
import { sql, type Kysely } from 'kysely';
import { contentProblems, render, RenderError, variablesOf } from '../../../core/message-content.ts';
import type { ChannelPlatform, TemplateRef } from '../../../engine/channel-adapter.ts';
import type { EnqueueItem, Purpose } from '../../../engine/lifecycle/index.ts';
import type { Database } from '../../../engine/database.ts';
import type { Event } from '../../../generated/types.gen.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, failFields, fieldError, type FieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { idempotentRequest, once, settle } from '../../http/idempotency.ts';
import { sendMessages } from '../../../engine/campaigns/index.ts';
import { statusOf } from '../messages/index.ts';
import { capabilitiesOf, destinationOn } from '../../../engine/channels/index.ts';

const keyTaken = () => failFields([fieldError('key', '99979')]);

/** At most this many problems are named in one refusal (a batch of 1,000 could name thousands). */
const MAX_FIELD_ERRORS = 20;

function eventQuery(db: Kysely<Database>, companyId: number) {
  return db
    .selectFrom('events as e')
    .leftJoin('channels as ch', 'ch.id', 'e.channel_id')
    .select([
      'e.id', 'e.key', 'e.name', 'e.channel_id', 'ch.name as channel_name', 'ch.platform', 'e.purpose', 'e.content', 'e.template_name',
      'e.template_language', 'e.template_parameters', 'e.variables', 'e.enabled', 'e.fired_count', 'e.last_fired_at', 'e.created_at', 'e.updated_at',
    ])
    .where('e.company_id', '=', companyId);
}

type EventRow = Awaited<ReturnType<ReturnType<typeof eventQuery>['executeTakeFirstOrThrow']>>;

/** The base URL the caller reached us at (the console's own origin), for the example call. */
function originOf(ctx: { request: { protocol: string; host: string } }): string {
  const host = /^[A-Za-z0-9.:[\]-]{1,255}$/.test(ctx.request.host) ? ctx.request.host : 'localhost';
  return `${ctx.request.protocol === 'https' ? 'https' : 'http'}://${host}`;
}

/** A ready-to-copy curl call that fires the event (keys and variable names need no shell quoting). */
export function exampleCall(origin: string, key: string, variables: readonly string[]): string {
  const body = JSON.stringify({ to: '3001234567', variables: Object.fromEntries(variables.map((v) => [v, 'valor'])) });
  return [
    `curl -X POST '${origin}/v1/events/${key}/fire' \\`,
    `  -H "Authorization: Bearer $COLIBRI_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${body.replace(/'/g, `'\\''`)}'`,
  ].join('\n');
}

const toEvent = (origin: string) => (r: EventRow): Event => ({
  id: r.id,
  key: r.key,
  name: r.name,
  channelId: r.channel_id,
  channelName: r.channel_name ?? null,
  platform: (r.platform ?? null) as Event['platform'],
  purpose: r.purpose as Event['purpose'],
  content: r.content,
  templateName: r.template_name,
  templateLanguage: r.template_language,
  templateParameters: r.template_parameters,
  variables: r.variables,
  enabled: r.enabled,
  fired: Number(r.fired_count),
  lastFiredAt: r.last_fired_at?.toISOString() ?? null,
  exampleCall: exampleCall(origin, r.key, r.variables),
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

interface Message {
  content: string | null;
  templateName: string | null;
  templateLanguage: string | null;
  templateParameters: string[];
}

/**
 * The message rules of a write: a text or a template, not both (99999 / 99931); a template only on
 * WhatsApp, with its language (99931 / 99999); variables written right (99924) and no external
 * links (99925) in the text and in every parameter, as in campaigns. Answers the variables.
 */
function checkMessage(m: Message, platform: string, shortBaseUrls: string[]): string[] {
  if (m.content === null && m.templateName === null) throw failFields([fieldError('content', '99999')]);
  if (m.content !== null && m.templateName !== null) throw failFields([fieldError('templateName', '99931', 'a text or a template, not both')]);
  if (m.templateName !== null) {
    if (!capabilitiesOf(platform).templates) throw failFields([fieldError('templateName', '99931', 'templates are WhatsApp messages')]);
    if (!m.templateLanguage) throw failFields([fieldError('templateLanguage', '99999')]);
  }
  const texts: [string, string][] = m.content !== null ? [['content', m.content]] : m.templateParameters.map((p, i) => [`templateParameters/${i}`, p]);
  for (const [field, text] of texts) {
    const problems = contentProblems(text, shortBaseUrls);
    if (!problems.length) continue;
    const links = problems.filter((p) => p.code === 'externalLink');
    if (links.length) throw failFields([fieldError(field, '99925', links.map((l) => l.text).join(', '))]);
    throw failFields([fieldError(field, '99924', problems.map((p) => p.code).join(', '))]);
  }
  return [...new Set(texts.flatMap(([, text]) => variablesOf(text)))];
}

async function channelOf(deps: ServerDeps, me: Session, channelId: number) {
  const channel = await deps.db.selectFrom('channels').select(['id', 'platform', 'enabled']).where('id', '=', channelId).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!channel) throw failFields([fieldError('channelId', '99972')]);
  return channel;
}

async function getEvent(deps: ServerDeps, me: Session, id: number, origin: string): Promise<Event> {
  const row = await eventQuery(deps.db, me.companyId).where('e.id', '=', id).executeTakeFirst();
  if (!row) throw fail('99959');
  return toEvent(origin)(row);
}

type Values = Record<string, string | number>;

/** The message of one recipient: the text or the template's parameters with the variables filled. */
function fill(row: EventRow, values: Values, at: string): { body?: string; template?: TemplateRef } {
  const problems: FieldError[] = [];
  const rendered = (text: string) => {
    try {
      return render(text, values);
    } catch (error) {
      if (!(error instanceof RenderError) || error.code !== 'missingValue') throw error;
      for (const name of error.details as string[]) problems.push(fieldError(`${at}variables/${name}`, '99924', `no value for ${name}`));
      return '';
    }
  };
  const out = row.content !== null
    ? { body: rendered(row.content) }
    : { template: { name: row.template_name!, language: row.template_language!, ...(row.template_parameters.length ? { parameters: row.template_parameters.map(rendered) } : {}) } as TemplateRef };
  if (problems.length) throw new MissingValues(problems);
  return out;
}

class MissingValues extends Error {
  constructor(readonly problems: FieldError[]) {
    super('missing values');
  }
}

export const eventsHandlers: DomainHandlers<'events'> = {
  'events.list': async (ctx) => {
    const me = caller(ctx);
    let base = eventQuery(ctx.deps.db, me.companyId);
    if (ctx.query.enabled !== undefined) base = base.where('e.enabled', '=', ctx.query.enabled);
    if (ctx.query.purpose) base = base.where('e.purpose', '=', ctx.query.purpose);
    if (ctx.query.channelId) base = base.where('e.channel_id', '=', ctx.query.channelId);
    return paginate(base, ctx.query, {
      sortable: { key: 'e.key', name: 'e.name', purpose: 'e.purpose', fired: 'e.fired_count', lastFiredAt: 'e.last_fired_at', createdAt: 'e.created_at' },
      defaultSort: { column: 'e.key', order: 'asc' },
      tieBreaker: 'e.id',
      search: ['e.key', 'e.name'],
      map: toEvent(originOf(ctx)),
    });
  },

  'events.get': async (ctx) => getEvent(ctx.deps, caller(ctx), ctx.params.id, originOf(ctx)),

  'events.create': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const channel = await channelOf(ctx.deps, me, b.channelId);
    const message: Message = { content: b.content ?? null, templateName: b.templateName ?? null, templateLanguage: b.templateLanguage ?? null, templateParameters: b.templateParameters ?? [] };
    const variables = checkMessage(message, channel.platform, ctx.deps.messaging.shortBaseUrls);
    const now = ctx.deps.now();
    const row = await uniqueOr(() => ctx.deps.db.insertInto('events').values({
      company_id: me.companyId, key: b.key, name: b.name.trim(), channel_id: channel.id, purpose: b.purpose ?? 'transactional',
      content: message.content, template_name: message.templateName, template_language: message.templateName ? message.templateLanguage : null,
      template_parameters: JSON.stringify(message.templateName ? message.templateParameters : []), variables: JSON.stringify(variables),
      enabled: b.enabled ?? true, fired_count: 0, last_fired_at: null, created_by: me.userId, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow(), keyTaken);
    return getEvent(ctx.deps, me, row.id, originOf(ctx));
  },

  'events.update': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const current = await ctx.deps.db.selectFrom('events').selectAll().where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!current) throw fail('99959');
    const channelId = b.channelId ?? current.channel_id;
    if (channelId === null) throw failFields([fieldError('channelId', '99999')]);
    const channel = await channelOf(ctx.deps, me, channelId);
    // A new text drops the template; a new template drops the text (both at once: 99931).
    let message: Message = { content: current.content, templateName: current.template_name, templateLanguage: current.template_language, templateParameters: current.template_parameters };
    if (b.content !== undefined && b.templateName === undefined) message = { content: b.content, templateName: null, templateLanguage: null, templateParameters: [] };
    else if (b.templateName !== undefined && b.content === undefined) message = { ...message, content: null, templateName: b.templateName };
    else if (b.templateName !== undefined && b.content !== undefined) message = { ...message, content: b.content, templateName: b.templateName };
    if (message.templateName !== null) {
      if (b.templateLanguage !== undefined) message.templateLanguage = b.templateLanguage;
      if (b.templateParameters !== undefined) message.templateParameters = b.templateParameters;
    }
    const variables = checkMessage(message, channel.platform, ctx.deps.messaging.shortBaseUrls);
    const set = {
      updated_at: ctx.deps.now(), channel_id: channel.id, content: message.content, template_name: message.templateName,
      template_language: message.templateName ? message.templateLanguage : null,
      template_parameters: JSON.stringify(message.templateName ? message.templateParameters : []), variables: JSON.stringify(variables),
      ...(b.key !== undefined ? { key: b.key } : {}),
      ...(b.name !== undefined ? { name: b.name.trim() } : {}),
      ...(b.purpose !== undefined ? { purpose: b.purpose } : {}),
      ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
    };
    await uniqueOr(() => ctx.deps.db.updateTable('events').set(set).where('id', '=', current.id).where('company_id', '=', me.companyId).execute(), keyTaken);
    return getEvent(ctx.deps, me, current.id, originOf(ctx));
  },

  'events.delete': async (ctx) => {
    const me = caller(ctx);
    const gone = await ctx.deps.db.deleteFrom('events').where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!Number(gone.numDeletedRows)) throw fail('99959');
    return { ok: true as const };
  },

  'events.fire': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const row = await eventQuery(ctx.deps.db, me.companyId).where('e.key', '=', ctx.params.key).executeTakeFirst();
    if (!row) throw fail('99959');
    if (!row.enabled) throw fail('99919');
    const list = b.recipients ?? (b.to ? [{ to: b.to, variables: b.variables, reference: b.reference }] : []);
    if (!list.length) throw failFields([fieldError('to', '99999')]);
    const channel = row.channel_id === null ? null : await ctx.deps.db.selectFrom('channels').select(['id', 'platform', 'enabled']).where('id', '=', row.channel_id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!channel || !channel.enabled) throw fail('99972');
    const platform = channel.platform as ChannelPlatform;

    const problems: FieldError[] = [];
    const items: EnqueueItem[] = [];
    list.forEach((r, i) => {
      const at = b.recipients ? `recipients/${i}/` : '';
      try {
        const to = destinationOn(platform, r.to);
        items.push({ to: to ?? r.to, ...fill(row, (r.variables ?? {}) as Values, at), clientRef: r.reference ?? null, invalid: to === null });
      } catch (error) {
        if (!(error instanceof MissingValues)) throw error;
        problems.push(...error.problems);
      }
    });
    if (problems.length) throw failFields(problems.slice(0, MAX_FIELD_ERRORS));
    if (!b.recipients && items[0].invalid) throw failFields([fieldError('to', '99963')]);

    const purpose = row.purpose as Purpose;
    const now = ctx.deps.now();
    const idempotency = idempotentRequest(ctx.request, me.companyId, 'events.fire', { event: row.key, body: b });
    const outcome = await sendMessages(ctx.deps, {
      companyId: me.companyId, channel: { id: channel.id, platform }, purpose, source: 'api', apiCredentialId: me.credentialId ?? null,
      eventId: row.id, createdBy: me.userId, now, onInsufficientCredits: 'reject',
    }, (trx, enqueue) => once(trx, idempotency, now, async () => {
      const result = await enqueue(items);
      await sql`update events set fired_count = fired_count + ${result.ids.length}, last_fired_at = ${now} where id = ${row.id}`.execute(trx);
      return result.ids;
    }));
    settle(outcome, ctx.reply, () => ctx.deps.messaging.wake());
    return { event: row.key, messages: await statusOf(ctx.deps, me.companyId, outcome.ids, false) };
  },
};
