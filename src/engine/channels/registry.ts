// The one list of channel types (ARCHITECTURE 5). Adding a channel type: a folder beside these
// with its definition (definition.ts), adapter, webhook parsing and error mapping, and one line
// here; its required and secret fields in src/core/channel-rules.ts (the console reads them) and
// its value in schemas/enums/channel-platform.yaml. The Record makes the compiler point here when
// the YAML gains a value.
import type { ChannelPlatform } from '../../core/ports/channel.ts';
import { addressFor, type Reach } from '../../core/phone.ts';
import type { ChannelDefinition } from './definition.ts';
import { messengerChannel } from './messenger/definition.ts';
import { rcsChannel } from './rcs/definition.ts';
import { smsChannel } from './sms/definition.ts';
import { whatsappChannel } from './whatsapp/definition.ts';

const builtIn: Record<ChannelPlatform, ChannelDefinition> = {
  sms: smsChannel,
  rcs: rcsChannel,
  whatsapp: whatsappChannel,
  fbMessenger: messengerChannel,
};

const definitions = new Map<string, ChannelDefinition>(Object.entries(builtIn));

/**
 * Adds a channel type at runtime, keyed by its platform id: a test's fake channel
 * (tests/fixtures/fake-channel), whose value the YAML enum does not hold. Answers the function
 * that removes it again.
 */
export function registerChannel(definition: ChannelDefinition): () => void {
  if (definitions.has(definition.platform)) throw new Error(`channel type ${definition.platform} is already registered`);
  definitions.set(definition.platform, definition);
  return () => void definitions.delete(definition.platform);
}

/** The definition of a platform; undefined for one no definition claims. */
export const channelDefinition = (platform: string): ChannelDefinition | undefined => definitions.get(platform);

/** Who a platform's messages can reach (its definition's `reaches`; any phone when it says nothing). */
export const reachOf = (platform: string): Reach => definitions.get(platform)?.reaches ?? 'phone';

/** Where a message to `to` goes on this platform (E.164, or a PSID), or null when the channel type cannot reach it. */
export const destinationOn = (platform: string, to: string): string | null => addressFor(reachOf(platform), to);

/** Every registered channel type. */
export const channelDefinitions = (): ChannelDefinition[] => [...definitions.values()];
