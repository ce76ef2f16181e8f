// The turns of conversations: the pure runtime (src/core/flows/runtime.ts) decides, this file
// carries out what it decided, in the transaction that holds the conversations' rows: the messages
// they send (rows in `messages`, through the engine's enqueue: block list, credits and the rest
// apply as to any message), the integration calls (`flowCall` jobs), the no-reply timers (the
// rows' `timer_at`), the transcript, and the step counts for the flows' statistics. Nothing here
// decides a step.
//
// One turn or a thousand (the no-reply timers that fell due together, a campaign's launch) go the
// same way and cost the same statements: one enqueue per channel, then ONE statement for the rest
// (one-statement.ts: the upsert of counts, the transcript rows, the replies' order and the update of
// the conversations, as data-modifying WITH parts). The replies' credits are reserved when the
// dispatcher claims them (migration 0496), not here: the reservation locks the company's balance
// row until commit, and every turn of the company waited there for the others.
import { noteLine, notes, type FlowNote } from './notes.ts';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { advance, type FlowEvent, type Turn } from '../../core/flows/runtime.ts';
import type { ChannelPlatform, ConversationTurnDirection } from '../../generated/enums.gen.ts';
import type { FlowDefinition } from '../../generated/types.gen.ts';
import { companySmsChannel } from '../channels/company-sms-channel.ts';
import { destinationOn } from '../channels/registry.ts';
import type { Database } from '../database.ts';
import { enqueueMessages, sendAfterSql } from '../lifecycle/enqueue.ts';
import { inOneStatement } from '../one-statement.ts';
import { createJob } from '../lifecycle/jobs.ts';
import { endCampaignConversationsIfFull, saveConversationsSql, type Conversation } from './sessions.ts';

type Channel = { id: number; platform: ChannelPlatform };

/** What a turn's effects reach outside its transaction: woken after it commits. */
export interface TurnOutcome {
  turn: Turn;
  /** Messages were enqueued: the dispatcher should look. */
  sent: number;
  /** An integration call was queued: the job runner should look. */
  called: boolean;
}

/** A transcript line written before the turn's own (the person's message in; a campaign's message out). */
export interface TranscriptLine {
  direction: ConversationTurnDirection;
  body: string;
  stepId?: string | null;
  messageId?: number | null;
}

export interface TurnRequest {
  /** Locked by the caller, in the same transaction. */
  conversation: Conversation;
  channel: Channel;
  flow: FlowDefinition;
  event: FlowEvent;
  /** The message the turn's replies must follow (a campaign's message, when its launch starts the conversation). */
  after?: number | null;
  /** Written first, even when the runtime refuses the event. */
  lead?: readonly TranscriptLine[];
}

export async function addTurn(trx: Transaction<Database>, c: Pick<Conversation, 'id' | 'companyId'>, direction: ConversationTurnDirection, body: string, now: Date, stepId: string | null = null, messageId: number | null = null): Promise<void> {
  await linesSql([{ conversationId: c.id, companyId: c.companyId, direction, body, stepId, messageId }], now)?.execute(trx);
}

/** A note in the conversation's transcript: its English line and its kind and values. */
export async function addNote(trx: Transaction<Database>, c: Pick<Conversation, 'id' | 'companyId'>, note: FlowNote, now: Date, stepId: string | null = null): Promise<void> {
  await linesSql([{ conversationId: c.id, companyId: c.companyId, direction: 'note', body: noteLine(note), stepId, messageId: null, note }], now)?.execute(trx);
}

/** An incident of the conversation's flow (the incidents report), without its transcript note. */
async function addIncident(trx: Transaction<Database>, c: Pick<Conversation, 'id' | 'companyId' | 'flowId'>, stepId: string | null, note: FlowNote, now: Date): Promise<void> {
  await trx.insertInto('flow_incidents').values({ company_id: c.companyId, flow_id: c.flowId, conversation_id: c.id, step_id: stepId, detail: noteLine(note), note: JSON.stringify(note), at: now }).execute();
}

/** An incident, and the same note in the conversation's transcript. */
export async function recordIncident(trx: Transaction<Database>, c: Pick<Conversation, 'id' | 'companyId' | 'flowId'>, stepId: string | null, note: FlowNote, now: Date): Promise<void> {
  await addIncident(trx, c, stepId, note, now);
  await addNote(trx, c, note, now, stepId);
}

/** One message a turn sends, until the enqueue gives it an id. */
interface Outgoing { turn: number; channel: Channel; companyId: number; to: string; text: string; id: number | null }
/** One transcript row; `send` points at its message in the list of outgoing ones; a note carries its kind. */
interface Line { turn: number; direction: ConversationTurnDirection; body: string; stepId: string | null; messageId: number | null; send?: number; note?: FlowNote }

