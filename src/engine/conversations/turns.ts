// One turn of a conversation: the pure runtime (src/core/flows/runtime.ts) decides, this file
// carries out what it decided, in the transaction that holds the conversation's row: the messages
// it sends (rows in `messages`, through the engine's enqueue: block list, credits and the rest
// apply as to any message), the integration call (a `flowCall` job), the no-reply timer (the
// row's `timer_at`), the transcript, and the step counts for the flow's statistics. Nothing here
// decides a step.
import type { Transaction } from 'kysely';
import { advance, type Effect, type FlowEvent, type Turn } from '../../core/flows/runtime.ts';
import type { ChannelPlatform, ConversationTurnDirection } from '../../generated/enums.gen.ts';
import type { FlowDefinition } from '../../generated/types.gen.ts';
import { companySmsChannel } from '../channels/company-sms-channel.ts';
import { destinationOn } from '../channels/registry.ts';
import type { Database } from '../database.ts';
import { enqueueMessages, sendAfter } from '../lifecycle/enqueue.ts';
import { createJob } from '../lifecycle/jobs.ts';
import { endCampaignConversationsIfFull, saveConversation, type Conversation } from './sessions.ts';

/** What a turn's effects reach outside its transaction: woken after it commits. */
export interface TurnOutcome {
  turn: Turn;
  /** Messages were enqueued: the dispatcher should look. */
  sent: number;
  /** An integration call was queued: the job runner should look. */
  called: boolean;
}

export async function addTurn(trx: Transaction<Database>, c: Pick<Conversation, 'id' | 'companyId'>, direction: ConversationTurnDirection, body: string, now: Date, stepId: string | null = null, messageId: number | null = null): Promise<void> {
  await trx.insertInto('conversation_turns').values({ conversation_id: c.id, company_id: c.companyId, direction, step_id: stepId, body, message_id: messageId, at: now }).execute();
}

export async function recordIncident(trx: Transaction<Database>, c: Pick<Conversation, 'id' | 'companyId' | 'flowId'>, stepId: string | null, detail: string, now: Date): Promise<void> {
  await trx.insertInto('flow_incidents').values({ company_id: c.companyId, flow_id: c.flowId, conversation_id: c.id, step_id: stepId, detail, at: now }).execute();
  await addTurn(trx, c, 'note', detail, now, stepId);
}

/** Sends one message of the conversation (a reply on its channel, or an SMX step's SMS); answers its id, or null when there is no way to send it. */
async function send(trx: Transaction<Database>, c: Conversation, channel: { id: number; platform: ChannelPlatform }, to: string, text: string, now: Date): Promise<number | null> {
  const address = destinationOn(channel.platform, to);
  const result = await enqueueMessages(trx, {
    companyId: c.companyId, channel, purpose: 'transactional', source: 'flow', items: [{ to: address ?? to, body: text, invalid: address === null }],
    // A conversation repeats itself on purpose (a question asked again): the duplicate rule is for campaigns.
    duplicateWindowHours: 0, heldUntil: null, now, onInsufficientCredits: 'reject',
  });
  return result.ids[0] ?? null;
}

/** Adds the turn's step counts (one upsert per step and event). */
async function count(trx: Transaction<Database>, c: Conversation, effects: Effect[]): Promise<void> {
  const counts = new Map<string, { step: string; event: string; n: number }>();
  for (const e of effects) {
    if (e.kind !== 'count') continue;
    const key = `${e.stepId}\u0000${e.event}`;
    const kept = counts.get(key);
    if (kept) kept.n += 1;
    else counts.set(key, { step: e.stepId, event: e.event, n: 1 });
  }
  if (!counts.size) return;
  await trx.insertInto('flow_step_counts')
    .values([...counts.values()].map((k) => ({ flow_id: c.flowId, version: c.flowVersion, step_id: k.step, event: k.event, count: k.n })))
    .onConflict((oc) => oc.columns(['flow_id', 'version', 'step_id', 'event']).doUpdateSet((eb) => ({ count: eb('flow_step_counts.count', '+', eb.ref('excluded.count')) })))
    .execute();
}

/**
 * Applies `event` to the conversation (its row locked by the caller, in `trx`) and carries out the
 * effects. A refused event (a message while an integration call is out, an event after the end)
 * changes nothing but the transcript.
 */
export async function takeTurn(
  trx: Transaction<Database>, c: Conversation, channel: { id: number; platform: ChannelPlatform }, flow: FlowDefinition, event: FlowEvent, now: Date,
  /** The message the turn's replies must follow (a campaign's message, when its launch starts the conversation). */
  after: number | null = null,
): Promise<TurnOutcome> {
  const turn = advance(flow, c.session, event);
  const outcome: TurnOutcome = { turn, sent: 0, called: false };
  if (turn.refused) return outcome;
  let timerAt = c.timerAt;
  let previous: number | null = after;
  for (const effect of turn.effects) {
    switch (effect.kind) {
      case 'send': {
        const id = await send(trx, c, channel, c.contact, effect.text, now);
        await addTurn(trx, c, 'out', effect.text, now, effect.stepId, id);
        if (id !== null) {
          // The person reads the turn's replies in the order the flow sent them.
          if (previous !== null) await sendAfter(trx, id, previous);
          previous = id;
          outcome.sent += 1;
        }
        break;
      }
      case 'sendSms': {
        const sms = await companySmsChannel(trx, c.companyId);
        if (!sms) {
          await recordIncident(trx, c, effect.stepId, `no SMS channel to send to ${effect.to}`, now);
          break;
        }
        const id = await send(trx, c, sms, effect.to, effect.text, now);
        await addTurn(trx, c, 'note', `SMS → ${effect.to}: ${effect.text}`, now, effect.stepId, id);
        if (id !== null) outcome.sent += 1;
        break;
      }
      case 'http':
        await createJob(trx, 'flowCall', {
          conversationId: c.id, companyId: c.companyId, stepId: effect.stepId,
          request: { method: effect.method, url: effect.url, contentType: effect.contentType, body: effect.body, timeoutSeconds: effect.timeoutSeconds },
        }, now);
        outcome.called = true;
        break;
      case 'setTimer':
        timerAt = new Date(now.getTime() + effect.minutes * 60_000);
        break;
      case 'cancelTimer':
        timerAt = null;
        break;
      case 'assign':
      case 'count':
        break; // the session holds the variables; counts are added together below
      default: {
        const unhandled: never = effect;
        throw new Error(`unhandled effect ${JSON.stringify(unhandled)}`);
      }
    }
  }
  await count(trx, c, turn.effects);
  await saveConversation(trx, c.id, turn.session, timerAt, now);
  if (turn.session.state === 'completed') {
    for (const id of await endCampaignConversationsIfFull(trx, c.id, now)) {
      await addTurn(trx, { id, companyId: c.companyId }, 'note', 'the campaign reached its maximum of complete interactions', now);
    }
  }
  return outcome;
}
