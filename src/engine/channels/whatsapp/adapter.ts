// WhatsApp Cloud API adapter (Graph v23): text and template messages to
// POST {baseUrl}/{phoneNumberId}/messages. One instance per channel (one business number).
// Statuses come back on the webhook (src/engine/channels/whatsapp/webhook.ts), not here.
import type { ChannelAdapter, OutboundMessage, SubmitOutcome } from '../../channel-adapter.ts';
import { postToGraph } from '../shared/graph-send.ts';
import { ConcurrencyLimit, DEFAULT_MAX_CONCURRENT, DEFAULT_TIMEOUT_MS, drain, type HttpAdapterOptions } from '../shared/http-client.ts';
import { STATUS_DISPATCH_ERROR, STATUS_REQUEST_ERROR, TOKEN_EXPIRED, whatsappRefusal } from './errors.ts';
import { buildWhatsAppRequest } from './payload.ts';
import { OUTSIDE_WINDOW_CODE } from './customer-window.ts';
import { TEMPLATE_MISMATCH_CODE, type TemplateMatch } from './template-match.ts';

export const GRAPH_BASE_URL = 'https://graph.facebook.com/v23.0';

export interface WhatsAppAdapterConfig extends HttpAdapterOptions {
  /** Graph root including the version: GRAPH_BASE_URL in production, the stand-in's url in tests. */
  baseUrl: string;
  /** The business number's id in Meta (not the phone number itself). */
  phoneNumberId: string;
  /** System-user or business token (Bearer). */
  accessToken: string;
  /**
   * The 24-hour customer-service window for a recipient, if the engine knows it: true open,
   * false closed, undefined unknown. Free text to a closed window is refused here (131047, as
   * Meta would) without a request; when unknown, Meta decides.
   */
  customerWindow?: (to: string) => boolean | undefined | Promise<boolean | undefined>;
  /** For free text to a closed window: the channel's approved template it reads as (template-match.ts); absent, such text fails with 131047. */
  templateFor?: (text: string) => Promise<TemplateMatch>;
}

export function createWhatsAppAdapter(config: WhatsAppAdapterConfig): ChannelAdapter {
  const limit = new ConcurrencyLimit(config.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  const url = `${config.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(config.phoneNumberId)}/messages`;
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let closed = false;
  let alerted = false;

  async function sendOne(message: OutboundMessage): Promise<SubmitOutcome> {
    if (closed) return { kind: 'retry', reason: 'the WhatsApp adapter is closing' };
    const built = buildWhatsAppRequest(message);
    if (!built.ok) return { kind: 'failed', statusCode: STATUS_REQUEST_ERROR, reason: built.reason };
    let request = built.request;
    if (request.type === 'text' && config.customerWindow && (await config.customerWindow(message.to)) === false) {
      // Outside the window only a template goes: the approved one whose words the text is (template-match.ts).
      const match = (await config.templateFor?.(request.text.body)) ?? null;
      if (match === 'mismatch') return { kind: 'failed', statusCode: STATUS_DISPATCH_ERROR, errorCode: TEMPLATE_MISMATCH_CODE, reason: 'outside the 24-hour customer service window, and no approved template reads as the text' };
      if (match === null) return { kind: 'failed', statusCode: STATUS_DISPATCH_ERROR, errorCode: OUTSIDE_WINDOW_CODE, reason: 'outside the 24-hour customer service window: send a template' };
      const asTemplate = buildWhatsAppRequest({ id: message.id, to: message.to, template: match });
      if (!asTemplate.ok) return { kind: 'failed', statusCode: STATUS_REQUEST_ERROR, reason: asTemplate.reason };
      request = asTemplate.request;
    }
    const sent = await postToGraph({ url, token: config.accessToken, body: request, timeoutMs, messageIdOf: (body) => (body as { messages?: { id?: unknown }[] } | null)?.messages?.[0]?.id });
    if ('outcome' in sent) return sent.outcome;
    const { error } = sent;
    if (error.code === TOKEN_EXPIRED && !alerted) {
      alerted = true;
      config.onAlert?.({ platform: 'whatsapp', kind: 'tokenExpired', reason: `phone number ${config.phoneNumberId}: ${error.message}` });
    }
    return whatsappRefusal(error, sent.retryAfterMs);
  }

  return {
    platform: 'whatsapp',
    submit: (messages) => Promise.all(messages.map((m) => limit.run(() => sendOne(m)))),
    async close() {
      closed = true;
      await drain(limit);
    },
  };
}
