// WhatsApp campaigns. Outside the 24-hour customer-service window Meta takes only
// approved templates, so a WhatsApp campaign either sends its template (name, language and the
// body parameters, each filled from the column of the recipients file the user mapped to it) or
// sends free text, which is predicted and refused while any recipient has not written to the
// channel in the last 24 hours (Meta's 131047; the rule is engine/channels/whatsapp/customer-window.ts).
// The summary (preview) and the launch ask the same plan, so they never disagree.
import type { Kysely } from 'kysely';
import { render } from '../../core/message-content.ts';
import { capabilitiesOf, outsideCustomerWindow, OUTSIDE_WINDOW_CODE } from '../channels/index.ts';
import type { ChannelPlatform } from '../channel-adapter.ts';
import type { Database } from '../database.ts';
import type { EnqueueItem } from '../lifecycle/index.ts';
import { headerKey } from '../recipients/index.ts';
import { refuse } from '../refused.ts';
import type { CampaignDeps } from './deps.ts';

/** A template's parameters in Meta's order: {{1}}, {{2}}… by number; named ones as they appear. */
export function parametersOf(variables: readonly string[]): string[] {
  return variables.length && variables.every((v) => /^\d+$/.test(v)) ? [...variables].sort((a, b) => Number(a) - Number(b)) : [...variables];
}

/** The value of a mapped column in a row's stored values (headers match as the upload matches them). */
function valueOf(values: Record<string, string>, column: string | undefined): string {
  if (column === undefined) return '';
  if (column in values) return values[column];
  const key = headerKey(column);
  const found = Object.keys(values).find((k) => headerKey(k) === key);
  return found === undefined ? '' : values[found];
}

/** A row's values with each mapped template parameter's too ({{1}} → the value of its column), so a
 *  template campaign's text renders for the summary (an unmapped one is empty); without a template, the row's own values. */
export function withTemplateValues(campaign: { template_id: number | null; template_mapping: Record<string, string>; variables: string[] }, values: Record<string, string>): Record<string, string> {
  if (campaign.template_id === null) return values;
  return { ...Object.fromEntries(campaign.variables.map((p) => [p, valueOf(values, campaign.template_mapping[p])])), ...values };
}

/** Parameters without a column, or whose column the current file does not have. */
export function unmapped(parameters: readonly string[], mapping: Record<string, string>, columns: readonly string[]): string[] {
  const keys = new Set(columns.map(headerKey));
  return parameters.filter((p) => !mapping[p] || !keys.has(headerKey(mapping[p])));
}

interface Campaign { company_id: number; template_id: number | null; template_mapping: Record<string, string>; recipients_file_id: number | null }
interface Template { name: string; language: string; content: string; parameters: string[] }
export interface WhatsAppSummary { outsideWindow: number; windowCode: string | null; unmappedParameters: string[] }
interface Plan extends WhatsAppSummary { template: Template | null }

async function planOf(db: Kysely<Database>, campaign: Campaign, channel: { id: number; platform: ChannelPlatform }, phones: readonly string[], now: Date): Promise<Plan> {
  if (!capabilitiesOf(channel.platform).templates) return { template: null, outsideWindow: 0, windowCode: null, unmappedParameters: [] };
  const row = campaign.template_id === null ? undefined : await db.selectFrom('templates').select(['name', 'language', 'content', 'variables'])
    .where('id', '=', campaign.template_id).where('company_id', '=', campaign.company_id).where('channel', '=', channel.platform).executeTakeFirst();
  if (row) {
    const template = { name: row.name, language: row.language ?? '', content: row.content, parameters: parametersOf(row.variables) };
    const file = campaign.recipients_file_id === null ? undefined : await db.selectFrom('recipient_files').select('headers').where('id', '=', campaign.recipients_file_id).executeTakeFirst();
    return { template, outsideWindow: 0, windowCode: null, unmappedParameters: unmapped(template.parameters, campaign.template_mapping, file?.headers ?? []) };
  }
  const outside = (await outsideCustomerWindow(db, channel.id, phones, now)).size;
  return { template: null, outsideWindow: outside, windowCode: outside ? OUTSIDE_WINDOW_CODE : null, unmappedParameters: [] };
}

/** The pre-send summary's WhatsApp lines (zero and empty on other channels). */
export async function whatsappSummary(deps: Pick<CampaignDeps, 'db' | 'now'>, campaign: Campaign, channel: { id: number; platform: ChannelPlatform }, phones: readonly string[]): Promise<WhatsAppSummary> {
  const { outsideWindow, windowCode, unmappedParameters } = await planOf(deps.db, campaign, channel, phones, deps.now());
  return { outsideWindow, windowCode, unmappedParameters };
}

/**
 * At launch, before anything is created: a template campaign's messages (one template message per
 * row), or null for free text. Refuses a parameter without its column (99908) and free text while
 * a recipient is outside the window (99907).
 */
export async function whatsappLaunchItems(deps: Pick<CampaignDeps, 'db' | 'now'>, campaign: Campaign, channel: { id: number; platform: ChannelPlatform }, rows: readonly { phone: string | null; variables: Record<string, string> }[]): Promise<EnqueueItem[] | null> {
  const plan = await planOf(deps.db, campaign, channel, rows.map((r) => r.phone!), deps.now());
  if (plan.unmappedParameters.length) throw refuse('99908', `template parameters without a column of the file: ${plan.unmappedParameters.join(', ')}`);
  if (plan.outsideWindow) throw refuse('99907', `${plan.outsideWindow} recipients have not written in the last 24 hours: WhatsApp refuses free text to them (${OUTSIDE_WINDOW_CODE}); choose a template`);
  const template = plan.template;
  if (!template) return null;
  const positional = template.parameters.every((p) => /^\d+$/.test(p));
  return rows.map((r) => {
    const named = Object.fromEntries(template.parameters.map((p) => [p, valueOf(r.variables, campaign.template_mapping[p])]));
    const parameters = positional ? template.parameters.map((p) => named[p]) : named;
    // The body kept with the message is the template's text as this recipient reads it.
    return { to: r.phone!, body: render(template.content, named, { allowEmpty: true }), template: { name: template.name, language: template.language, parameters } };
  });
}
