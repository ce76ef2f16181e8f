// Sandbox SMS and e-mail: nothing leaves the machine; every message is written to the outbox
// (table sandbox_outbox, readable at GET /v1/sandbox/outbox in demo mode and by tests).
// The store is passed in, so this file depends on no database library.
import type { ChannelPlatform } from '../generated/enums.gen.ts';
import type { MessageChannel, MessageProvider, OutgoingMessage } from '../core/ports/message.ts';

/** What the sandbox outbox records: codes and notices (sms, email) and channel test messages. */
export type OutboxChannel = MessageChannel | ChannelPlatform;

export interface OutboxStore {
  append(message: Omit<OutgoingMessage, 'channel'> & { channel: OutboxChannel; createdAt: Date }): Promise<void>;
}

export function sandboxMessageProvider(store: OutboxStore, now: () => Date = () => new Date()): MessageProvider {
  return {
    async send(message) {
      await store.append({ ...message, createdAt: now() });
    },
  };
}
