// What a channel type's webhook is to the server's one webhook plugin (src/server/webhooks):
// the plugin serves /v1/webhooks/<path>/:channelId for every registered definition that has one,
// takes the body as raw bytes, finds the channel's secrets, and hands the request here; the
// definition checks the signature over those bytes and parses the events, or answers a handshake.
import type { WebhookEvents } from './webhook-events.ts';

/** A channel's webhook secrets, opened: Meta's app secret and verify token, RBM's client token. */
export interface ChannelWebhookSecrets {
  appSecret?: string;
  verifyToken?: string;
  clientToken?: string;
}

export interface WebhookRequest {
  raw: Buffer;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
}

export type WebhookAnswer =
  /** Verified and parsed: these go to the receipt sink (and template events to the templates). */
  | { kind: 'events'; events: WebhookEvents }
  /** A handshake answered as it is (Meta's hub challenge, RBM's setup). */
  | { kind: 'reply'; status: number; body: string }
  /** 99953: the signature does not hold; 99931: the payload is not what the provider sends. */
  | { kind: 'refuse'; code: '99953' | '99931' };

export interface ChannelWebhook {
  /** Path segment: /v1/webhooks/<path>/:channelId. */
  readonly path: string;
  /** The keys its signatures are checked with, from the channel's client token. */
  secretsOf(clientToken: string): ChannelWebhookSecrets;
  /** GET (Meta's verification handshake); absent: no GET route. */
  get?(request: WebhookRequest, secrets: ChannelWebhookSecrets): { status: number; body: string };
  post(request: WebhookRequest, secrets: ChannelWebhookSecrets, now: Date): WebhookAnswer;
}