/** Takes one turn (see takeTurns). */
export async function takeTurn(
  trx: Transaction<Database>, c: Conversation, channel: Channel, flow: FlowDefinition, event: FlowEvent, now: Date, after: number | null = null,
): Promise<TurnOutcome> {
  return (await takeTurns(trx, [{ conversation: c, channel, flow, event, after }], now))[0];
}

/**
 * Applies each request's event to its conversation and carries out the effects; answers one
 * outcome per request, in order. A refused event (a message while an integration call is out, an
 * event after the end) changes nothing but the transcript (its lead lines).
 */
export async function takeTurns(trx: Transaction<Database>, requests: readonly TurnRequest[], now: Date): Promise<TurnOutcome[]> {
  const outcomes: TurnOutcome[] = requests.map((r) => ({ turn: advance(r.flow, r.conversation.session, r.event), sent: 0, called: false }));
  const lines: Line[] = [];
  const outgoing: Outgoing[] = [];
  /** Which outgoing messages keep their order (a turn's replies on its channel, after `after`). */
  const chained = new Set<number>();
  const counts = new Map<string, StepCount>();
  const saved: { id: number; session: Turn['session']; timerAt: Date | null }[] = [];
  const smsChannels = new Map<number, Channel | null>();

  for (const [i, r] of requests.entries()) {
    const c = r.conversation;
    for (const l of r.lead ?? []) lines.push({ turn: i, direction: l.direction, body: l.body, stepId: l.stepId ?? null, messageId: l.messageId ?? null });
    const { turn } = outcomes[i];
    if (turn.refused) continue;
    let timerAt = c.timerAt;
    for (const effect of turn.effects) {
      switch (effect.kind) {
        case 'send':
          chained.add(outgoing.length);
          lines.push({ turn: i, direction: 'out', body: effect.text, stepId: effect.stepId, messageId: null, send: outgoing.length });
          outgoing.push({ turn: i, channel: r.channel, companyId: c.companyId, to: c.contact, text: effect.text, id: null });
          break;
        case 'sendSms': {
          if (!smsChannels.has(c.companyId)) smsChannels.set(c.companyId, await companySmsChannel(trx, c.companyId));
          const sms = smsChannels.get(c.companyId);
          if (!sms) {
            const note = notes.noSmsChannel(effect.to);
            // Its note goes with the turn's other lines, in order.
            await addIncident(trx, c, effect.stepId, note, now);
            lines.push({ turn: i, direction: 'note', body: noteLine(note), stepId: effect.stepId, messageId: null, note });
            break;
          }
          const sent = notes.smsSent(effect.to, effect.text);
          lines.push({ turn: i, direction: 'note', body: noteLine(sent), stepId: effect.stepId, messageId: null, send: outgoing.length, note: sent });
          outgoing.push({ turn: i, channel: sms, companyId: c.companyId, to: effect.to, text: effect.text, id: null });
          break;
        }
        case 'http':
          await createJob(trx, 'flowCall', {
            conversationId: c.id, companyId: c.companyId, stepId: effect.stepId,
            request: { method: effect.method, url: effect.url, contentType: effect.contentType, body: effect.body, timeoutSeconds: effect.timeoutSeconds },
          }, now);
          outcomes[i].called = true;
          break;
        case 'setTimer':
          timerAt = new Date(now.getTime() + effect.minutes * 60_000);
          break;
        case 'cancelTimer':
          timerAt = null;
          break;
        case 'count': {
          const shard = c.id % COUNT_SHARDS;
          const key = `${c.flowId}\u0000${c.flowVersion}\u0000${effect.stepId}\u0000${effect.event}\u0000${shard}`;
          const kept = counts.get(key);
          if (kept) kept.n += 1;
          else counts.set(key, { flowId: c.flowId, version: c.flowVersion, stepId: effect.stepId, event: effect.event, shard, n: 1 });
          break;
        }
        case 'assign':
          break; // the session holds the variables
        default: {
          const unhandled: never = effect;
          throw new Error(`unhandled effect ${JSON.stringify(unhandled)}`);
        }
      }
    }
    saved.push({ id: c.id, session: turn.session, timerAt });
  }

  // The replies first (the transcript points at them), then the turns' own writes in one statement.
  await send(trx, outgoing, now);
  for (const line of lines) if (line.send !== undefined) line.messageId = outgoing[line.send].id;
  // The person reads each turn's replies in the order the flow sent them.
  const previous = new Map<number, number | null>(requests.map((r, i) => [i, r.after ?? null]));
  const pairs: { id: number; after: number }[] = [];
  for (const [k, o] of outgoing.entries()) {
    if (o.id === null) continue;
    outcomes[o.turn].sent += 1;
    if (!chained.has(k)) continue;
    const before = previous.get(o.turn) ?? null;
    if (before !== null) pairs.push({ id: o.id, after: before });
    previous.set(o.turn, o.id);
  }
  await inOneStatement(trx, [
    countsSql([...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, k]) => k)),
    linesSql(lines.map((l) => ({ ...l, conversationId: requests[l.turn].conversation.id, companyId: requests[l.turn].conversation.companyId })), now),
    sendAfterSql(pairs),
    saveConversationsSql(saved, now),
  ]);
  for (const [i, o] of outcomes.entries()) {
    if (o.turn.refused || o.turn.session.state !== 'completed') continue;
    const c = requests[i].conversation;
    for (const id of await endCampaignConversationsIfFull(trx, c.id, now)) {
      await addNote(trx, { id, companyId: c.companyId }, notes.campaignFull(), now);
    }
  }
  return outcomes;
}

