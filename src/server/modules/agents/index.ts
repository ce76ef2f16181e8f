// Agents: a published flow on a two-way channel (schemas/api/agents.yaml). The rules of
// the YAML's header are checked here, in the transaction that writes (the channel's row is locked,
// so two agents written at once on one channel never both pass the keyword and catch-all checks).
import { sql, type Kysely, type Transaction } from 'kysely';
import { normalizeAnswer } from '../../../core/flows/matching.ts';
import type { Database } from '../../../engine/database.ts';
import type { ChannelPlatform } from '../../../generated/enums.gen.ts';
import type { Agent, FlowDefinition } from '../../../generated/types.gen.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { jsonValue } from '../../../engine/tables/index.ts';
import { capabilitiesOf } from '../../../engine/channels/index.ts';

function agentQuery(db: Kysely<Database>, companyId: number) {
  return db.selectFrom('agents as a').innerJoin('channels as ch', 'ch.id', 'a.channel_id').innerJoin('flows as f', 'f.id', 'a.flow_id')
    .select(['a.id', 'a.name', 'a.channel_id', 'ch.name as channel', 'ch.platform', 'a.flow_id', 'f.name as flow', 'a.keywords', 'a.active', 'a.updated_at'])
    .select((eb) => eb.selectFrom('conversations as c').select((e) => e.fn.countAll<string>().as('n')).whereRef('c.agent_id', '=', 'a.id').as('conversations'))
    .where('a.company_id', '=', companyId);
}
type AgentRow = { id: number; name: string; channel_id: number; channel: string; platform: string; flow_id: number; flow: string; keywords: unknown; active: boolean; updated_at: Date; conversations: string | number | null };

const toAgent = (r: AgentRow): Agent => ({
  id: r.id, name: r.name, channelId: r.channel_id, channel: r.channel, platform: r.platform as ChannelPlatform, flowId: r.flow_id, flow: r.flow,
  keywords: jsonValue<string[]>(r.keywords), active: r.active, conversations: Number(r.conversations ?? 0), updatedAt: r.updated_at.toISOString(),
});

async function getAgent(db: Kysely<Database>, companyId: number, id: number): Promise<Agent> {
  const row = await agentQuery(db, companyId).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw fail('99959');
  return toAgent(row);
}

interface AgentValues { id: number | null; channelId: number; flowId: number; keywords: string[]; active: boolean }

