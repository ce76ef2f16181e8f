// Campaigns that carry a flow: the launch writes the campaign's messages as any
// campaign's (block list, duplicates, credits, send window: the one enqueue), then, in the same
// transaction, opens one conversation per recipient whose message was queued, started at the
// flow's initialPush step with the recipient's columns as variables. What the push step sends
// follows the campaign's message (sendAfter), and the person's answer continues the conversation
// like any other (inbound.ts: the open conversation first). A number already in a conversation on
// that channel keeps it (one open conversation per number and channel).
import { sql, type Transaction } from 'kysely';
import { newSession } from '../../core/flows/runtime.ts';
import type { Variables } from '../../core/flows/steps.ts';
import type { ChannelPlatform } from '../../generated/enums.gen.ts';
import type { Database } from '../database.ts';
import { lockOpenConversation, openConversation } from './sessions.ts';
import { takeTurns, type TurnOutcome, type TurnRequest } from './turns.ts';
import type { FlowVersions } from './versions.ts';

export interface CampaignConversations {
  companyId: number;
  campaignId: number;
  flowId: number;
  channel: { id: number; platform: ChannelPlatform };
  /** The launch's messages (ids from the enqueue); those still queued start a conversation. */
  messageIds: readonly number[];
  /** Each recipient's columns, by their message's id. */
  variables: ReadonlyMap<number, Variables>;
  now: Date;
}

export async function startCampaignConversations(trx: Transaction<Database>, versions: FlowVersions, r: CampaignConversations): Promise<{ started: number; outcomes: TurnOutcome[] }> {
  const outcomes: TurnOutcome[] = [];
  if (!r.messageIds.length) return { started: 0, outcomes };
  const flowRow = await trx.selectFrom('flows').select('published_version').where('id', '=', r.flowId).where('company_id', '=', r.companyId).executeTakeFirst();
  const version = flowRow?.published_version ?? null;
  const flow = version === null ? null : await versions(trx, r.flowId, version);
  if (!flow || version === null) return { started: 0, outcomes };
  const queued = await sql<{ id: number | string; to_number: string; body: string }>`
    select id, to_number, body from messages where id = any(${r.messageIds}::bigint[]) and state = 'queued' order by id`.execute(trx);
  const requests: TurnRequest[] = [];
  for (const m of queued.rows) {
    if (await lockOpenConversation(trx, r.channel.id, m.to_number)) continue;
    const conversation = await openConversation(trx, {
      companyId: r.companyId, channelId: r.channel.id, agentId: null, campaignId: r.campaignId, flowId: r.flowId, flowVersion: version, contact: m.to_number, session: newSession(),
    }, r.now);
    const vars = { ...(r.variables.get(Number(m.id)) ?? {}), phone: m.to_number };
    requests.push({
      conversation, channel: r.channel, flow, event: { kind: 'start', entry: 'initialPush', vars }, after: Number(m.id), lead: [{ direction: 'out', body: m.body, messageId: Number(m.id) }],
    });
  }
  outcomes.push(...await takeTurns(trx, requests, r.now));
  return { started: outcomes.length, outcomes };
}
