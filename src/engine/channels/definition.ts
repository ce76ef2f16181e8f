// What a channel type is to the engine (ARCHITECTURE 5): one definition per platform, in its own
// folder (sms, whatsapp, messenger, rcs), registered in registry.ts. A definition builds the
// adapter of one channel from its opened settings (core/ports/channel.ts ChannelEndpoint) — the
// dispatcher's adapter and the try-channel test's alike — and, in sandbox mode, wires the channel
// to its stand-in. It also declares the type's capabilities (ChannelCapabilities): the rest of the
// product asks the registry (capabilitiesOf) what a type can do instead of comparing platform
// names, so a new type is a new folder, not edits across the modules. What the console's form must
// also know (required and secret fields, spec 3) stays in src/core/channel-rules.ts, keyed by the
// platform, because the console may not import the engine; a definition's credentials repeat those
// lists and tests/unit/channel-capabilities.test.ts holds both to the same fields.
import type { Kysely } from 'kysely';
import { constants } from '../../generated/constants.gen.ts';
import type { Reach } from '../../core/phone.ts';
import type { ChannelAdapter, ChannelEndpoint, ReceiptSink } from '../../core/ports/channel.ts';
import type { Database } from '../database.ts';
import type { HttpAdapterOptions } from './shared/http-client.ts';
import type { ChannelWebhook } from './shared/webhook.ts';
import type { GraphStandIn, RbmStandIn, SmscStandIn } from './stand-ins.ts';

/** The stand-ins running in this process (sandbox mode); null in production. */
export interface StandIns {
  smsc: SmscStandIn | null;
  graph: GraphStandIn | null;
  rbm: RbmStandIn | null;
}

/** What a definition may use to build an adapter: the process's, not the channel's. */
export interface ChannelContext {
  db: Kysely<Database>;
  /** Where the adapter reports statuses and inbound messages it receives itself (SMPP). */
  sink: ReceiptSink;
  standIns: StandIns;
  /** Our server's URL once it listens: the stand-ins post webhooks there. */
  publicUrl(): string | null;
  /** Timeouts, concurrency and alerts of the HTTP adapters. */
  http?: HttpAdapterOptions;
  /** Extra SMPP settings for every SMS adapter (tests: shorter timeouts). */
  smpp?: Record<string, unknown>;
  now?: () => Date;
}

/** What one message costs: its parts, their encoding (SMS), and the credits (1 credit = 1 COP). */
export interface MessagePrice { parts: number; encoding: string | null; cost: number }

/** One message, one charge (constants.credits.creditsPerMessage): every type that does not bill by part. */
export const perMessagePrice = (): MessagePrice => ({ parts: 1, encoding: null, cost: constants.credits.creditsPerMessage });

/** The fields stored sealed (server/modules/channels/credentials.ts: the channel's credentials document). */
export type SealedCredential = 'authorizationToken' | 'pageAccessToken' | 'clientToken' | 'privateKey' | 'accountSids';

/** What a channel type can do, declared once in its folder's definition and read through the registry. */
export interface ChannelCapabilities {
  /**
   * 'two-way': a channel of this type may be MO, people write to it and agents answer them;
   * 'one-way': it only sends (MT).
   */
  readonly direction: 'one-way' | 'two-way';
  /**
   * Provider-approved templates: templates are reviewed by the provider and sent as templates
   * (messages, events and campaigns may name one, a campaign maps its parameters to the file's
   * columns). False: a template of this type is only saved text that prefills a message.
   */
  readonly templates: boolean;
  /**
   * The 24-hour customer-service window: free text only within 24 hours of the person's last
   * message; outside it only an approved template goes (templates must then be true).
   */
  readonly customerServiceWindow: boolean;
  /** Media: whether a person's images and documents arrive (as their caption), and whether we send media (no adapter does yet). */
  readonly media: { readonly inbound: boolean; readonly outbound: boolean };
  /** Text travels in GSM-7/UCS-2 parts (SMS): its length counts in parts and UCS-2 characters are pointed out. */
  readonly segmentedText: boolean;
  /** Who sends: a phone number (stored E.164), the RBM agent id, or no sender field (the page). */
  readonly sender: 'phone' | 'rbmAgent' | 'none';
  /** Replies reach agents by keyword only (a shared SMS number or short code): every active agent needs one (99971). */
  readonly keywordRouting: boolean;
  /** Who it can reach (core/phone.ts Reach): mobiles only, any phone, or a Messenger PSID. */
  readonly reaches: Reach;
  /**
   * The fields that identify a channel to its provider (core/channel-rules.ts credentialFields
   * among its platformFields), the groups of them it needs before it is enabled
   * (enableRequirements), and those stored sealed (AES-GCM bound to column and company, masked on
   * the way out).
   */
  readonly credentials: {
    readonly fields: readonly string[];
    readonly required: readonly (readonly string[])[];
    readonly sealed: readonly SealedCredential[];
  };
}

export interface ChannelDefinition {
  /** The channel type (schemas/enums/channel-platform.yaml); a string so a test can add one. */
  readonly platform: string;
  /** Spec 3's statistics colour of the type (the brand colour its network is known by). */
  readonly color: string;
  /**
   * The type's name in each console language ({ es, en }) for a type registered at run time; the
   * built-in types have theirs in locales/<language>/enums.json (channel-platform.<platform>). The
   * console adds these to its enum labels when it reads the company's types (channels.platforms).
   */
  readonly names?: Readonly<Record<string, string>>;
  /** What the type can do (the registry's capabilitiesOf). */
  readonly capabilities: ChannelCapabilities;
  /** Its pricing: what a message with this body costs (absent: perMessagePrice). */
  price?(body: string | undefined): MessagePrice;
  /** Its webhook: signature check and parsing, served at /v1/webhooks/<path>/:channelId; absent: none (SMPP). */
  readonly webhook?: ChannelWebhook;
  /** The adapter of an enabled channel; null when its settings are incomplete (its messages fail with 92). */
  createAdapter(channel: ChannelEndpoint, context: ChannelContext): ChannelAdapter | null;
  /**
   * Sandbox mode: registers the channel with its stand-in (its secrets, our webhook URL), so the
   * stand-in's signed webhooks come back through our routes. False when the channel uses none or
   * lacks what the stand-in needs.
   */
  registerWithStandIn?(channel: ChannelEndpoint, context: ChannelContext): boolean;
  /**
   * Sandbox mode: a person writes `text` to the channel from `from`, through its stand-in (the
   * SMSC's deliver_sm, Meta's or Google's signed webhook), so it arrives as a real one would.
   * False when the channel has no stand-in.
   */
  simulateInbound?(channel: ChannelEndpoint, context: ChannelContext, from: string, text: string): Promise<boolean>;
}

/** A configured string of the channel's `connection` settings, trimmed; undefined when absent. */
export const setting = (channel: ChannelEndpoint, key: string): string | undefined => {
  const value = channel.connection[key];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** Our webhook route for a channel, once our URL is known (the stand-ins post there). */
export function webhookUrlOf(context: ChannelContext, definition: ChannelDefinition, channelId: number): string | undefined {
  const base = context.publicUrl();
  return base && definition.webhook ? `${base}/v1/webhooks/${definition.webhook.path}/${channelId}` : undefined;
}
