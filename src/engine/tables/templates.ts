// Row type of the templates table (migration 0320_templates). Composed into the one Database in
// src/engine/database.ts.
import type { Generated } from 'kysely';
import type { JsonDefault, Timestamp } from './columns.ts';

export interface TemplatesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  /** The channel type: sms, rcs, whatsapp, fbMessenger. */
  channel: string;
  purpose: string;
  content: string;
  variables: JsonDefault<string[]>;
  /** WhatsApp only (MARKETING, UTILITY, AUTHENTICATION), as language. */
  category: string | null;
  language: string | null;
  /** WhatsApp: the channel (business account) the template was submitted through. */
  channel_id: number | null;
  status: string;
  rejection_reason: string | null;
  /** Meta's template id. */
  provider_template_id: string | null;
  /** When the current status was set (submission, or the webhook event's time). */
  status_at: Timestamp | null;
  submitted_at: Timestamp | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TemplatesTables {
  templates: TemplatesTable;
}
