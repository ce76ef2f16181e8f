// WhatsApp template management on Meta's Graph API (v23; the contract in
// tests/fixtures/contracts describes these three calls, tests/unit/graph-contract.test.ts checks
// our bodies against it):
//   POST   {baseUrl}/{waba-id}/message_templates        create → { id, status: PENDING, category }
//   POST   {baseUrl}/{template-id}                      edit (category and components) → { success }
//   DELETE {baseUrl}/{waba-id}/message_templates?name=&hsm_id=   delete → { success }
// Meta reviews a new or edited template and answers on the webhook (field
// message_template_status_update, src/engine/channels/whatsapp/webhook.ts).
//
// The body is our content with {{variables}}: positional ({{1}}, {{2}}…, Meta's default) or named
// (`parameter_format: "named"`). Meta wants an example value per parameter; the example is made
// from the variable (positional: "ejemplo 1", named: its name with spaces). An AUTHENTICATION
// template has no text of ours: Meta writes "<code> is your verification code" (with the
// security recommendation) in the template's language, and a copy-code button carries the code.
import type { TemplateCategory } from '../../../generated/enums.gen.ts';
import { parameterFormat } from '../../../core/whatsapp-template.ts';
import { variablesOf } from '../../../core/message-content.ts';
import { describeGraphError, parseGraphError } from '../shared/graph-error.ts';
import { DEFAULT_TIMEOUT_MS, isTransientStatus, requestJson, TransportError } from '../shared/http-client.ts';
import { isRetryableWhatsAppCode } from './errors.ts';

export interface TemplateDraft {
  name: string;
  language: string;
  category: TemplateCategory;
  /** Our content, with {{variables}} (valid for Meta: core/whatsapp-template.ts). */
  content: string;
}

type Component = Record<string, unknown> & { type: string };

export interface TemplateCreateRequest {
  name: string;
  language: string;
  category: TemplateCategory;
  parameter_format?: 'named' | 'positional';
  components: Component[];
}

/** Where a company's WhatsApp Business Account is reached. */
export interface GraphAccount {
  /** Graph root including the version (GRAPH_BASE_URL, a channel's own, or the stand-in's). */
  baseUrl: string;
  wabaId: string;
  accessToken: string;
}

/**
 * What Meta answered: accepted (create gives the template's id and status), or not — `refused`
 * (Meta said no: a bad parameter, a name taken in that language…), `unreachable` (transport
 * failure, throttling, 5xx: try again later) or `unauthorized` (the channel's token is invalid).
 */
export type TemplateCallResult =
  | { ok: true; id: string | null; status: string | null; category: string | null }
  | { ok: false; kind: 'refused' | 'unreachable' | 'unauthorized'; reason: string; code?: number };

/** {{ nombre }} → {{nombre}}: Meta reads parameters written exactly. */
const tidy = (content: string) => content.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, '{{$1}}');

export function exampleFor(variable: string): string {
  return /^\d+$/.test(variable) ? `ejemplo ${variable}` : variable.replace(/_/g, ' ');
}

/** The category, the parameter format and the components Meta reviews. */
export function templateComponents(draft: TemplateDraft): Pick<TemplateCreateRequest, 'category' | 'parameter_format' | 'components'> {
  if (draft.category === 'AUTHENTICATION') {
    return {
      category: 'AUTHENTICATION',
      components: [
        { type: 'BODY', add_security_recommendation: true },
        // No label: Meta uses its own "Copy code", translated to the template's language.
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] },
      ],
    };
  }
  const text = tidy(draft.content);
  const variables = variablesOf(text);
  const format = parameterFormat(variables);
  const body: Component = { type: 'BODY', text };
  if (format === 'positional') body.example = { body_text: [variables.map(exampleFor)] };
  if (format === 'named') body.example = { body_text_named_params: variables.map((v) => ({ param_name: v, example: exampleFor(v) })) };
  return { category: draft.category, ...(format === 'named' ? { parameter_format: 'named' as const } : {}), components: [body] };
}

export function buildTemplateCreateRequest(draft: TemplateDraft): TemplateCreateRequest {
  return { name: draft.name, language: draft.language, ...templateComponents(draft) };
}

const root = (baseUrl: string) => baseUrl.replace(/\/+$/, '');
const str = (v: unknown) => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

async function graphCall(method: 'POST' | 'DELETE', url: string, token: string, body: unknown, timeoutMs: number): Promise<TemplateCallResult> {
  let answer;
  try {
    answer = await requestJson({ method, url, headers: { authorization: `Bearer ${token}` }, body, timeoutMs });
  } catch (error) {
    if (error instanceof TransportError) return { ok: false, kind: 'unreachable', reason: error.message };
    throw error;
  }
  if (answer.status >= 200 && answer.status < 300) {
    const b = (answer.body ?? {}) as Record<string, unknown>;
    return { ok: true, id: str(b.id), status: str(b.status), category: str(b.category) };
  }
  const error = parseGraphError(answer.body);
  if (!error) return { ok: false, kind: isTransientStatus(answer.status) ? 'unreachable' : 'refused', reason: `Graph answered HTTP ${answer.status}` };
  const reason = describeGraphError(error);
  if (error.code === 190) return { ok: false, kind: 'unauthorized', reason, code: error.code };
  if (isRetryableWhatsAppCode(error.code) || isTransientStatus(answer.status)) return { ok: false, kind: 'unreachable', reason, code: error.code };
  return { ok: false, kind: 'refused', reason, code: error.code };
}

export function createWhatsAppTemplate(account: GraphAccount, draft: TemplateDraft, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<TemplateCallResult> {
  return graphCall('POST', `${root(account.baseUrl)}/${encodeURIComponent(account.wabaId)}/message_templates`, account.accessToken, buildTemplateCreateRequest(draft), timeoutMs);
}

/** Meta edits only the category and the components; name and language are fixed. */
export function editWhatsAppTemplate(account: GraphAccount, templateId: string, draft: TemplateDraft, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<TemplateCallResult> {
  return graphCall('POST', `${root(account.baseUrl)}/${encodeURIComponent(templateId)}`, account.accessToken, templateComponents(draft), timeoutMs);
}

export function deleteWhatsAppTemplate(account: GraphAccount, templateId: string, name: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<TemplateCallResult> {
  const query = new URLSearchParams({ name, hsm_id: templateId });
  return graphCall('DELETE', `${root(account.baseUrl)}/${encodeURIComponent(account.wabaId)}/message_templates?${query}`, account.accessToken, undefined, timeoutMs);
}
