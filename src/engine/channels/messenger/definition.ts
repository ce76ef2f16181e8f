// The Messenger channel type: the Send API of the channel's Facebook page at `connection.baseUrl`,
// production's Graph, or in sandbox mode the Graph stand-in; watermark receipts and inbound
// messages come back on /v1/webhooks/messenger/:channelId (webhook.ts).
import { enableRequirements } from '../../../core/channel-rules.ts';
import type { ChannelEndpoint } from '../../../core/ports/channel.ts';
import { setting, webhookUrlOf, type ChannelContext, type ChannelDefinition } from '../definition.ts';
import { GRAPH_BASE_URL } from '../whatsapp/adapter.ts';
import { metaWebhook } from '../shared/meta-webhook.ts';
import { createMessengerAdapter } from './adapter.ts';
import { parseMessengerWebhook } from './webhook.ts';

const usesStandIn = (channel: ChannelEndpoint, context: ChannelContext) => !setting(channel, 'baseUrl') && context.standIns.graph !== null;

export const messengerChannel: ChannelDefinition = {
  platform: 'fbMessenger',
  color: '#0084FF',
  capabilities: {
    direction: 'two-way',
    templates: false,
    // Meta's messaging window is the channel's messagingType/tag setting (adapter.ts), not counted by us.
    customerServiceWindow: false,
    media: { inbound: false, outbound: false },
    segmentedText: false,
    // The page sends: its id is facebookPageId, there is no sender field.
    sender: 'none',
    keywordRouting: false,
    // A Messenger recipient is the page-scoped id (PSID) Meta gave us, not a phone number.
    reaches: 'psid',
    credentials: { fields: ['facebookPageId', 'pageAccessToken', 'clientToken'], required: enableRequirements.fbMessenger, sealed: ['pageAccessToken', 'clientToken'] },
  },
  webhook: metaWebhook('messenger', parseMessengerWebhook),
  registerWithStandIn(channel, context) {
    if (!usesStandIn(channel, context)) return false;
    const accessToken = channel.secrets.pageAccessToken ?? '';
    if (!channel.facebookPageId || !accessToken) return false;
    const clientToken = channel.secrets.clientToken ?? '';
    context.standIns.graph!.setPage({ id: channel.facebookPageId, accessToken, appSecret: clientToken, verifyToken: clientToken, webhookUrl: webhookUrlOf(context, messengerChannel, channel.id) });
    return true;
  },
  async simulateInbound(channel, context, from, text) {
    if (!usesStandIn(channel, context) || !messengerChannel.registerWithStandIn!(channel, context)) return false;
    await context.standIns.graph!.injectMessengerInbound({ pageId: channel.facebookPageId!, psid: from, text });
    return true;
  },
  createAdapter(channel, context) {
    const standIn = usesStandIn(channel, context);
    if (standIn && !messengerChannel.registerWithStandIn!(channel, context)) return null;
    const pageAccessToken = channel.secrets.pageAccessToken ?? '';
    if (!channel.facebookPageId || !pageAccessToken) return null;
    const baseUrl = setting(channel, 'baseUrl') ?? (standIn ? context.standIns.graph!.url : GRAPH_BASE_URL);
    const messagingType = setting(channel, 'messagingType') as 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG' | undefined;
    const tag = setting(channel, 'tag') as never;
    return createMessengerAdapter({ ...context.http, baseUrl, pageId: channel.facebookPageId, pageAccessToken, messagingType, tag });
  },
};
