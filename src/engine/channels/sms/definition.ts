// The SMS channel type: SMPP 3.4 to the operator's SMSC (`connection.host`, `port`, `systemId`…),
// or, in sandbox mode without a host, to the sandbox SMSC with an account of its own. Receipts and
// MO messages come back over the same connection, to the context's sink: no webhook.
import { enableRequirements } from '../../../core/channel-rules.ts';
import { countSms } from '../../../core/sms-parts.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { perMessagePrice, type ChannelDefinition } from '../definition.ts';
import { SmppAdapter } from './adapter.ts';

export const smsChannel: ChannelDefinition = {
  platform: 'sms',
  color: '#FF6D00',
  capabilities: {
    direction: 'two-way',
    templates: false,
    customerServiceWindow: false,
    media: { inbound: false, outbound: false },
    segmentedText: true,
    sender: 'phone',
    // MO arrives on a short code or number shared by the company's agents: the keyword routes it.
    keywordRouting: true,
    // A fixed line (60X) does not receive SMS.
    reaches: 'mobile',
    credentials: { fields: ['sender', 'shortCode', 'authorizationToken', 'clientToken', 'accountSids'], required: enableRequirements.sms, sealed: ['authorizationToken', 'clientToken', 'accountSids'] },
  },
  // Billed per part, as operators bill it (constants.credits.chargePerSmsPart, default true).
  price(body) {
    if (body === undefined) return perMessagePrice();
    const count = countSms(body);
    const parts = Math.max(1, count.parts);
    const perMessage = constants.credits.creditsPerMessage;
    const perPart = (constants.credits as { chargePerSmsPart?: boolean }).chargePerSmsPart ?? true;
    return { parts, encoding: count.encoding, cost: perPart ? parts * perMessage : perMessage };
  },
  async simulateInbound(channel, context, from, text) {
    if (!context.standIns.smsc || (channel.connection.host && channel.connection.port)) return false;
    context.standIns.smsc.injectMo({ from, to: channel.shortCode ?? channel.sender?.replace(/^\+/, '') ?? '', text, systemId: sandboxSystemId(channel.id) });
    return true;
  },
  createAdapter(channel, context) {
    const password = (channel.secrets.authorizationToken ?? '').slice(0, 64);
    const sender = channel.sender?.replace(/^\+/, '') ?? channel.shortCode ?? '';
    const connection = channel.connection;
    if (connection.host && connection.port) {
      return new SmppAdapter(channel.id, { ...(context.smpp ?? {}), ...connection, password, sender } as never, context.sink);
    }
    const smsc = context.standIns.smsc;
    if (!smsc) return null;
    // Sandbox: the channel binds to the local SMSC with an account of its own.
    const systemId = sandboxSystemId(channel.id);
    smsc.addAccount(systemId, password);
    return new SmppAdapter(channel.id, { tps: 500, ...(context.smpp ?? {}), host: smsc.host, port: smsc.port, systemId, password, sender }, context.sink);
  },
};

/** The account a channel binds with on the sandbox SMSC. */
export const sandboxSystemId = (channelId: number) => `ch${channelId}`;
