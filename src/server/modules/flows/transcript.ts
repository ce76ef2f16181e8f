// A conversation's transcript as people read it: what the person wrote, what the flow
// sent with where each message stands and why it did not go (the lifecycle's reasonOf, as the
// campaigns' messages say it), and the notes. One reading for the conversation's own page and the
// call-center query, which shows the transcripts of the number it looks up. Notes read in the
// reader's language (note-words.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { reasonOf } from '../../../engine/lifecycle/index.ts';
import type { ConversationTurnDirection, MessageState } from '../../../generated/enums.gen.ts';
import type { Conversation } from '../../../generated/types.gen.ts';
import { duplicateWindowHours } from '../../../engine/campaigns/index.ts';
import type { Words } from '../../i18n/document-words.ts';
import { noteWords } from './note-words.ts';

export type TranscriptTurn = Required<NonNullable<Conversation['turns']>[number]> & { conversationId: number };

/**
 * The turns of `conversationIds` (the caller's company's), in the order they happened; with
 * `last`, only the latest that many (still in order).
 */
export async function transcriptOf(db: Kysely<Database>, companyId: number, conversationIds: readonly number[], last: number, words: Words): Promise<TranscriptTurn[]> {
  if (!conversationIds.length) return [];
  const rows = await db.selectFrom('conversation_turns as t')
    .leftJoin('messages as m', (j) => j.onRef('m.id', '=', 't.message_id').on('m.company_id', '=', companyId))
    .select(['t.id', 't.conversation_id', 't.direction', 't.step_id', 't.body', 't.note', 't.message_id', 't.at', 'm.state', 'm.status_code', 'm.error_code', 'm.held_reason', 'm.not_before'])
    .where('t.conversation_id', 'in', conversationIds).where('t.company_id', '=', companyId)
    .orderBy('t.id', 'desc').limit(last).execute();
  const duplicateHours = await duplicateWindowHours(db, companyId);
  return rows.reverse().map((t) => ({
    conversationId: Number(t.conversation_id),
    // A note in the reader's language (its kind and values); what a person or the flow wrote, as written.
    direction: t.direction as ConversationTurnDirection, stepId: t.step_id, body: t.direction === 'note' ? noteWords(words, t.note, t.body) : t.body, messageId: t.message_id === null ? null : Number(t.message_id),
    // What the person wrote reads 'received' (spec 4's inbound state); a note has none.
    messageState: t.direction === 'in' ? 'received' : ((t.state ?? null) as MessageState | null),
    reason: t.state ? reasonOf({ state: t.state, status_code: t.status_code!, error_code: t.error_code ?? null, held_reason: t.held_reason ?? null, not_before: t.not_before! }, duplicateHours) : null,
    at: t.at.toISOString(),
  }));
}
