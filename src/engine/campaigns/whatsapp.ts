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

/**
 * The file column that fills a template parameter: the one the person mapped, else, for a named
 * parameter, the column of the same name with case and accents aside ({{nombre}} ← "Nombre", as a
 * free-text campaign's variables match), so nobody is asked to map what the file already names.
 * A numbered parameter ({{1}}) has no name to match: it needs its column chosen.
 */
export function columnFor(parameter: string, mapping: Record<string, string>, columns: readonly string[]): string | undefined {
  if (mapping[parameter]) return mapping[parameter];
  if (/^\d+$/.test(parameter)) return undefined;
  const key = headerKey(parameter);
  return columns.find((c) => headerKey(c) === key);
}

/** Every parameter's column as the launch will use it (the person's choices and the matches by name). */
export function mappingFor(parameters: readonly string[], mapping: Record<string, string>, columns: readonly string[]): Record<string, string> {
  return Object.fromEntries(parameters.flatMap((p) => {
    const column = columnFor(p, mapping, columns);
    return column === undefined ? [] : [[p, column]];
  }));
}

/** The value of a mapped column in a row's stored values (headers match as the upload matches them); undefined without a column the row has. */
function valueOf(values: Record<string, string>, column: string | undefined): string | undefined {
  if (column === undefined) return undefined;
  if (column in values) return values[column];
  const key = headerKey(column);
  const found = Object.keys(values).find((k) => headerKey(k) === key);
  return found === undefined ? undefined : values[found];
}

/**
 * A row's values with each template parameter's too ({{1}} → the value of its column), so a
 * template campaign's text renders for the summary; a parameter without a column reads as its
 * name in brackets ("Hola [1]"), as a test send without a file does, never as a blank the person
 * could take for the message (the launch refuses it: 99908). Without a template, the row's own values.
 */
export function withTemplateValues(campaign: { template_id: number | null; template_mapping: Record<string, string>; variables: string[] }, values: Record<string, string>): Record<string, string> {
  if (campaign.template_id === null) return values;
  const columns = Object.keys(values);
  return { ...Object.fromEntries(campaign.variables.map((p) => [p, valueOf(values, columnFor(p, campaign.template_mapping, columns)) ?? `[${p}]`])), ...values };
}

/** Parameters without a column: none mapped and none of the same name, or one the current file does not have. */
export function unmapped(parameters: readonly string[], mapping: Record<string, string>, columns: readonly string[]): string[] {
  const keys = new Set(columns.map(headerKey));
  return parameters.filter((p) => {
    const column = columnFor(p, mapping, columns);
    return !column || !keys.has(headerKey(column));
  });
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
    const columns = Object.keys(r.variables);
    const named = Object.fromEntries(template.parameters.map((p) => [p, valueOf(r.variables, columnFor(p, campaign.template_mapping, columns)) ?? '']));
    const parameters = positional ? template.parameters.map((p) => named[p]) : named;
    // The body kept with the message is the template's text as this recipient reads it.
    return { to: r.phone!, body: render(template.content, named, { allowEmpty: true }), template: { name: template.name, language: template.language, parameters } };
  });
}
