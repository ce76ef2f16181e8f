// The SMS channel type: SMPP 3.4 to the operator's SMSC (`connection.host`, `port`, `systemId`…),
// or, in sandbox mode without a host, to the sandbox SMSC with an account of its own. Receipts and
// MO messages come back over the same connection, to the context's sink: no webhook.
import type { ChannelDefinition } from '../definition.ts';
import { SmppAdapter } from './adapter.ts';

export const smsChannel: ChannelDefinition = {
  platform: 'sms',
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
    const systemId = `ch${channel.id}`;
    smsc.addAccount(systemId, password);
    return new SmppAdapter(channel.id, { tps: 500, ...(context.smpp ?? {}), host: smsc.host, port: smsc.port, systemId, password, sender }, context.sink);
  },
};
