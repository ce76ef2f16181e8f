// What a channel type is to the engine (ARCHITECTURE 5): one definition per platform, in its own
// folder (sms, whatsapp, messenger, rcs), registered in registry.ts. A definition builds the
// adapter of one channel from its opened settings (core/ports/channel.ts ChannelEndpoint) — the
// dispatcher's adapter and the try-channel test's alike — and, in sandbox mode, wires the channel
// to its stand-in. What the console must also know (required and secret fields, spec 3) stays in
// src/core/channel-rules.ts, keyed by the platform, because the console may not import the engine.
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

export interface ChannelDefinition {
  /** The channel type (schemas/enums/channel-platform.yaml); a string so a test can add one. */
  readonly platform: string;
  /** Who it can reach (core/phone.ts Reach): mobiles only, any phone, or a Messenger PSID; absent: any phone. */
  readonly reaches?: Reach;
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
