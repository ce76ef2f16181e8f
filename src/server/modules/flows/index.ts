// Chatbot flows, their statistics and incidents, and the conversations they hold
// (schemas/api/flows.yaml). The draft is saved as drawn; publishing runs the one
// validator (src/core/flows/validate.ts) and makes the next numbered version in the same
// transaction as the flow's pointer to it (the flow's row is locked, so two publications never
// take one number). Every query is the caller's company's.
import { requestLanguage, wordsFor } from '../../i18n/document-words.ts';
import { noteWords } from './note-words.ts';
import { sql, type Kysely } from 'kysely';
import { validateFlow } from '../../../core/flows/validate.ts';
import type { Database } from '../../../engine/database.ts';
import { flowStepEvents, type ConversationState, type FlowStepEvent } from '../../../generated/enums.gen.ts';
import type { Conversation, Flow, FlowDefinition } from '../../../generated/types.gen.ts';
import { uniqueOr } from '../../db/unique.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { OPEN_STATES, clearTraining, storeTrainingFile, trainedMeanings } from '../../../engine/conversations/index.ts';
import { jsonValue } from '../../../engine/tables/index.ts';
import { transcriptOf } from './transcript.ts';
import { integrationUrlErrors } from './integration-urls.ts';
import { numberForms } from '../../../core/phone.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { asUploadError, openUpload } from '../../files/intake.ts';

const nameTaken = () => failFields([fieldError('name', '99930')]);

/** A new flow: a step that greets whoever writes in, then the end (the editor's blank page). */
export const blankFlow = (): FlowDefinition => ({
  steps: [
    { id: 'start', type: 'initialCall', position: { x: 0, y: 0 }, settings: {} },
    { id: 'end', type: 'end', position: { x: 0, y: 200 }, settings: {} },
  ],
  edges: [{ from: 'start', output: 'next', to: 'end' }],
});

function flowQuery(db: Kysely<Database>, companyId: number) {
  return db.selectFrom('flows as f')
    .select(['f.id', 'f.name', 'f.description', 'f.draft', 'f.published_version', 'f.updated_at', 'f.training_phrases', 'f.training_file'])
    .select((eb) => [
      eb.selectFrom('flow_versions as v').select('v.published_at').whereRef('v.flow_id', '=', 'f.id').whereRef('v.version', '=', 'f.published_version').as('published_at'),
      eb.selectFrom('agents as a').select((e) => e.fn.countAll<string>().as('n')).whereRef('a.flow_id', '=', 'f.id').as('agents'),
    ])
    .where('f.company_id', '=', companyId);
}
type FlowRow = {
  id: number; name: string; description: string | null; draft: unknown; published_version: number | null; updated_at: Date; published_at: Date | null; agents: string | number | null;
  training_phrases: number; training_file: string | null;
};

export function toFlow(r: FlowRow): Flow {
  const draft = jsonValue<FlowDefinition>(r.draft);
  return {
    id: r.id, name: r.name, description: r.description, draft, problems: validateFlow(draft), publishedVersion: r.published_version,
    publishedAt: r.published_at ? new Date(r.published_at).toISOString() : null, agents: Number(r.agents ?? 0), updatedAt: r.updated_at.toISOString(),
    trainingPhrases: r.training_phrases, trainingFile: r.training_file,
  };
}

async function getFlow(db: Kysely<Database>, companyId: number, id: number): Promise<Flow> {
  const row = await flowQuery(db, companyId).where('f.id', '=', id).executeTakeFirst();
  if (!row) throw fail('99994');
  return toFlow(row);
}

async function assertNameFree(db: Kysely<Database>, companyId: number, name: string, exceptId?: number) {
  let q = db.selectFrom('flows').select('id').where('company_id', '=', companyId).where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw nameTaken();
}

/** The company's flow with the training upload it answers with (null: none); 99994 when it is not the company's. */
async function trainingOf(db: Kysely<Database>, companyId: number, id: number): Promise<{ id: number; training_upload: number | null }> {
  const flow = await db.selectFrom('flows').select(['id', 'training_upload']).where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
  if (!flow) throw fail('99994');
  return flow;
}