/** Keywords as written, without repeats (as people type them: case and accents aside). */
const distinctKeywords = (keywords: readonly string[]) => {
  const seen = new Set<string>();
  return keywords.map((k) => k.trim()).filter((k) => {
    const key = normalizeAnswer(k);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** The rules of agents.yaml, in the writing transaction. */
async function checkAgent(trx: Transaction<Database>, companyId: number, a: AgentValues): Promise<void> {
  const channel = (await sql<{ id: number; platform: string; type: string; enabled: boolean; short_code: string | null }>`
    select id, platform, type, enabled, short_code from channels where id = ${a.channelId} and company_id = ${companyId} for update`.execute(trx)).rows[0];
  if (!channel || !channel.enabled) throw failFields([fieldError('channelId', '99972')]);
  if (channel.type !== 'MO') throw failFields([fieldError('channelId', '99931', 'the channel is one-way (MT): people cannot write to it')]);
  const flow = await trx.selectFrom('flows as f').leftJoin('flow_versions as v', (j) => j.onRef('v.flow_id', '=', 'f.id').onRef('v.version', '=', 'f.published_version'))
    .select(['f.id', 'f.published_version', 'v.definition']).where('f.company_id', '=', companyId).where('f.id', '=', a.flowId).executeTakeFirst();
  if (!flow) throw failFields([fieldError('flowId', '99994')]);
  if (flow.published_version === null) throw failFields([fieldError('flowId', '99931', 'publish the flow first')]);
  const definition = jsonValue<FlowDefinition>(flow.definition);
  if (!definition.steps.some((s) => s.type === 'initialCall')) throw failFields([fieldError('flowId', '99931', 'the flow has no step that starts when a person writes in (initial call)')]);
  if (!a.active) return;
  if (capabilitiesOf(channel.platform).keywordRouting && !a.keywords.length) throw failFields([fieldError('keywords', '99971')]);
  const others = await trx.selectFrom('agents').select(['name', 'keywords']).where('channel_id', '=', channel.id).where('active', '=', true)
    .$if(a.id !== null, (q) => q.where('id', '!=', a.id!)).execute();
  const keywordsOf = (k: unknown) => jsonValue<string[]>(k);
  if (!a.keywords.length && others.some((o) => !keywordsOf(o.keywords).length)) {
    throw failFields([fieldError('keywords', '99992', others.filter((o) => !keywordsOf(o.keywords).length).map((o) => o.name).join(', '))]);
  }
  const mine = new Set(a.keywords.map(normalizeAnswer));
  for (const o of others) {
    const clash = keywordsOf(o.keywords).find((k) => mine.has(normalizeAnswer(k)));
    if (clash) throw failFields([fieldError('keywords', '99970', `${clash}: ${o.name}`)]);
  }
  if (channel.short_code) {
    const routes = await trx.selectFrom('channel_keywords').select(['keyword']).where('short_code', '=', channel.short_code).where('channel_id', '!=', channel.id).execute();
    const clash = routes.find((r) => mine.has(normalizeAnswer(r.keyword)));
    if (clash) throw failFields([fieldError('keywords', '99970', clash.keyword)]);
  }
}

export const agentsHandlers: DomainHandlers<'agents'> = {
  'agents.list': async (ctx) => {
    const me = caller(ctx);
    let qb = agentQuery(ctx.deps.db, me.companyId);
    if (ctx.query.channelId) qb = qb.where('a.channel_id', '=', ctx.query.channelId);
    if (ctx.query.flowId) qb = qb.where('a.flow_id', '=', ctx.query.flowId);
    if (ctx.query.active !== undefined) qb = qb.where('a.active', '=', ctx.query.active);
    return paginate(qb, ctx.query, {
      sortable: { name: 'a.name', updatedAt: 'a.updated_at' },
      defaultSort: { column: 'a.name', order: 'asc' },
      tieBreaker: 'a.id',
      search: ['a.name'],
      map: toAgent,
    });
  },

  'agents.get': async (ctx) => getAgent(ctx.deps.db, caller(ctx).companyId, ctx.params.id),

  'agents.create': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const b = ctx.body;
    const values: AgentValues = { id: null, channelId: b.channelId, flowId: b.flowId, keywords: distinctKeywords(b.keywords ?? []), active: b.active ?? true };
    const now = ctx.deps.now();
    const id = await db.transaction().execute(async (trx) => {
      await checkAgent(trx, me.companyId, values);
      const row = await trx.insertInto('agents').values({
        company_id: me.companyId, name: b.name.trim(), channel_id: values.channelId, flow_id: values.flowId, keywords: JSON.stringify(values.keywords),
        active: values.active, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      return row.id;
    });
    return getAgent(db, me.companyId, id);
  },

  'agents.update': async (ctx) => {
    const me = caller(ctx);
    const { db } = ctx.deps;
    const b = ctx.body;
    const now = ctx.deps.now();
    await db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('agents').selectAll().where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).forUpdate().executeTakeFirst();
      if (!current) throw fail('99959');
      const values: AgentValues = {
        id: current.id, channelId: b.channelId ?? current.channel_id, flowId: b.flowId ?? current.flow_id,
        keywords: distinctKeywords(b.keywords ?? jsonValue<string[]>(current.keywords)), active: b.active ?? current.active,
      };
      await checkAgent(trx, me.companyId, values);
      await trx.updateTable('agents').set({
        ...(b.name !== undefined ? { name: b.name.trim() } : {}),
        channel_id: values.channelId, flow_id: values.flowId, keywords: JSON.stringify(values.keywords), active: values.active, updated_at: now,
      }).where('id', '=', current.id).execute();
    });
    return getAgent(db, me.companyId, ctx.params.id);
  },

  'agents.delete': async (ctx) => {
    const me = caller(ctx);
    const deleted = await ctx.deps.db.deleteFrom('agents').where('company_id', '=', me.companyId).where('id', '=', ctx.params.id).executeTakeFirst();
    if (!deleted.numDeletedRows) throw fail('99959');
    return { ok: true as const };
  },
};
