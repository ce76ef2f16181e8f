// Inbound messages (two-way channels): stored once per provider id (replays are ignored), then
// routed. SALIR / CANCELAR always win: the sender goes on the company's block list (effective after
// constants.blockList.applyAfterHours, like every block-list change) and their open conversation on
// the channel ends. Otherwise the conversations take it when they can (the number's open
// conversation, else an agent started by its keyword: engine/conversations/inbound.ts); what they do
// not take is kept with the channel keyword it carries (the first word, as isKeyword reads it:
// case and accents aside).
import { sql, type Kysely } from 'kysely';
import { effectiveAfter } from '../../core/block-list.ts';
import { isKeyword } from '../../core/flows/matching.ts';
import type { InboundEvent } from '../../engine/channel-adapter.ts';
import type { Conversations } from '../../engine/conversations/index.ts';
import { stopOpenConversation } from '../../engine/conversations/sessions.ts';
import type { Database } from '../../engine/database.ts';
import type { ChannelPlatform } from '../../generated/enums.gen.ts';
import { constants } from '../../generated/constants.gen.ts';

export const OPT_OUT_WORDS = ['SALIR', 'CANCELAR'];

export async function routeInbound(db: Kysely<Database>, channelId: number, event: InboundEvent, conversations: Conversations | null = null): Promise<void> {
  const channel = await db.selectFrom('channels').select(['company_id', 'keywords', 'platform']).where('id', '=', channelId).executeTakeFirst();
  if (!channel) return;
  const optOut = isKeyword(OPT_OUT_WORDS, event.text);
  const keyword = channel.keywords.find((k) => isKeyword([k], event.text)) ?? null;
  const now = new Date();
  const stored = await db.insertInto('inbound_messages').values({
    company_id: channel.company_id, channel_id: channelId, from_number: event.from, to_address: event.to, body: event.text,
    keyword, action: optOut ? 'optOut' : keyword ? 'keyword' : null, provider_message_id: event.providerMessageId || `${event.from}:${event.at.getTime()}`,
    received_at: event.at,
  }).onConflict((oc) => oc.columns(['channel_id', 'provider_message_id']).doNothing()).returning('id').executeTakeFirst();
  if (!stored) return;
  if (!optOut) {
    const taken = await conversations?.receive({ channel: { id: channelId, companyId: channel.company_id, platform: channel.platform as ChannelPlatform }, from: event.from, text: event.text, at: now });
    if (taken) await db.updateTable('inbound_messages').set({ action: 'conversation' }).where('id', '=', stored.id).execute();
    return;
  }
  const phone = event.from.startsWith('+') ? event.from : `+${event.from}`;
  await db.transaction().execute(async (trx) => {
    await stopOpenConversation(trx, channelId, event.from, now);
    await sql`insert into block_list (company_id, phone, source, created_by, created_at, effective_at)
              values (${channel.company_id}, ${phone}, 'manual', null, ${now}, ${effectiveAfter(now, constants.blockList.applyAfterHours)})
              on conflict (company_id, phone) do nothing`.execute(trx);
  });
}
