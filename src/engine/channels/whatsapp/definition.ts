// The WhatsApp channel type: the Cloud API at `connection.baseUrl`, production's Graph, or in
// sandbox mode the Graph stand-in; statuses and inbound messages come back on
// /v1/webhooks/whatsapp/:channelId (webhook.ts). The phone-number id is `connection.phoneNumberId`,
// else the first account SID; the business account (templates) `connection.wabaId`, else the same.
import { enableRequirements } from '../../../core/channel-rules.ts';
import type { ChannelEndpoint } from '../../../core/ports/channel.ts';
import { setting, webhookUrlOf, type ChannelContext, type ChannelDefinition } from '../definition.ts';
import { createWhatsAppAdapter, GRAPH_BASE_URL } from './adapter.ts';
import { customerWindowOpen } from './customer-window.ts';
import { templateForText } from './template-match.ts';
import { metaWebhook } from '../shared/meta-webhook.ts';
import type { GraphAccount } from './templates.ts';
import { parseWhatsAppWebhook } from './webhook.ts';

const phoneNumberIdOf = (channel: ChannelEndpoint) => setting(channel, 'phoneNumberId') ?? channel.accountSids[0]?.sid ?? '';
const wabaIdOf = (channel: ChannelEndpoint) => setting(channel, 'wabaId') ?? channel.accountSids[0]?.sid ?? '';
const usesStandIn = (channel: ChannelEndpoint, context: ChannelContext) => !setting(channel, 'baseUrl') && context.standIns.graph !== null;

/** Open 24-hour windows come from the inbound messages we stored for this channel (customer-window.ts). */
function customerWindow(context: ChannelContext, channelId: number) {
  return (to: string): Promise<boolean> => customerWindowOpen(context.db, channelId, to, context.now?.() ?? new Date());
}

export const whatsappChannel: ChannelDefinition = {
  platform: 'whatsapp',
  color: '#25D366',
  capabilities: {
    direction: 'two-way',
    // Business-initiated messages are Meta-approved templates (templates.ts keeps them in sync).
    templates: true,
    // Free text only within 24 h of the person's last message (customer-window.ts); 131047 outside.
    customerServiceWindow: true,
    // Images, videos and documents arrive as their caption (webhook.ts); the adapter sends text and templates.
    media: { inbound: true, outbound: false },
    segmentedText: false,
    sender: 'phone',
    keywordRouting: false,
    // WhatsApp Business accounts exist on fixed lines too.
    reaches: 'phone',
    credentials: { fields: ['sender', 'authorizationToken', 'clientToken', 'accountSids'], required: enableRequirements.whatsapp, sealed: ['authorizationToken', 'clientToken', 'accountSids'] },
  },
  webhook: metaWebhook('whatsapp', parseWhatsAppWebhook),
  registerWithStandIn(channel, context) {
    if (!usesStandIn(channel, context)) return false;
    const id = phoneNumberIdOf(channel);
    const accessToken = channel.secrets.authorizationToken ?? '';
    if (!id || !accessToken) return false;
    const clientToken = channel.secrets.clientToken ?? '';
    context.standIns.graph!.setWhatsAppNumber({
      id, displayPhoneNumber: (channel.sender ?? '').replace(/\D/g, ''), accessToken, appSecret: clientToken, verifyToken: clientToken,
      webhookUrl: webhookUrlOf(context, whatsappChannel, channel.id), wabaId: wabaIdOf(channel) || undefined,
    });
    return true;
  },
  async simulateInbound(channel, context, from, text) {
    if (!usesStandIn(channel, context) || !whatsappChannel.registerWithStandIn!(channel, context)) return false;
    await context.standIns.graph!.injectWhatsAppInbound({ phoneNumberId: phoneNumberIdOf(channel), from, text });
    return true;
  },
  createAdapter(channel, context) {
    const standIn = usesStandIn(channel, context);
    if (standIn && !whatsappChannel.registerWithStandIn!(channel, context)) return null;
    const phoneNumberId = phoneNumberIdOf(channel);
    const accessToken = channel.secrets.authorizationToken ?? '';
    if (!phoneNumberId || !accessToken) return null;
    const baseUrl = setting(channel, 'baseUrl') ?? (standIn ? context.standIns.graph!.url : GRAPH_BASE_URL);
    return createWhatsAppAdapter({
      ...context.http, baseUrl, phoneNumberId, accessToken, customerWindow: customerWindow(context, channel.id), templateFor: (text) => templateForText(context.db, channel.id, text),
    });
  },
};

/**
 * Where a WhatsApp channel's business account is reached for template management: the
 * channel's own baseUrl, production's, or (sandbox) the Graph stand-in, where the channel is
 * registered first. Null when the channel lacks its token or account id.
 */
export function whatsappGraphAccount(channel: ChannelEndpoint, context: ChannelContext): GraphAccount | null {
  if (channel.platform !== 'whatsapp') return null;
  const standIn = usesStandIn(channel, context);
  if (standIn && !whatsappChannel.registerWithStandIn!(channel, context)) return null;
  const wabaId = wabaIdOf(channel);
  const accessToken = channel.secrets.authorizationToken ?? '';
  if (!wabaId || !accessToken) return null;
  return { baseUrl: setting(channel, 'baseUrl') ?? (standIn ? context.standIns.graph!.url : GRAPH_BASE_URL), wabaId, accessToken };
}
