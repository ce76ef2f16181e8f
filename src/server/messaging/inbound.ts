// Inbound messages (two-way channels): stored once per provider id (replays are ignored), routed by
// keyword (the first word, matched against the channel's keywords), and SALIR / CANCELAR add the
// sender to the company's block list (effective after constants.blockList.applyAfterHours, like
// every block-list change).
import { sql, type Kysely } from 'kysely';
import { effectiveAfter } from '../../core/block-list.ts';
import type { InboundEvent } from '../../engine/channel-adapter.ts';
import type { Database } from '../../engine/database.ts';
import { constants } from '../../generated/constants.gen.ts';

export const OPT_OUT_WORDS = ['SALIR', 'CANCELAR'];

const firstWord = (text: string) => text.trim().split(/\s+/)[0]?.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toUpperCase() ?? '';

export async function routeInbound(db: Kysely<Database>, channelId: number, event: InboundEvent): Promise<void> {
  const channel = await db.selectFrom('channels').select(['company_id', 'keywords']).where('id', '=', channelId).executeTakeFirst();
  if (!channel) return;
  const word = firstWord(event.text);
  const optOut = OPT_OUT_WORDS.includes(word);
  const keyword = channel.keywords.find((k) => k.toUpperCase() === word) ?? null;
  const now = new Date();
  const stored = await db.insertInto('inbound_messages').values({
    company_id: channel.company_id, channel_id: channelId, from_number: event.from, to_address: event.to, body: event.text,
    keyword, action: optOut ? 'optOut' : keyword ? 'keyword' : null, provider_message_id: event.providerMessageId || `${event.from}:${event.at.getTime()}`,
    received_at: event.at,
  }).onConflict((oc) => oc.columns(['channel_id', 'provider_message_id']).doNothing()).returning('id').executeTakeFirst();
  if (!stored || !optOut) return;
  const phone = event.from.startsWith('+') ? event.from : `+${event.from}`;
  await sql`insert into block_list (company_id, phone, source, created_by, created_at, effective_at)
            values (${channel.company_id}, ${phone}, 'manual', null, ${now}, ${effectiveAfter(now, constants.blockList.applyAfterHours)})
            on conflict (company_id, phone) do nothing`.execute(db);
}
