// The RCS channel type: RBM at `connection.baseUrl`, production's, or in sandbox mode the RBM
// stand-in, as the agent in `sender` with the Google service account (client e-mail, private key,
// `connection.tokenUrl`); events come back on /v1/webhooks/rcs/:channelId (webhook.ts). A number
// without RCS answers "fallback": the dispatcher sends it by SMS.
import { createPublicKey } from 'node:crypto';
import { enableRequirements } from '../../../core/channel-rules.ts';
import type { ChannelEndpoint } from '../../../core/ports/channel.ts';
import { setting, webhookUrlOf, type ChannelContext, type ChannelDefinition } from '../definition.ts';
import { createRcsAdapter, RBM_BASE_URL } from './adapter.ts';
import { serviceAccountTokenProvider } from './service-account-token.ts';
import { rbmWebhook } from './webhook.ts';

const usesStandIn = (channel: ChannelEndpoint, context: ChannelContext) => !setting(channel, 'baseUrl') && context.standIns.rbm !== null;

export const rcsChannel: ChannelDefinition = {
  platform: 'rcs',
  color: '#1A73E8',
  capabilities: {
    direction: 'two-way',
    templates: false,
    customerServiceWindow: false,
    media: { inbound: false, outbound: false },
    segmentedText: false,
    sender: 'rbmAgent',
    keywordRouting: false,
    // RCS is a mobile operator's service: a fixed line (60X) cannot receive it.
    reaches: 'mobile',
    credentials: { fields: ['sender', 'clientEmail', 'privateKey', 'clientToken'], required: enableRequirements.rcs, sealed: ['privateKey', 'clientToken'] },
  },
  webhook: rbmWebhook,
  registerWithStandIn(channel, context) {
    if (!usesStandIn(channel, context)) return false;
    const privateKey = channel.secrets.privateKey ?? '';
    if (!channel.sender || !channel.clientEmail || !privateKey) return false;
    let publicKey;
    try {
      publicKey = createPublicKey(privateKey);
    } catch {
      return false; // not a PEM key: the token grant could not work either
    }
    const clientToken = channel.secrets.clientToken ?? '';
    context.standIns.rbm!.setAgent({ id: channel.sender, clientToken, webhookUrl: webhookUrlOf(context, rcsChannel, channel.id), serviceAccount: { clientEmail: channel.clientEmail, publicKey } });
    return true;
  },
  async simulateInbound(channel, context, from, text) {
    if (!usesStandIn(channel, context) || !rcsChannel.registerWithStandIn!(channel, context)) return false;
    await context.standIns.rbm!.injectUserMessage({ agentId: channel.sender!, from, text });
    return true;
  },
  createAdapter(channel, context) {
    const standIn = usesStandIn(channel, context);
    if (standIn && !rcsChannel.registerWithStandIn!(channel, context)) return null;
    const privateKey = channel.secrets.privateKey ?? '';
    if (!channel.sender || !channel.clientEmail || !privateKey) return null;
    const baseUrl = setting(channel, 'baseUrl') ?? (standIn ? context.standIns.rbm!.url : RBM_BASE_URL);
    const tokenUrl = setting(channel, 'tokenUrl') ?? (standIn ? context.standIns.rbm!.tokenUrl : undefined);
    return createRcsAdapter({
      ...context.http, baseUrl, agentId: channel.sender,
      accessToken: serviceAccountTokenProvider({ clientEmail: channel.clientEmail, privateKey, tokenUrl }),
    });
  },
};
