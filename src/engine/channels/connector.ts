// The engine's channel connector (core/ports/channel.ts ChannelConnector): the real providers,
// reached through the channel definitions of the registry — the same adapters the dispatcher
// uses. The server's composition root wires it outside sandbox mode.
import type { ChannelConnector } from '../../core/ports/channel.ts';
import type { ChannelContext } from './definition.ts';
import { channelDefinition } from './registry.ts';
import { SmppBindError } from './sms/session.ts';

export function engineChannelConnector(context: Omit<ChannelContext, 'sink'>): ChannelConnector {
  const ignore = { status() {}, inbound() {} };
  const open: ChannelConnector['open'] = async (channel, sink) => channelDefinition(channel.platform)?.createAdapter(channel, { ...context, sink }) ?? null;
  return {
    open,
    async check(channel) {
      const adapter = await open(channel, ignore);
      if (!adapter) return { ok: false, retryable: false, reason: `no ${channel.platform} adapter for these settings` };
      try {
        // Providers held over a connection (SMPP) bind now; HTTP providers are checked at the first send.
        await adapter.connect?.();
        return { ok: true };
      } catch (error) {
        return { ok: false, retryable: error instanceof SmppBindError ? error.code !== '99966' : true, reason: (error as Error).message };
      } finally {
        await adapter.close();
      }
    },
  };
}
