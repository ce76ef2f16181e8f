// Messenger Send API adapter: POST {baseUrl}/{pageId}/messages with the page access token.
// One instance per channel (one Facebook page). Receipts arrive on the webhook
// (src/engine/channels/messenger/webhook.ts) and are watermark-based.
import type { ChannelAdapter, OutboundMessage, SubmitOutcome } from '../../channel-adapter.ts';
import { postToGraph } from '../shared/graph-send.ts';
import { ConcurrencyLimit, DEFAULT_MAX_CONCURRENT, DEFAULT_TIMEOUT_MS, drain, type HttpAdapterOptions } from '../shared/http-client.ts';
import { STATUS_REQUEST_ERROR } from '../whatsapp/errors.ts';
import { MESSENGER_TOKEN_EXPIRED, messengerRefusal } from './errors.ts';

/** Messenger's limit on a text message, in characters. */
export const MESSENGER_TEXT_MAX = 2000;

export type MessengerMessagingType = 'RESPONSE' | 'UPDATE' | 'MESSAGE_TAG';
export type MessengerTag = 'CONFIRMED_EVENT_UPDATE' | 'POST_PURCHASE_UPDATE' | 'ACCOUNT_UPDATE' | 'HUMAN_AGENT';

export interface MessengerAdapterConfig extends HttpAdapterOptions {
  /** Graph root including the version (https://graph.facebook.com/v23.0) or the stand-in's url. */
  baseUrl: string;
  pageId: string;
  pageAccessToken: string;
  /** Default RESPONSE (inside the 24-hour window). MESSAGE_TAG needs `tag`. */
  messagingType?: MessengerMessagingType;
  tag?: MessengerTag;
}

export interface MessengerRequest {
  recipient: { id: string };
  messaging_type: MessengerMessagingType;
  tag?: MessengerTag;
  message: { text: string };
}

export function buildMessengerRequest(message: OutboundMessage, config: Pick<MessengerAdapterConfig, 'messagingType' | 'tag'>): { ok: true; request: MessengerRequest } | { ok: false; reason: string } {
  if (message.template) return { ok: false, reason: 'Messenger has no message templates: send text' };
  const text = message.text ?? '';
  if (text.trim() === '') return { ok: false, reason: 'a Messenger message needs a text' };
  const length = Array.from(text).length;
  if (length > MESSENGER_TEXT_MAX) return { ok: false, reason: `text of ${length} characters; Messenger allows ${MESSENGER_TEXT_MAX}` };
  if (!/^\d{1,32}$/.test(message.to)) return { ok: false, reason: `not a page-scoped id (PSID): ${message.to}` };
  const messagingType = config.messagingType ?? 'RESPONSE';
  if (messagingType === 'MESSAGE_TAG' && !config.tag) return { ok: false, reason: 'MESSAGE_TAG needs a tag' };
  const request: MessengerRequest = { recipient: { id: message.to }, messaging_type: messagingType, message: { text } };
  if (messagingType === 'MESSAGE_TAG') request.tag = config.tag;
  return { ok: true, request };
}

export function createMessengerAdapter(config: MessengerAdapterConfig): ChannelAdapter {
  const limit = new ConcurrencyLimit(config.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  const url = `${config.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(config.pageId)}/messages`;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let closed = false;
  let alerted = false;

  async function sendOne(message: OutboundMessage): Promise<SubmitOutcome> {
    if (closed) return { kind: 'retry', reason: 'the Messenger adapter is closing' };
    const built = buildMessengerRequest(message, config);
    if (!built.ok) return { kind: 'failed', statusCode: STATUS_REQUEST_ERROR, reason: built.reason };
    const sent = await postToGraph({ url, token: config.pageAccessToken, body: built.request, timeoutMs, messageIdOf: (body) => (body as { message_id?: unknown } | null)?.message_id });
    if ('outcome' in sent) return sent.outcome;
    const { error } = sent;
    if (error.code === MESSENGER_TOKEN_EXPIRED && !alerted) {
      alerted = true;
      config.onAlert?.({ platform: 'fbMessenger', kind: 'tokenExpired', reason: `page ${config.pageId}: ${error.message}` });
    }
    return messengerRefusal(error, sent.retryAfterMs);
  }

  return {
    platform: 'fbMessenger',
    submit: (messages) => Promise.all(messages.map((m) => limit.run(() => sendOne(m)))),
    async close() {
      closed = true;
      await drain(limit);
    },
  };
}