/** The transcript lines of the turns, in order (arrays, not a parameter per value); null when there are none. */
function linesSql(lines: readonly (Omit<Line, 'turn' | 'send'> & { conversationId: number; companyId: number })[], now: Date): RawBuilder<unknown> | null {
  if (!lines.length) return null;
  return sql`insert into conversation_turns (conversation_id, company_id, direction, step_id, body, message_id, note, at)
    select t.conversation_id, t.company_id, t.direction, t.step_id, t.body, t.message_id, t.note, ${now}::timestamptz
    from unnest(${lines.map((l) => l.conversationId)}::bigint[], ${lines.map((l) => l.companyId)}::int[], ${lines.map((l) => l.direction)}::text[],
                ${lines.map((l) => l.stepId)}::text[], ${lines.map((l) => l.body)}::text[], ${lines.map((l) => l.messageId)}::bigint[],
                ${lines.map((l) => (l.note ? JSON.stringify(l.note) : null))}::jsonb[])
         with ordinality as t(conversation_id, company_id, direction, step_id, body, message_id, note, n)
    order by t.n`;
}

/**
 * Rows a step and event's count is spread over (migration 0494), by conversation: concurrent turns
 * of one flow add to different rows instead of waiting for each other's commit; readers sum them.
 */
const COUNT_SHARDS = 16;
type StepCount = { flowId: number; version: number; stepId: string; event: string; shard: number; n: number };

/** The turns' step counts: one upsert, rows in a fixed order (two transactions never wait on each other crosswise); null when there are none. */
function countsSql(rows: StepCount[]): RawBuilder<unknown> | null {
  if (!rows.length) return null;
  return sql`insert into flow_step_counts (flow_id, version, step_id, event, shard, count)
    select k.flow_id, k.version, k.step_id, k.event, k.shard, k.count
    from unnest(${rows.map((k) => k.flowId)}::int[], ${rows.map((k) => k.version)}::int[], ${rows.map((k) => k.stepId)}::text[],
                ${rows.map((k) => k.event)}::text[], ${rows.map((k) => k.shard)}::smallint[], ${rows.map((k) => k.n)}::bigint[])
         with ordinality as k(flow_id, version, step_id, event, shard, count, n)
    order by k.n
    on conflict (flow_id, version, step_id, event, shard) do update set count = flow_step_counts.count + excluded.count`;
}

/**
 * Enqueues the turns' messages, one enqueue per company and channel. Their credits are reserved
 * when the dispatcher claims them (enqueue's `creditsAt: 'claim'`), for its whole batch: a turn
 * never waits on its company's balance row, which every concurrent turn of the company would
 * otherwise take in turn until its commit. A reply the credits do not cover is refused there (81).
 */
async function send(trx: Transaction<Database>, outgoing: Outgoing[], now: Date): Promise<void> {
  const groups = new Map<string, number[]>();
  for (const [k, o] of outgoing.entries()) {
    const key = `${o.companyId}:${o.channel.id}`;
    const group = groups.get(key);
    if (group) group.push(k);
    else groups.set(key, [k]);
  }
  for (const group of groups.values()) {
    const first = outgoing[group[0]];
    const items = group.map((k) => {
      const address = destinationOn(first.channel.platform, outgoing[k].to);
      return { to: address ?? outgoing[k].to, body: outgoing[k].text, invalid: address === null };
    });
    const result = await enqueueMessages(trx, {
      companyId: first.companyId, channel: first.channel, purpose: 'transactional', source: 'flow', items,
      // A conversation repeats itself on purpose (a question asked again): the duplicate rule is for campaigns.
      duplicateWindowHours: 0, heldUntil: null, now, onInsufficientCredits: 'reject', creditsAt: 'claim',
    });
    // Identities follow the items' order (enqueue inserts them `order by` the item's position).
    const ids = [...result.ids].sort((a, b) => a - b);
    group.forEach((k, n) => { outgoing[k].id = ids[n] ?? null; });
  }
}
