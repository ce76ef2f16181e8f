// Every state change of a conversation, with its SQL (like lifecycle/message-states.ts for
// messages): opened for a number, locked for a turn, saved with its timer, stopped. A turn is one
// transaction that locks the conversation's row (FOR UPDATE), so a message in, the no-reply timer
// and an integration's answer for one conversation never interleave; the timer is the `timer_at`
// column, claimed with FOR UPDATE SKIP LOCKED by whichever process gets it first.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Session } from '../../core/flows/runtime.ts';
import type { ConversationState } from '../../generated/enums.gen.ts';
import type { Database } from '../database.ts';
import { jsonValue } from '../tables/columns.ts';

/** A conversation as a turn needs it. */
export interface Conversation {
  id: number;
  companyId: number;
  channelId: number;
  flowId: number;
  flowVersion: number;
  contact: string;
  session: Session;
  timerAt: Date | null;
}

/** The states in which a conversation waits for something (the partial unique index of migration 0480 keeps one per number and channel). */
export const OPEN_STATES: readonly ConversationState[] = ['waitingReply', 'waitingIntegration'];
export const isOpen = (state: ConversationState) => OPEN_STATES.includes(state);

type Row = { id: number | string; company_id: number; channel_id: number; flow_id: number; flow_version: number; contact: string; session: unknown; timer_at: Date | null };
const COLUMNS = sql.raw('id, company_id, channel_id, flow_id, flow_version, contact, session, timer_at');
const toConversation = (r: Row): Conversation => ({
  id: Number(r.id), companyId: r.company_id, channelId: r.channel_id, flowId: r.flow_id, flowVersion: r.flow_version, contact: r.contact,
  session: jsonValue<Session>(r.session), timerAt: r.timer_at,
});

/** Who answers an open conversation now, read with its lock (inbound.ts decides 1001 from it). */
export interface ConversationBot {
  campaignId: number | null;
  /** Its agent as it is now: null when it was deleted (or the conversation is a campaign's). */
  agent: { active: boolean; channelId: number; flowId: number } | null;
  /** The flow's current training file (migration 0495); null: answers are matched as written. */
  trainingUpload: number | null;
}

type BotRow = Row & { campaign_id: number | null; agent: number | null; agent_active: boolean | null; agent_channel: number | null; agent_flow: number | null; training_upload: number | null };

/**
 * The number's open conversation on the channel, locked for this turn, with who answers it now
 * (one statement: a message in reads nothing else before its turn). The states are written out
 * (OPEN_STATES as literals) so PostgreSQL can prove the partial unique index's predicate and use it.
 */
export async function lockOpenConversation(trx: Transaction<Database>, channelId: number, contact: string): Promise<(Conversation & { bot: ConversationBot }) | null> {
  const rows = await sql<BotRow>`select c.id, c.company_id, c.channel_id, c.flow_id, c.flow_version, c.contact, c.session, c.timer_at, c.campaign_id,
      a.id as agent, a.active as agent_active, a.channel_id as agent_channel, a.flow_id as agent_flow, f.training_upload
    from conversations c left join agents a on a.id = c.agent_id join flows f on f.id = c.flow_id
    where c.channel_id = ${channelId} and c.contact = ${contact} and c.state in ('waitingReply', 'waitingIntegration') for update of c`.execute(trx);
  const r = rows.rows[0];
  if (!r) return null;
  return {
    ...toConversation(r),
    bot: {
      campaignId: r.campaign_id,
      agent: r.agent === null ? null : { active: !!r.agent_active, channelId: r.agent_channel!, flowId: r.agent_flow! },
      trainingUpload: r.training_upload,
    },
  };
}

/** A conversation by id, locked for this turn (an integration's answer finds its conversation so). */
export async function lockConversation(trx: Transaction<Database>, id: number): Promise<Conversation | null> {
  const rows = await sql<Row>`select ${COLUMNS} from conversations where id = ${id} for update`.execute(trx);
  return rows.rows[0] ? toConversation(rows.rows[0]) : null;
}

