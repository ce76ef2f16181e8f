// The public sending API (schemas/api/messages.yaml): one message, a template, or a batch of up to
// 1,000, through a channel of the company (by id, or the first enabled one of the platform with the
// highest priority). Messages are created through the one send step (engine/campaigns/send.ts), so the block list (5),
// the duplicate rule (93) and the credits (81) decide each one; API messages are transactional
// unless told otherwise, so the send window does not hold them. An Idempotency-Key makes a retried
// send answer the first one's messages instead of sending again (http/idempotency.ts).
import { capabilitiesOf, destinationOn } from '../../../engine/channels/index.ts';
import type { ChannelPlatform } from '../../../engine/channel-adapter.ts';
import type { EnqueueItem, Purpose } from '../../../engine/lifecycle/index.ts';
import type { MessageStatus } from '../../../generated/types.gen.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { idempotentRequest, once, settle } from '../../http/idempotency.ts';
import { sendMessages } from '../../../engine/campaigns/index.ts';
import { lastDays } from './last-days.ts';


async function pickChannel(deps: ServerDeps, me: Session, channelId: number | undefined, platform: ChannelPlatform | undefined) {
  let q = deps.db.selectFrom('channels').select(['id', 'platform']).where('company_id', '=', me.companyId).where('enabled', '=', true);
  if (channelId) q = q.where('id', '=', channelId);
  else if (platform) q = q.where('platform', '=', platform);
  else throw failFields([fieldError('channel', '99999')]);
  const channel = await q.orderBy('priority', 'desc').orderBy('id').executeTakeFirst();
  if (!channel) throw failFields([fieldError(channelId ? 'channelId' : 'channel', '99972')]);
  return { id: channel.id, platform: channel.platform as ChannelPlatform };
}


export async function statusOf(deps: ServerDeps, companyId: number, ids: number[], history: boolean): Promise<MessageStatus[]> {
  if (!ids.length) return [];
  const rows = await deps.db.selectFrom('messages').innerJoin('channels', 'channels.id', 'messages.channel_id')
    .select(['messages.id', 'messages.client_ref', 'channels.platform', 'messages.to_number', 'messages.state', 'messages.status_code', 'messages.delivery_status',
      'messages.error_code', 'messages.parts', 'messages.cost', 'messages.not_before', 'messages.created_at'])
    .where('messages.company_id', '=', companyId).where('messages.id', 'in', ids).orderBy('messages.id').execute();
  const events = history
    ? await deps.db.selectFrom('message_events').select(['message_id', 'at', 'state', 'delivery_status', 'status_code', 'detail']).where('message_id', 'in', ids).orderBy('id').execute()
    : [];
  return rows.map((r) => ({
    id: String(r.id), clientRef: r.client_ref, channel: r.platform as MessageStatus['channel'], to: r.to_number,
    state: r.state as MessageStatus['state'], statusCode: r.status_code, deliveryStatus: (r.delivery_status ?? null) as MessageStatus['deliveryStatus'],
    errorCode: r.error_code, parts: r.parts, cost: r.cost, notBefore: r.state === 'queued' ? r.not_before.toISOString() : null,
    createdAt: r.created_at.toISOString(),
    ...(history ? {
      history: events.filter((e) => Number(e.message_id) === Number(r.id)).map((e) => ({
        at: e.at.toISOString(), state: e.state, deliveryStatus: e.delivery_status, statusCode: e.status_code, detail: e.detail,
      })),
    } : {}),
  }));
}

export const messagesHandlers: DomainHandlers<'messages'> = {
  'messages.send': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const list = b.messages ?? (b.to ? [{ to: b.to, text: b.text, template: b.template, clientRef: b.clientRef }] : []);
    if (!list.length) throw failFields([fieldError('to', '99999')]);
    const channel = await pickChannel(ctx.deps, me, b.channelId, b.channel);
    const items: EnqueueItem[] = list.map((m, i) => {
      if (!m.text && !m.template) throw failFields([fieldError(b.messages ? `messages/${i}/text` : 'text', '99999')]);
      if (m.template && !capabilitiesOf(channel.platform).templates) throw failFields([fieldError(b.messages ? `messages/${i}/template` : 'template', '99931', 'templates are WhatsApp messages')]);
      const to = destinationOn(channel.platform, m.to);
      return { to: to ?? m.to, body: m.text, template: m.template as EnqueueItem['template'], clientRef: m.clientRef ?? null, invalid: to === null };
    });
    if (!b.messages && items[0].invalid) throw failFields([fieldError('to', '99963')]);
    const purpose = (b.purpose ?? 'transactional') as Purpose;
    const now = ctx.deps.now();
    const idempotency = idempotentRequest(ctx.request, me.companyId, 'messages.send', b);
    const outcome = await sendMessages(ctx.deps, {
      companyId: me.companyId, channel, purpose, source: 'api', apiCredentialId: me.credentialId ?? null, createdBy: me.userId, now, onInsufficientCredits: 'reject',
    }, (trx, enqueue) => once(trx, idempotency, now, async () => (await enqueue(items)).ids));
    settle(outcome, ctx.reply, () => ctx.deps.messaging.wake());
    return { messages: await statusOf(ctx.deps, me.companyId, outcome.ids, false) };
  },

  'messages.lastDays': lastDays,

  'messages.get': async (ctx) => {
    const me = caller(ctx);
    const [status] = await statusOf(ctx.deps, me.companyId, [Number(ctx.params.id)], true);
    if (!status) throw fail('99959');
    return status;
  },
};
