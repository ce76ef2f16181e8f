// The request bodies of POST /{phone-number-id}/messages (Graph v23), in the shapes Meta's
// OpenAPI document describes (tests/unit/graph-contract.test.ts checks them against it).
import type { OutboundMessage, TemplateRef } from '../../channel-adapter.ts';

/** Meta's limit on a text message body, in characters. */
export const WHATSAPP_TEXT_MAX = 4096;

export type WhatsAppRequest =
  | { messaging_product: 'whatsapp'; recipient_type: 'individual'; to: string; type: 'text'; text: { body: string; preview_url: boolean } }
  | { messaging_product: 'whatsapp'; recipient_type: 'individual'; to: string; type: 'template'; template: WhatsAppTemplate };

export interface WhatsAppTemplate {
  name: string;
  language: { policy: 'deterministic'; code: string };
  components?: { type: 'body'; parameters: WhatsAppTextParameter[] }[];
}

export type WhatsAppTextParameter = { type: 'text'; text: string; parameter_name?: string };

/** The Cloud API takes the number without '+' (it accepts both; wa_id never has it). */
export const waRecipient = (to: string) => to.replace(/^\+/, '');

export type BuildResult = { ok: true; request: WhatsAppRequest } | { ok: false; reason: string };

export function buildWhatsAppRequest(message: OutboundMessage): BuildResult {
  const to = waRecipient(message.to);
  if (!/^\d{6,15}$/.test(to)) return { ok: false, reason: `not an international phone number: ${message.to}` };
  if (message.template) return { ok: true, request: { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'template', template: templateOf(message.template) } };
  const body = message.text ?? '';
  if (body.trim() === '') return { ok: false, reason: 'a WhatsApp message needs a text or a template' };
  const length = Array.from(body).length;
  if (length > WHATSAPP_TEXT_MAX) return { ok: false, reason: `text of ${length} characters; WhatsApp allows ${WHATSAPP_TEXT_MAX}` };
  // Link previews stay off: campaign links are shortened and a preview fetch would count as a click.
  return { ok: true, request: { messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { body, preview_url: false } } };
}

function templateOf(template: TemplateRef): WhatsAppTemplate {
  const parameters: WhatsAppTextParameter[] = Array.isArray(template.parameters)
    ? template.parameters.map((text) => ({ type: 'text', text }))
    : Object.entries(template.parameters).map(([name, text]) => ({ type: 'text', parameter_name: name, text }));
  const result: WhatsAppTemplate = { name: template.name, language: { policy: 'deterministic', code: template.language } };
  if (parameters.length > 0) result.components = [{ type: 'body', parameters }];
  return result;
}
