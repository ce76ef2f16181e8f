// A person's message on a two-way channel, as the conversations see it: it continues
// the number's open conversation on that channel; else it starts the agent of that channel whose
// keyword it carries (an agent without keywords answers whatever else comes in: a WhatsApp or
// Messenger bot); else it is not the conversations' (the channel's keyword routes keep it). An
// open conversation whose agent was switched off, deleted, moved or given another flow ends first
// (an incident with 1001, bot and sender mismatch), and the message is routed as a new one.
// SALIR / CANCELAR are handled before this by the inbound router: the opt-out always wins.
import type { Transaction } from 'kysely';
import { isKeyword } from '../../core/flows/matching.ts';
import { newSession } from '../../core/flows/runtime.ts';
import type { ChannelPlatform } from '../../generated/enums.gen.ts';
import type { Database } from '../database.ts';
import { lockOpenConversation, openConversation, saveConversation, type Conversation, type ConversationBot } from './sessions.ts';
import { trainedMeanings } from './training.ts';
import { notes } from './notes.ts';
import { addTurn, recordIncident, takeTurns, type TurnOutcome } from './turns.ts';
import type { FlowVersions } from './versions.ts';
import { jsonValue } from '../tables/columns.ts';

export interface InboundText {
  channel: { id: number; companyId: number; platform: ChannelPlatform };
  from: string;
  text: string;
  at: Date;
}

/** The spec's WhatsApp code for a conversation whose bot no longer answers on its channel (config/errors.yaml). */
const BOT_MISMATCH_CODE = '1001';

export type Received = { by: 'conversation' | 'agent'; conversationId: number; outcome: TurnOutcome | null } | null;

/** The agent this message starts, if any: one whose keyword it is, else the channel's agent without keywords. */
async function agentFor(trx: Transaction<Database>, channelId: number, text: string) {
  const agents = await trx.selectFrom('agents').innerJoin('flows', 'flows.id', 'agents.flow_id')
    .select(['agents.id', 'agents.flow_id', 'agents.keywords', 'flows.published_version'])
    .where('agents.channel_id', '=', channelId).where('agents.active', '=', true).where('flows.published_version', 'is not', null)
    .orderBy('agents.id').execute();
  const keywordsOf = (a: (typeof agents)[number]) => jsonValue<string[]>(a.keywords);
  return agents.find((a) => keywordsOf(a).length > 0 && isKeyword(keywordsOf(a), text)) ?? agents.find((a) => keywordsOf(a).length === 0) ?? null;
}

/**
 * Why an open conversation's bot no longer answers on its channel — its agent was switched off,
 * deleted, moved to another channel or now runs another flow — or null when it still does. The
 * spec's WhatsApp code 1001 ("bot and sender mismatch", Gupshup's "last mapped bot") names this.
 * A campaign's conversation has no agent: its bot is the campaign's flow.
 */
function botMismatch(open: Conversation & { bot: ConversationBot }): 'agentDeleted' | 'agentSwitchedOff' | 'agentMoved' | 'agentOtherFlow' | null {
  const { bot } = open;
  if (bot.campaignId !== null) return null;
  if (bot.agent === null) return 'agentDeleted';
  if (!bot.agent.active) return 'agentSwitchedOff';
  if (bot.agent.channelId !== open.channelId) return 'agentMoved';
  if (bot.agent.flowId !== open.flowId) return 'agentOtherFlow';
  return null;
}

/** Hands the message to the conversations, in the caller's transaction; null: none took it. */
export async function receiveText(trx: Transaction<Database>, versions: FlowVersions, m: InboundText): Promise<Received> {
  let open = await lockOpenConversation(trx, m.channel.id, m.from);
  const mismatch = open && botMismatch(open);
  if (open && mismatch) {
    // The old bot does not answer: its conversation ends, and the message is routed as a new one.
    await recordIncident(trx, open, open.session.stepId, notes.botMismatch(BOT_MISMATCH_CODE, mismatch), m.at);
    await saveConversation(trx, open.id, { ...open.session, state: 'abandoned' }, null, m.at);
    open = null;
  }
  if (open) {
    const flow = await versions(trx, open.flowId, open.flowVersion);
    if (!flow) {
      await addTurn(trx, open, 'in', m.text, m.at, open.session.stepId);
      await recordIncident(trx, open, open.session.stepId, notes.versionMissing(open.flowVersion), m.at);
      return { by: 'conversation', conversationId: open.id, outcome: null };
    }
    // What the flow's training file says the answer means, when it has one (read only then).
    const meant = open.bot.trainingUpload === null ? undefined : await trainedMeanings(trx, open.flowId, open.bot.trainingUpload, m.text);
    const [outcome] = await takeTurns(trx, [{ conversation: open, channel: m.channel, flow, event: { kind: 'messageIn', text: m.text, ...(meant?.length ? { meant } : {}) }, lead: [{ direction: 'in', body: m.text, stepId: open.session.stepId }] }], m.at);
    return { by: 'conversation', conversationId: open.id, outcome };
  }
  const agent = await agentFor(trx, m.channel.id, m.text);
  if (!agent) return null;
  const version = agent.published_version!;
  const flow = await versions(trx, agent.flow_id, version);
  if (!flow) return null;
  const conversation = await openConversation(trx, {
    companyId: m.channel.companyId, channelId: m.channel.id, agentId: agent.id, flowId: agent.flow_id, flowVersion: version, contact: m.from, session: newSession(),
  }, m.at);
  const [outcome] = await takeTurns(trx, [{
    conversation, channel: m.channel, flow, event: { kind: 'start', entry: 'initialCall', vars: { phone: m.from, message: m.text } }, lead: [{ direction: 'in', body: m.text }],
  }], m.at);
  if (outcome.turn.refused) {
    // Published versions keep the rules (an entry step exists); a person is never left waiting in silence.
    await recordIncident(trx, conversation, null, notes.noEntryStep(), m.at);
    await saveConversation(trx, conversation.id, { ...conversation.session, state: 'abandoned' }, null, m.at);
  }
  return { by: 'agent', conversationId: conversation.id, outcome };
}
