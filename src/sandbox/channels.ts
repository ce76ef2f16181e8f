// The sandbox channel connector: stands in for the SMSC, RBM, WhatsApp Cloud and Messenger when
// the server checks a channel's connection (enable) or sends its test message (try) through the
// channel's adapter. It never leaves the machine; sent messages land in the sandbox outbox, with
// the channel's company. It fails on demand so the failure codes can be exercised:
//   connection  address (sender, short code or page ID) ending in 0000 -> refused (99966)
//               address ending in 9999                                   -> unreachable, retry (99965)
//   delivery    destination ending in 0000                               -> FAILED; otherwise DELIVERED
//               (reported to the sink before submit answers, as a fast provider would)
import { randomBytes } from 'node:crypto';
import type { ChannelAdapter, ChannelConnector, ChannelEndpoint, ReceiptSink, SubmitOutcome } from '../core/ports/channel.ts';
import type { OutboxChannel, OutboxStore } from './outbox.ts';

/** The dispatch error of spec 4's SMS status codes: how the sandbox refuses a destination. */
const DISPATCH_ERROR = 92;

const addressOf = (c: ChannelEndpoint) => c.sender ?? c.shortCode ?? c.facebookPageId ?? c.clientEmail ?? '';

function sandboxAdapter(channel: ChannelEndpoint, sink: ReceiptSink, store: OutboxStore, now: () => Date): ChannelAdapter {
  return {
    platform: channel.platform as ChannelAdapter['platform'],
    async submit(messages) {
      const outcomes: SubmitOutcome[] = [];
      for (const message of messages) {
        if (message.to.endsWith('0000')) {
          outcomes.push({ kind: 'failed', statusCode: DISPATCH_ERROR, reason: 'sandbox: destination unreachable' });
          continue;
        }
        const providerMessageId = `sbx-${randomBytes(9).toString('base64url')}`;
        await store.append({ channel: channel.platform as OutboxChannel, to: message.to, subject: addressOf(channel), body: message.text ?? '', companyId: channel.companyId, createdAt: now() });
        await sink.status(channel.id, { providerMessageId, status: 'DELIVERED', at: now() });
        outcomes.push({ kind: 'accepted', providerMessageId });
      }
      return outcomes;
    },
    async close() {},
  };
}

export function sandboxChannelConnector(store: OutboxStore, now: () => Date = () => new Date()): ChannelConnector {
  return {
    async check(channel) {
      const address = addressOf(channel);
      if (address.endsWith('0000')) return { ok: false, retryable: false, reason: 'sandbox: the provider refused the credentials' };
      if (address.endsWith('9999')) return { ok: false, retryable: true, reason: 'sandbox: the provider did not answer' };
      return { ok: true };
    },
    async open(channel, sink) {
      return sandboxAdapter(channel, sink, store, now);
    },
  };
}
