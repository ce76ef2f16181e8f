// No-reply timers: a conversation waiting for a person has `timer_at`; when it is
// due, the conversation takes a noReply turn (a retry, or out by its timeout output). The due rows
// are locked with FOR UPDATE SKIP LOCKED in the transaction that applies them, so each fires once
// across several processes, and a message in — which locks the same row and clears the timer in
// its own turn — either comes first (the timer is gone) or waits for the timer's turn to commit.
import type { Kysely } from 'kysely';
import type { ChannelPlatform } from '../../generated/enums.gen.ts';
import type { Database } from '../database.ts';
import { lockDueTimers, saveConversation, saveConversations } from './sessions.ts';
import { notes } from './notes.ts';
import { recordIncident, takeTurns, type TurnRequest } from './turns.ts';
import type { FlowVersions } from './versions.ts';

export interface FiredTimers {
  fired: number;
  /** Messages enqueued by the turns (the dispatcher should look). */
  sent: number;
  /** Integration calls queued (the job runner should look). */
  called: boolean;
}

/**
 * Fires up to `limit` due timers in one transaction, their turns taken together (turns.ts
 * takeTurns: a few statements for the whole batch, whatever its size).
 */
export async function fireDueTimers(db: Kysely<Database>, versions: FlowVersions, now: Date, limit = 1000): Promise<FiredTimers> {
  return db.transaction().execute(async (trx) => {
    const due = await lockDueTimers(trx, now, limit);
    const result: FiredTimers = { fired: due.length, sent: 0, called: false };
    if (!due.length) return result;
    const channels = new Map((await trx.selectFrom('channels').select(['id', 'platform']).where('id', 'in', [...new Set(due.map((c) => c.channelId))]).execute())
      .map((r) => [r.id, { id: r.id, platform: r.platform as ChannelPlatform }]));
    const requests: TurnRequest[] = [];
    for (const c of due) {
      const flow = await versions(trx, c.flowId, c.flowVersion);
      const channel = channels.get(c.channelId);
      if (!flow || !channel) {
        await recordIncident(trx, c, c.session.stepId, notes.lostVersionOrChannel(), now);
        await saveConversation(trx, c.id, { ...c.session, state: 'abandoned' }, null, now);
        continue;
      }
      // The timer is spent whatever the turn does (a turn that sets a new one writes it back).
      requests.push({ conversation: { ...c, timerAt: null }, channel, flow, event: { kind: 'noReply' } });
    }
    const outcomes = await takeTurns(trx, requests, now);
    const refused = requests.filter((_, i) => outcomes[i].turn.refused).map((r) => ({ id: r.conversation.id, session: r.conversation.session, timerAt: null }));
    await saveConversations(trx, refused, now);
    for (const o of outcomes) {
      result.sent += o.sent;
      result.called ||= o.called;
    }
    return result;
  });
}
