// Inbound messages (two-way channels): stored once per provider id (replays are ignored), then
// routed. SALIR / CANCELAR always win: the sender goes on the company's block list through its one
// writer (block-list-writer.ts: effective after the 24-hour rule, a removed entry revived) and their open conversation on
// the channel ends. Otherwise the conversations take it when they can (the number's open
// conversation, else an agent started by its keyword: engine/conversations/inbound.ts); what they do
// not take is kept with the channel keyword it carries (the first word, as isKeyword reads it:
// case and accents aside).
import type { Kysely, Transaction } from 'kysely';
import { isKeyword } from '../core/flows/matching.ts';
import type { ChannelPlatform } from '../generated/enums.gen.ts';
import { blockNumbers } from './block-list-writer.ts';
import type { InboundEvent } from './channel-adapter.ts';
import type { Conversations } from './conversations/index.ts';
import { stopOpenConversation } from './conversations/sessions.ts';
import type { Database } from './database.ts';

export const OPT_OUT_WORDS = ['SALIR', 'CANCELAR'];

export async function routeInbound(db: Kysely<Database>, channelId: number, event: InboundEvent, conversations: Conversations | null = null, clock: () => Date = () => new Date()): Promise<void> {
  const channel = await db.selectFrom('channels').select(['company_id', 'keywords', 'platform']).where('id', '=', channelId).executeTakeFirst();
  if (!channel) return;
  const optOut = isKeyword(OPT_OUT_WORDS, event.text);
  const keyword = channel.keywords.find((k) => isKeyword([k], event.text)) ?? null;
  const now = clock();
  const row = {
    company_id: channel.company_id, channel_id: channelId, from_number: event.from, to_address: event.to, body: event.text,
    keyword, action: optOut ? 'optOut' : keyword ? 'keyword' : null, provider_message_id: event.providerMessageId || `${event.from}:${event.at.getTime()}`,
    received_at: event.at,
  };
  /** Stores the row once per provider id: undefined when it was stored before (a replay). */
  const store = (on: Kysely<Database> | Transaction<Database>) => on.insertInto('inbound_messages').values(row)
    .onConflict((oc) => oc.columns(['channel_id', 'provider_message_id']).doNothing()).returning('id').executeTakeFirst();
  if (!optOut && conversations) {
    // The row, the turn and "taken" in one transaction: one commit for a message in and its turn.
    let id: number | string | null = null;
    try {
      await conversations.receive({ channel: { id: channelId, companyId: channel.company_id, platform: channel.platform as ChannelPlatform }, from: event.from, text: event.text, at: now }, {
        store: async (trx) => { id = (await store(trx))?.id ?? null; return id !== null; },
        taken: async (trx) => { await trx.updateTable('inbound_messages').set({ action: 'conversation' }).where('id', '=', id!).execute(); },
      });
    } catch (error) {
      // The turn failed and took the row with it: the message is kept all the same.
      await store(db);
      throw error;
    }
    return;
  }
  const stored = await store(db);
  if (!stored || !optOut) return;
  const phone = event.from.startsWith('+') ? event.from : `+${event.from}`;
  await db.transaction().execute(async (trx) => {
    await stopOpenConversation(trx, channelId, event.from, now);
    await blockNumbers(trx, { companyId: channel.company_id, userId: null, phones: [phone], source: 'manual', now });
  });
}
