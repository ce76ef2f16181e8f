import type { InboundEvent, StatusEvent } from '../../channel-adapter.ts';

/**
 * A WhatsApp template's review or lifecycle change (webhook field message_template_status_update,
 * Meta's "message_template_status_update webhook reference"): APPROVED, REJECTED, PAUSED,
 * DISABLED, REINSTATED…, for the template `providerTemplateId` of the business account `accountId`.
 */
export interface TemplateStatusEvent {
  /** The WhatsApp Business Account id (entry.id). */
  accountId: string;
  event: string;
  providerTemplateId: string;
  name: string;
  language: string;
  /** Meta's reason ("NONE" when approved, INCORRECT_CATEGORY …); null when absent. */
  reason: string | null;
  category: string | null;
  /** entry.time (Unix seconds), else when it was received. */
  at: Date;
}

/** What one webhook delivery carries, ready for the ReceiptSink (and, WhatsApp, the templates). */
export interface WebhookEvents {
  statuses: StatusEvent[];
  inbound: InboundEvent[];
  templates?: TemplateStatusEvent[];
}

/** The body is signed correctly but is not the shape the platform documents. */
export class WebhookPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookPayloadError';
  }
}

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export const asObject = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
export const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined);

/** Unix seconds (Meta's strings) or milliseconds as a Date; `fallback` when absent or invalid. */
export function dateOf(value: unknown, unit: 's' | 'ms', fallback: Date): Date {
  const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : NaN;
  return Number.isFinite(n) && n > 0 ? new Date(unit === 's' ? n * 1000 : n) : fallback;
}

export function parseJsonBody(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new WebhookPayloadError('the body is not JSON');
  }
}
