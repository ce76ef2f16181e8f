// The one list of channel types (ARCHITECTURE 5). Adding a channel type: a folder beside these
// with its definition (definition.ts: adapter, capabilities), webhook parsing and error mapping,
// and one line here; its required and secret fields in src/core/channel-rules.ts (the console reads them) and
// its value in schemas/enums/channel-platform.yaml. The Record makes the compiler point here when
// the YAML gains a value.
import type { ChannelPlatform } from '../../core/ports/channel.ts';
import { addressFor, type Reach } from '../../core/phone.ts';
import type { ChannelCapabilities, ChannelDefinition } from './definition.ts';
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

/**
 * What a platform no definition claims can do: what the product did for a type it did not name
 * before capabilities were declared (no templates, no window, whole texts, a phone sender).
 */
const unclaimed: ChannelCapabilities = {
  direction: 'two-way', templates: false, customerServiceWindow: false, media: { inbound: false, outbound: false }, segmentedText: false,
  sender: 'phone', keywordRouting: false, reaches: 'phone', credentials: { fields: [], required: [], sealed: [] },
};

/** What a channel type can do (its definition's capabilities): read this, never compare platform names. */
export const capabilitiesOf = (platform: string): ChannelCapabilities => definitions.get(platform)?.capabilities ?? unclaimed;

/** Who a platform's messages can reach (its capabilities' `reaches`). */
export const reachOf = (platform: string): Reach => capabilitiesOf(platform).reaches;

/** Where a message to `to` goes on this platform (E.164, or a PSID), or null when the channel type cannot reach it. */
export const destinationOn = (platform: string, to: string): string | null => addressFor(reachOf(platform), to);

/** Every registered channel type. */
export const channelDefinitions = (): ChannelDefinition[] => [...definitions.values()];