type ConversationRow = {
  id: number | string; contact: string; channel_id: number; channel: string; agent_id: number | null; flow_id: number; flow: string; flow_version: number;
  state: string; step_id: string | null; session: unknown; started_at: Date; updated_at: Date; ended_at: Date | null;
};
const toConversation = (r: ConversationRow): Conversation => ({
  id: Number(r.id), contact: r.contact, channelId: r.channel_id, channel: r.channel, agentId: r.agent_id, flowId: r.flow_id, flow: r.flow, flowVersion: r.flow_version,
  state: r.state as ConversationState, stepId: r.step_id, variables: jsonValue<{ vars?: Record<string, string> }>(r.session).vars ?? {},
  startedAt: r.started_at.toISOString(), updatedAt: r.updated_at.toISOString(), endedAt: r.ended_at?.toISOString() ?? null,
});

function conversationQuery(db: Kysely<Database>, companyId: number) {
  return db.selectFrom('conversations as c').innerJoin('channels as ch', 'ch.id', 'c.channel_id').innerJoin('flows as f', 'f.id', 'c.flow_id')
    .select(['c.id', 'c.contact', 'c.channel_id', 'ch.name as channel', 'c.agent_id', 'c.flow_id', 'f.name as flow', 'c.flow_version', 'c.state', 'c.step_id', 'c.session', 'c.started_at', 'c.updated_at', 'c.ended_at'])
    .where('c.company_id', '=', companyId);
}

