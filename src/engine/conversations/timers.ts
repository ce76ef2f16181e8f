// No-reply timers (issue 15 §2): a conversation waiting for a person has `timer_at`; when it is
// due, the conversation takes a noReply turn (a retry, or out by its timeout output). The due rows
// are locked with FOR UPDATE SKIP LOCKED in the transaction that applies them, so each fires once
// across several processes, and a message in — which locks the same row and clears the timer in
// its own turn — either comes first (the timer is gone) or waits for the timer's turn to commit.
import type { Kysely } from 'kysely';
import type { ChannelPlatform } from '../../generated/enums.gen.ts';
import type { Database } from '../database.ts';
import { lockDueTimers, saveConversation } from './sessions.ts';
import { recordIncident, takeTurn } from './turns.ts';
import type { FlowVersions } from './versions.ts';

export interface FiredTimers {
  fired: number;
  /** Messages enqueued by the turns (the dispatcher should look). */
  sent: number;
  /** Integration calls queued (the job runner should look). */
  called: boolean;
}

/** Fires up to `limit` due timers in one transaction. */
export async function fireDueTimers(db: Kysely<Database>, versions: FlowVersions, now: Date, limit = 200): Promise<FiredTimers> {
  return db.transaction().execute(async (trx) => {
    const due = await lockDueTimers(trx, now, limit);
    const result: FiredTimers = { fired: due.length, sent: 0, called: false };
    if (!due.length) return result;
    const channels = new Map((await trx.selectFrom('channels').select(['id', 'platform']).where('id', 'in', [...new Set(due.map((c) => c.channelId))]).execute())
      .map((r) => [r.id, { id: r.id, platform: r.platform as ChannelPlatform }]));
    for (const c of due) {
      const flow = await versions(trx, c.flowId, c.flowVersion);
      const channel = channels.get(c.channelId);
      if (!flow || !channel) {
        await recordIncident(trx, c, c.session.stepId, 'the conversation lost its flow version or channel', now);
        await saveConversation(trx, c.id, { ...c.session, state: 'abandoned' }, null, now);
        continue;
      }
      // The timer is spent whatever the turn does (a turn that sets a new one writes it back).
      const outcome = await takeTurn(trx, { ...c, timerAt: null }, channel, flow, { kind: 'noReply' }, now);
      if (outcome.turn.refused) await saveConversation(trx, c.id, c.session, null, now);
      result.sent += outcome.sent;
      result.called ||= outcome.called;
    }
    return result;
  });
}
