// The one list of channel types (ARCHITECTURE 5). Adding a channel type: a folder beside these
// with its definition (definition.ts), adapter, webhook parsing and error mapping, and one line
// here; its required and secret fields in src/core/channel-rules.ts (the console reads them) and
// its value in schemas/enums/channel-platform.yaml. The Record makes the compiler point here when
// the YAML gains a value.
import type { ChannelPlatform } from '../../core/ports/channel.ts';
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

/** Every registered channel type. */
export const channelDefinitions = (): ChannelDefinition[] => [...definitions.values()];
