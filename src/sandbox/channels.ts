// The sandbox channel provider: stands in for the SMSC, RBM, WhatsApp Cloud and Messenger when
// the server checks a channel's connection (enable) or sends its test message (try). It never
// leaves the machine; sent messages land in the sandbox outbox. It fails on demand so the
// failure codes can be exercised:
//   connection  address (sender, short code or page ID) ending in 0000 -> refused (99966)
//               address ending in 9999                                   -> unreachable, retry (99965)
//   delivery    destination ending in 0000                               -> FAILED; otherwise DELIVERED
import { randomBytes } from 'node:crypto';
import type { ChannelPlatform } from '../generated/enums.gen.ts';
import type { OutboxStore } from './outbox.ts';

/** What a provider needs to reach a channel: its addresses and its opened secrets. */
export interface ChannelEndpoint {
  platform: ChannelPlatform;
  sender: string | null;
  shortCode: string | null;
  facebookPageId: string | null;
  clientEmail: string | null;
  secrets: Record<string, string>;
}

export type ConnectionCheck = { ok: true } | { ok: false; retryable: boolean; reason: string };

export interface SendResult { providerMessageId: string; status: 'DELIVERED' | 'FAILED' | 'SENT'; error: string | null }

export interface ChannelProvider {
  check(channel: ChannelEndpoint): Promise<ConnectionCheck>;
  send(channel: ChannelEndpoint, message: { to: string; body: string; companyId?: number | null }): Promise<SendResult>;
}

const addressOf = (c: ChannelEndpoint) => c.sender ?? c.shortCode ?? c.facebookPageId ?? c.clientEmail ?? '';

export function sandboxChannelProvider(store: OutboxStore, now: () => Date = () => new Date()): ChannelProvider {
  return {
    async check(channel) {
      const address = addressOf(channel);
      if (address.endsWith('0000')) return { ok: false, retryable: false, reason: 'sandbox: the provider refused the credentials' };
      if (address.endsWith('9999')) return { ok: false, retryable: true, reason: 'sandbox: the provider did not answer' };
      return { ok: true };
    },
    async send(channel, message) {
      const providerMessageId = `sbx-${randomBytes(9).toString('base64url')}`;
      if (message.to.endsWith('0000')) return { providerMessageId, status: 'FAILED', error: 'sandbox: destination unreachable' };
      await store.append({ channel: channel.platform, to: message.to, subject: addressOf(channel), body: message.body, companyId: message.companyId ?? null, createdAt: now() });
      return { providerMessageId, status: 'DELIVERED', error: null };
    },
  };
}
