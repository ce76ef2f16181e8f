// The try-channel test message goes through the channel's adapter (the port's ChannelAdapter, the
// dispatcher's for that platform when the engine's connector is wired), not through a second
// abstraction: one outbound message, its outcome read as the try's answer. A delivery status the
// adapter reports before its submit answers (the sandbox does; an SMSC may) is the answer;
// otherwise an accepted message is SENT (later receipts of a test message are not awaited).
import type { ChannelConnector, ChannelEndpoint, DeliveryStatus, StatusEvent } from '../../../core/ports/channel.ts';
import { fail } from '../../errors/api-error.ts';

export interface TestMessageResult {
  status: DeliveryStatus;
  providerMessageId: string | null;
  error: string | null;
}

/** Not a messages row: the adapter's id of the test message (SMPP derives its reference from it). */
const TEST_MESSAGE_ID = '0';

export async function sendTestMessage(connector: ChannelConnector, endpoint: ChannelEndpoint, to: string, text: string): Promise<TestMessageResult> {
  const statuses: StatusEvent[] = [];
  const adapter = await connector.open(endpoint, { status: (_channelId, event) => void statuses.push(event), inbound: () => {} });
  // Incomplete settings were refused before (99999): what is left is a provider that cannot be reached.
  if (!adapter) throw fail('99966');
  try {
    const [outcome] = await adapter.submit([{ id: TEST_MESSAGE_ID, to, text }]);
    switch (outcome.kind) {
      case 'accepted': {
        const reported = statuses.filter((s) => s.providerMessageId === outcome.providerMessageId).at(-1);
        return { status: reported?.status ?? 'SENT', providerMessageId: outcome.providerMessageId, error: null };
      }
      case 'failed':
      case 'fallback':
        return { status: 'FAILED', providerMessageId: null, error: outcome.reason };
      case 'retry':
        throw fail('99965');
    }
  } finally {
    await adapter.close();
  }
}
