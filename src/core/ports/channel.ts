// The channel port (ARCHITECTURE 2 and 5): the one interface every channel adapter implements,
// and how the server reaches one channel outside the dispatcher (enable and try-channel).
// The dispatcher hands an adapter claimed message rows, it answers an outcome per message, and it
// reports what comes back later (delivery statuses, inbound messages) through a sink. SMPP pushes
// those over its own connection; the HTTP channels (WhatsApp, Messenger, RCS) receive them on
// webhook routes, which call the same sink after checking the signature over the raw body.
// The engine's adapters (src/engine/channels/<platform>) implement ChannelAdapter; the engine's
// connector (src/engine/channels/connector.ts) and the sandbox's implement ChannelConnector.
import type { ChannelPlatform, DeliveryStatus } from '../../generated/enums.gen.ts';

export type { ChannelPlatform, DeliveryStatus };

export interface TemplateRef {
  name: string;
  /** es_CO, es, en_US … */
  language: string;
  /** Body parameters in order (positional) or by name (named templates). */
  parameters: string[] | Record<string, string>;
}

/** What the dispatcher asks an adapter to send: one message row, already checked and paid for. */
export interface OutboundMessage {
  /** Our message id (the messages row), decimal string. */
  id: string;
  /** Destination: E.164 for phones (+573001234567); a PSID for Messenger. */
  to: string;
  /** Text body (SMS, WhatsApp text, Messenger, RCS). */
  text?: string;
  template?: TemplateRef;
}

export type SubmitOutcome =
  /** Accepted by the provider: SENT from now on; receipts refer to providerMessageId. A long SMS
   *  also lists every part's id (the first is providerMessageId): its receipts come per part. */
  | { kind: 'accepted'; providerMessageId: string; partIds?: string[] }
  /** Not sent, try again later (throttled, queue full, connection lost before the answer).
   *  `overflow`: the provider refused it for its throughput or queue limit (the message reads
   *  'overflow' with status 70, failed attempt, until it is tried again). */
  | { kind: 'retry'; reason: string; afterMs?: number; overflow?: boolean }
  /** Refused for good. `statusCode` is the spec's SMS status code (60 request error, 92 dispatch
   *  error, 94 invalid…); `errorCode` the provider's (e.g. WhatsApp 131047 → spec 470).
   *  `unauthorized`: the provider or the operator refused our sender, account or credentials
   *  (the message reads 'unauthorized', delivery status UNAUTHORIZED). */
  | { kind: 'failed'; statusCode: number; errorCode?: string; reason: string; unauthorized?: boolean }
  /** The recipient cannot be reached on this channel (RCS 404): the dispatcher falls back to SMS. */
  | { kind: 'fallback'; reason: string };

export interface StatusEvent {
  providerMessageId: string;
  status: DeliveryStatus;
  /** Provider error code kept for reports (SMPP err:, Graph error code). */
  errorCode?: string;
  at: Date;
  /** The recipient's serving network (MCC+MNC) when the receipt names it (SMPP dest_mcc/dest_mnc). */
  network?: string;
  /** For receipts that cannot be matched by provider id alone (SMPP after a crash): the
   *  handset number and the 16-bit user_message_reference we sent. */
  destination?: string;
  userReference?: number;
  /** What providerMessageId names. Absent: a whole message. 'part': one part of a long SMS (its
   *  own SMSC id); the message's status is decided from all its parts' (receipts.ts). 'unknown':
   *  the adapter could not tell (no memory of the id: a restart, or a receipt before its submit's
   *  answer); the sink looks among stored part ids first, then single-part messages. */
  scope?: 'part' | 'unknown';
  /** Stable per provider event (`${wamid}:${status}` …): a replayed webhook delivery carries the
   *  same key, so the sink can ignore repeats. Absent for SMPP. */
  dedupeKey?: string;
  /** Watermark receipts (Messenger delivery/read): every message this channel sent to
   *  `recipient` at or before `watermark` has reached `status`. `providerMessageId` is '' when
   *  the receipt names no message. */
  watermark?: Date;
  recipient?: string;
}

export interface InboundEvent {
  /** The number or page that received it (our sender / short code / page id). */
  to: string;
  /** Who wrote (E.164 or PSID). */
  from: string;
  text: string;
  providerMessageId: string;
  at: Date;
}

export interface ReceiptSink {
  status(channelId: number, event: StatusEvent): Promise<void> | void;
  inbound(channelId: number, event: InboundEvent): Promise<void> | void;
}

export interface ChannelAdapter {
  readonly platform: ChannelPlatform;
  /** Sends a batch; answers one outcome per message in the same order. Never throws for a
   *  provider refusal: that is an outcome. */
  submit(messages: readonly OutboundMessage[]): Promise<SubmitOutcome[]>;
  /** Connects now instead of at the first submit. For providers that keep what comes back until
   *  we connect (an SMSC holds a system_id's receipts while none of its sessions is bound): the
   *  dispatcher calls it for channels with rows in doubt, whose receipts decide their fate. */
  connect?(): Promise<void>;
  /** Stops taking work, waits for answers in flight (bounded), closes connections. */
  close(): Promise<void>;
}

/**
 * What reaching one channel needs, opened: its identifiers, its connection settings and its
 * secrets in clear (never stored like this; built from the row when needed). The channel
 * definitions build adapters from it, the dispatcher's and the try-channel test's alike.
 */
export interface ChannelEndpoint {
  id: number;
  companyId: number;
  /** A ChannelPlatform for the product's channel types; a string so a definition can add one. */
  platform: ChannelPlatform | (string & {});
  sender: string | null;
  shortCode: string | null;
  facebookPageId: string | null;
  clientEmail: string | null;
  /** Opened secret fields by name (authorizationToken, pageAccessToken, clientToken, privateKey); absent when empty. */
  secrets: Partial<Record<string, string>>;
  /** The account SIDs (WhatsApp: WABA and phone-number ids) with their opened secrets. */
  accountSids: { sid: string; secret: string }[];
  /** Provider settings that are not secret (SMPP host and port, a baseUrl, a phoneNumberId…). */
  connection: Record<string, unknown>;
}

export type ConnectionCheck = { ok: true } | { ok: false; retryable: boolean; reason: string };

/**
 * How the server reaches one channel outside the dispatcher: whether its provider accepts its
 * credentials (enable, try) and the adapter that carries its messages (try-channel sends its
 * test message through it, as the dispatcher would).
 */
export interface ChannelConnector {
  check(channel: ChannelEndpoint): Promise<ConnectionCheck>;
  /** The channel's adapter, reporting what comes back to `sink`; null when its settings are incomplete. */
  open(channel: ChannelEndpoint, sink: ReceiptSink): Promise<ChannelAdapter | null>;
}