export const flowsHandlers: DomainHandlers<'flows'> = {
  'flows.list': async (ctx) => {
    const me = caller(ctx);
    let qb = flowQuery(ctx.deps.db, me.companyId);
    if (ctx.query.published !== undefined) qb = qb.where('f.published_version', ctx.query.published ? 'is not' : 'is', null);
    return paginate(qb, ctx.query, {
      sortable: { name: 'f.name', updatedAt: 'f.updated_at', publishedVersion: 'f.published_version' },
      defaultSort: { column: 'f.updated_at', order: 'desc' },
      tieBreaker: 'f.id',
      search: ['f.name'],
      map: toFlow,
    });
  },

  'flows.get': async (ctx) => getFlow(ctx.deps.db, caller(ctx).companyId, ctx.params.id),

  'flows.create': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const name = ctx.body.name.trim();
    const badUrls = integrationUrlErrors(ctx.body.draft, ctx.deps.outbound);
    if (badUrls.length) throw failFields(badUrls);
    await assertNameFree(db, me.companyId, name);
    const now = ctx.deps.now();
    const row = await uniqueOr(() => db.insertInto('flows').values({
      company_id: me.companyId, name, description: ctx.body.description?.trim() || null, draft: JSON.stringify(ctx.body.draft ?? blankFlow()),
      published_version: null, created_by: me.userId, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow(), nameTaken);
    return getFlow(db, me.companyId, row.id);
  },

  'flows.update': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const current = await db.selectFrom('flows').select('id').where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).executeTakeFirst();
    if (!current) throw fail('99994');
    const badUrls = integrationUrlErrors(ctx.body.draft, ctx.deps.outbound);
    if (badUrls.length) throw failFields(badUrls);
    const name = ctx.body.name?.trim();
    if (name !== undefined) await assertNameFree(db, me.companyId, name, current.id);
    await uniqueOr(() => db.updateTable('flows').set({
      ...(name !== undefined ? { name } : {}),
      ...(ctx.body.description !== undefined ? { description: ctx.body.description.trim() || null } : {}),
      ...(ctx.body.draft ? { draft: JSON.stringify(ctx.body.draft) } : {}),
      updated_at: ctx.deps.now(),
    }).where('id', '=', current.id).where('company_id', '=', me.companyId).execute(), nameTaken);
    return getFlow(db, me.companyId, current.id);
  },

  'flows.publish': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const now = ctx.deps.now();
    await db.transaction().execute(async (trx) => {
      const flow = await sql<{ id: number; draft: unknown; published_version: number | null }>`
        select id, draft, published_version from flows where id = ${ctx.params.id} and company_id = ${me.companyId} for update`.execute(trx);
      const row = flow.rows[0];
      if (!row) throw fail('99994');
      const draft = jsonValue<FlowDefinition>(row.draft);
      const badUrls = integrationUrlErrors(draft, ctx.deps.outbound);
      if (badUrls.length) throw failFields(badUrls);
      const problems = validateFlow(draft);
      if (problems.length) {
        throw fail('99901', undefined, problems.slice(0, 50).map((p) => ({
          field: ['steps', p.stepId, p.output ?? p.field].filter(Boolean).join('/') || 'draft', code: p.rule, message: p.rule,
        })));
      }
      const version = (row.published_version ?? 0) + 1;
      await trx.insertInto('flow_versions').values({ flow_id: row.id, version, definition: JSON.stringify(draft), published_by: me.userId, published_at: now }).execute();
      await trx.updateTable('flows').set({ published_version: version, updated_at: now }).where('id', '=', row.id).execute();
    });
    return getFlow(db, me.companyId, ctx.params.id);
  },

  'flows.delete': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    await db.transaction().execute(async (trx) => {
      const flow = await trx.selectFrom('flows').select('id').where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).forUpdate().executeTakeFirst();
      if (!flow) throw fail('99994');
      const agents = await trx.selectFrom('agents').select('name').where('flow_id', '=', flow.id).execute();
      if (agents.length) throw fail('99967', undefined, [fieldError('agents', '99967', agents.map((a) => a.name).join(', '))]);
      const open = await trx.selectFrom('conversations').select('id').where('flow_id', '=', flow.id).where('state', 'in', OPEN_STATES).executeTakeFirst();
      if (open) throw fail('99967', undefined, [fieldError('conversations', '99967', 'a conversation is under way')]);
      await trx.deleteFrom('flow_incidents').where('flow_id', '=', flow.id).execute();
      await trx.deleteFrom('conversations').where('flow_id', '=', flow.id).execute();
      await trx.deleteFrom('flows').where('id', '=', flow.id).execute();
    });
    return { ok: true as const };
  },

  'flows.uploadTraining': async (ctx) => {
    const me = caller(ctx);
    const upload = await openUpload(ctx.request, constants.uploads.flowTrainingFileBytes);
    try {
      return await storeTrainingFile(ctx.deps.db, { companyId: me.companyId, flowId: ctx.params.id }, upload.bytes, { fileName: upload.fileName, declaredBytes: null }, ctx.deps.now(), () => fail('99994'));
    } catch (error) {
      throw asUploadError(error, constants.uploads.flowTrainingFileBytes);
    }
  },

  'flows.training': async (ctx) => {
    const { db } = ctx.deps;
    const flow = await trainingOf(db, caller(ctx).companyId, ctx.params.id);
    const qb = db.selectFrom('flow_training_phrases as t').select(['t.row', 't.phrase', 't.meaning'])
      .where('t.flow_id', '=', flow.id).where('t.upload', '=', flow.training_upload ?? -1);
    return paginate(qb, ctx.query, {
      sortable: { row: 't.row' },
      defaultSort: { column: 't.row', order: 'asc' },
      tieBreaker: 't.row',
      search: ['t.phrase'],
      map: (r) => ({ row: r.row, phrase: r.phrase, meaning: r.meaning }),
    });
  },

  'flows.trainingMeanings': async (ctx) => {
    const flow = await trainingOf(ctx.deps.db, caller(ctx).companyId, ctx.params.id);
    return { meanings: flow.training_upload === null ? [] : await trainedMeanings(ctx.deps.db, flow.id, flow.training_upload, ctx.query.text ?? '') };
  },

  'flows.clearTraining': async (ctx) => {
    await clearTraining(ctx.deps.db, { companyId: caller(ctx).companyId, flowId: ctx.params.id }, () => fail('99994'));
    return { ok: true as const };
  },

  'flows.stats': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    if (!ctx.query.flowId) throw failFields([fieldError('flowId', '99999')]);
    const flow = await db.selectFrom('flows').select(['id', 'published_version']).where('company_id', '=', me.companyId).where('id', '=', ctx.query.flowId).executeTakeFirst();
    if (!flow) throw fail('99994');
    const version = ctx.query.version ?? flow.published_version;
    if (version === null) return { flowId: flow.id, version: null, conversations: [], steps: [] };
    const states = await db.selectFrom('conversations').select(['state', (eb) => eb.fn.countAll<string>().as('n')])
      .where('company_id', '=', me.companyId).where('flow_id', '=', flow.id).where('flow_version', '=', version).groupBy('state').orderBy('state').execute();
    const counts = await db.selectFrom('flow_step_counts').select(['step_id', 'event', (eb) => eb.fn.sum<string>('count').as('count')])
      .where('flow_id', '=', flow.id).where('version', '=', version).groupBy(['step_id', 'event']).execute();
    const definition = await db.selectFrom('flow_versions').select('definition').where('flow_id', '=', flow.id).where('version', '=', version).executeTakeFirst();
    const byStep = new Map<string, Partial<Record<FlowStepEvent, number>>>();
    for (const c of counts) byStep.set(c.step_id, { ...byStep.get(c.step_id), [c.event]: Number(c.count) });
    // Every step of the version, in the order it was drawn (a step nobody reached shows its zeros).
    const steps = definition ? jsonValue<FlowDefinition>(definition.definition).steps : [];
    return {
      flowId: flow.id, version,
      conversations: states.map((s) => ({ state: s.state as ConversationState, conversations: Number(s.n) })),
      steps: steps.map((st) => {
        const c = byStep.get(st.id) ?? {};
        return {
          stepId: st.id, title: st.title ?? null, name: st.title?.trim() || st.id, type: st.type,
          ...Object.fromEntries(flowStepEvents.map((e) => [e, c[e] ?? 0])) as Record<FlowStepEvent, number>,
        };
      }),
    };
  },

  'flows.incidents': async (ctx) => {
    const me = caller(ctx);
    let q = ctx.deps.db.selectFrom('flow_incidents as i').innerJoin('flows as f', 'f.id', 'i.flow_id')
      .select(['i.id', 'i.flow_id', 'f.name', 'i.conversation_id', 'i.step_id', 'i.detail', 'i.note', 'i.at'])
      .where('i.company_id', '=', me.companyId);
    if (ctx.query.flowId) q = q.where('i.flow_id', '=', ctx.query.flowId);
    const rows = await q.orderBy('i.id', 'desc').limit(ctx.query.limit ?? 100).execute();
    const words = wordsFor(requestLanguage(ctx.request));
    return {
      items: rows.map((r) => ({
        id: Number(r.id), flowId: r.flow_id, flow: r.name, conversationId: r.conversation_id === null ? null : Number(r.conversation_id), stepId: r.step_id, detail: noteWords(words, r.note, r.detail), at: r.at.toISOString(),
      })),
    };
  },

  'flows.conversations': async (ctx) => {
    const me = caller(ctx);
    let qb = conversationQuery(ctx.deps.db, me.companyId);
    if (ctx.query.contact) qb = qb.where('c.contact', 'in', numberForms(ctx.query.contact));
    if (ctx.query.flowId) qb = qb.where('c.flow_id', '=', ctx.query.flowId);
    if (ctx.query.agentId) qb = qb.where('c.agent_id', '=', ctx.query.agentId);
    if (ctx.query.state) qb = qb.where('c.state', '=', ctx.query.state);
    return paginate(qb, ctx.query, {
      sortable: { startedAt: 'c.started_at', updatedAt: 'c.updated_at' },
      defaultSort: { column: 'c.id', order: 'desc' },
      tieBreaker: 'c.id',
      search: ['c.contact'],
      map: toConversation,
    });
  },

  'flows.conversation': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const row = await conversationQuery(db, me.companyId).where('c.id', '=', ctx.params.id).executeTakeFirst();
    if (!row) throw fail('99959');
    const turns = await transcriptOf(db, me.companyId, [Number(row.id)], 2000, wordsFor(requestLanguage(ctx.request)));
    return { ...toConversation(row), turns: turns.map(({ conversationId: _, ...turn }) => turn) };
  },
};
