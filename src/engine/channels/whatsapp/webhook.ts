// WhatsApp Cloud API webhook payloads (field "messages") → status and inbound events; field
// "message_template_status_update" → template review events (not in Meta's OpenAPI document:
// shaped after Meta's webhook reference, research protocols.md 2.6).
// Statuses may arrive out of order and more than once (Meta retries for days): each event
// carries the provider's timestamp (`at`) and a dedupeKey `${wamid}:${status}`; the engine
// applies statuses monotonically and ignores keys it has seen.
import type { DeliveryStatus, InboundEvent, StatusEvent } from '../../channel-adapter.ts';
import { asArray, asObject, asString, dateOf, WebhookPayloadError, type TemplateStatusEvent, type WebhookEvents } from '../shared/webhook-events.ts';

const statusMap: Record<string, DeliveryStatus> = {
  sent: 'SENT',
  delivered: 'DELIVERED',
  read: 'READ',
  // Voice notes: "played" implies read.
  played: 'READ',
  failed: 'FAILED',
};

const withPlus = (digits: string) => (digits.startsWith('+') ? digits : `+${digits}`);

/** The text an inbound message carries, for the kinds a conversation can continue on. */
function inboundText(message: Record<string, unknown>): string | undefined {
  switch (message.type) {
    case 'text':
      return asString(asObject(message.text).body);
    case 'button': // quick-reply button of a template
      return asString(asObject(message.button).text) ?? asString(asObject(message.button).payload);
    case 'interactive': {
      const interactive = asObject(message.interactive);
      const reply = asObject(interactive.button_reply ?? interactive.list_reply);
      return asString(reply.title) ?? asString(reply.id);
    }
    case 'image':
    case 'video':
    case 'document':
      // Media opens the service window too; the caption (or nothing) is its text.
      return asString(asObject(message[message.type]).caption) ?? '';
    case 'audio':
    case 'sticker':
    case 'location':
    case 'contacts':
      return '';
    default:
      return undefined; // reactions, system notices, unsupported: not a message to answer
  }
}

export function parseWhatsAppWebhook(body: unknown, now: Date = new Date()): WebhookEvents {
  const root = asObject(body);
  if (root.object !== 'whatsapp_business_account') throw new WebhookPayloadError(`unexpected object ${String(root.object)}`);
  const statuses: StatusEvent[] = [];
  const inbound: InboundEvent[] = [];
  const templates: TemplateStatusEvent[] = [];
  for (const entry of asArray(root.entry)) {
    for (const change of asArray(asObject(entry).changes)) {
      const { field, value } = asObject(change);
      if (field === 'message_template_status_update') {
        const template = templateEvent(asObject(entry), asObject(value), now);
        if (template) templates.push(template);
        continue;
      }
      if (field !== 'messages') continue; // quality, category and account updates: nothing to record
      const v = asObject(value);
      const metadata = asObject(v.metadata);
      const ourNumber = asString(metadata.display_phone_number);
      for (const s of asArray(v.statuses)) {
        const item = asObject(s);
        const id = asString(item.id);
        const raw = asString(item.status);
        const status = raw ? statusMap[raw] : undefined;
        if (!id || !raw || !status) continue;
        const event: StatusEvent = { providerMessageId: id, status, at: dateOf(item.timestamp, 's', now), dedupeKey: `${id}:${raw}` };
        const code = asString(asObject(asArray(item.errors)[0]).code);
        if (code) event.errorCode = code;
        statuses.push(event);
      }
      for (const m of asArray(v.messages)) {
        const message = asObject(m);
        const id = asString(message.id);
        const from = asString(message.from) ?? asString(message.from_user_id);
        const text = inboundText(message);
        if (!id || !from || text === undefined) continue;
        inbound.push({
          to: ourNumber ? withPlus(ourNumber) : asString(metadata.phone_number_id) ?? '',
          from: /^\d+$/.test(from) ? withPlus(from) : from,
          text,
          providerMessageId: id,
          at: dateOf(message.timestamp, 's', now),
        });
      }
    }
  }
  return { statuses, inbound, templates };
}

function templateEvent(entry: Record<string, unknown>, value: Record<string, unknown>, now: Date): TemplateStatusEvent | null {
  const event = asString(value.event);
  const providerTemplateId = asString(value.message_template_id);
  if (!event || !providerTemplateId) return null;
  const reason = asString(value.reason);
  return {
    accountId: asString(entry.id) ?? '',
    event,
    providerTemplateId,
    name: asString(value.message_template_name) ?? '',
    language: asString(value.message_template_language) ?? '',
    reason: reason && reason !== 'NONE' ? reason : null,
    category: asString(value.message_template_category) ?? null,
    at: dateOf(entry.time, 's', now),
  };
}