/** A new conversation, before its first turn (which saves its real state). */
export async function openConversation(trx: Transaction<Database>, c: Omit<Conversation, 'id' | 'timerAt'> & { agentId: number | null; campaignId?: number | null }, now: Date): Promise<Conversation> {
  const row = await trx.insertInto('conversations').values({
    company_id: c.companyId, channel_id: c.channelId, agent_id: c.agentId, campaign_id: c.campaignId ?? null, flow_id: c.flowId, flow_version: c.flowVersion, contact: c.contact,
    state: c.session.state, step_id: c.session.stepId, session: JSON.stringify(c.session), timer_at: null, started_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  return { ...c, id: Number(row.id), timerAt: null };
}

/** The session after a turn, with its timer (null: none); an ended conversation has no timer. */
export async function saveConversation(trx: Transaction<Database>, id: number, session: Session, timerAt: Date | null, now: Date): Promise<void> {
  await saveConversations(trx, [{ id, session, timerAt }], now);
}

/** saveConversation for many conversations in one statement (the turns of one transaction). */
export async function saveConversations(trx: Transaction<Database>, saved: readonly SavedConversation[], now: Date): Promise<void> {
  await saveConversationsSql(saved, now)?.execute(trx);
}

export interface SavedConversation { id: number; session: Session; timerAt: Date | null }

/** The UPDATE that saves conversations (null when there are none): a turn runs it with its other writes (one-statement.ts). */
export function saveConversationsSql(saved: readonly SavedConversation[], now: Date): RawBuilder<unknown> | null {
  if (!saved.length) return null;
  const ended = saved.map((s) => !isOpen(s.session.state));
  return sql`update conversations c set state = v.state, step_id = v.step_id, session = v.session::jsonb,
      timer_at = case when v.ended then null else v.timer_at end, updated_at = ${now},
      ended_at = case when v.ended then ${now}::timestamptz else c.ended_at end
    from unnest(${saved.map((s) => s.id)}::bigint[], ${saved.map((s) => s.session.state)}::text[], ${saved.map((s) => s.session.stepId)}::text[],
                ${saved.map((s) => JSON.stringify(s.session))}::text[], ${saved.map((s) => s.timerAt)}::timestamptz[], ${ended}::boolean[])
      as v(id, state, step_id, session, timer_at, ended)
    where c.id = v.id`;
}

/** The person left (SALIR / CANCELAR): their open conversation on the channel ends, abandoned. Answers its id, if any. */
export async function stopOpenConversation(trx: Transaction<Database>, channelId: number, contact: string, now: Date): Promise<number | null> {
  const open = await lockOpenConversation(trx, channelId, contact);
  if (!open) return null;
  await saveConversation(trx, open.id, { ...open.session, state: 'abandoned' }, null, now);
  return open.id;
}

/** Conversations whose timer is due, locked (SKIP LOCKED: another process takes the others); the caller applies each in this transaction. */
export async function lockDueTimers(trx: Transaction<Database>, now: Date, limit: number): Promise<Conversation[]> {
  const rows = await sql<Row>`select ${COLUMNS} from conversations where timer_at <= ${now}
    order by timer_at limit ${limit} for update skip locked`.execute(trx);
  return rows.rows.map(toConversation);
}

/** The earliest timer of any conversation (the poller sleeps until it), or null. */
export async function nextTimerAt(db: Kysely<Database>): Promise<Date | null> {
  const row = await sql<{ at: Date | string | null }>`select min(timer_at) as at from conversations where timer_at is not null`.execute(db);
  const at = row.rows[0]?.at ?? null;
  return at === null ? null : new Date(at);
}

/**
 * A campaign's "max complete interactions": once that many of its conversations
 * completed, its others still open end (abandoned, timer cleared). Rows another turn holds right
 * now are skipped rather than waited for (two completions at once must not wait on each other);
 * they are closed by the next completion. Answers the ids it ended.
 */
export async function endCampaignConversationsIfFull(trx: Transaction<Database>, conversationId: number, now: Date): Promise<number[]> {
  const limit = await sql<{ campaign_id: number; max: number }>`
    select c.campaign_id, k.max_complete_interactions as max from conversations c join campaigns k on k.id = c.campaign_id
    where c.id = ${conversationId} and k.max_complete_interactions is not null`.execute(trx);
  const campaign = limit.rows[0];
  if (!campaign) return [];
  const done = await sql<{ n: number | string }>`select count(*) as n from conversations where campaign_id = ${campaign.campaign_id} and state = 'completed'`.execute(trx);
  if (Number(done.rows[0].n) < campaign.max) return [];
  const ended = await sql<{ id: number | string }>`
    update conversations set state = 'abandoned', timer_at = null, ended_at = ${now}, updated_at = ${now}
    where id in (select id from conversations where campaign_id = ${campaign.campaign_id} and state in ('waitingReply', 'waitingIntegration') and id <> ${conversationId}
                 for update skip locked)
    returning id`.execute(trx);
  return ended.rows.map((r) => Number(r.id));
}
