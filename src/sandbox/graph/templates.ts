// The Graph stand-in's WhatsApp templates (server.ts routes to it): the templates a business
// account has, what sends may use (APPROVED only), and template management as Meta's Graph API
// does it (the contract in tests/fixtures/contracts describes the three calls):
//   POST   /{waba-id}/message_templates {name, language, category, components, parameter_format?}
//          → {id, status: PENDING, category}; the same name and language twice: error 100/2388024
//   POST   /{template-id} {category?, components}   → {success: true}; not while PENDING
//   DELETE /{waba-id}/message_templates?name=&hsm_id= → {success: true}
// Every submission (create or edit) is reviewed after a delay (GraphSandboxOptions
// templateReviewMs): by default a template whose name contains "rechazo" is REJECTED with the
// reason INCORRECT_CATEGORY and any other is APPROVED — then the stand-in posts Meta's
// message_template_status_update webhook, signed, to the account's number.
import { randomInt } from 'node:crypto';
import { DEMO_WHATSAPP_TEMPLATES } from '../../core/demo-whatsapp-templates.ts';
import { templateCategories, type TemplateCategory } from '../../generated/enums.gen.ts';

const CATEGORIES = new Set<string>(templateCategories);

/** A template the stand-in knows. Without wabaId it belongs to every account (the defaults). */
export interface SandboxTemplate {
  name: string;
  language: string;
  id?: string;
  category?: TemplateCategory;
  /** Default APPROVED. */
  status?: string;
  wabaId?: string;
}

export interface StoredTemplate {
  id: string;
  wabaId: string | null;
  name: string;
  language: string;
  category: TemplateCategory;
  status: string;
  components: unknown[];
  parameterFormat: 'named' | 'positional';
  /** Submissions so far (create, then each edit): a review belongs to one of them. */
  submissions: number;
}

/** What Meta's review decides for a submitted template. */
export interface TemplateReview { event: 'APPROVED' | 'REJECTED'; reason: string }

/** The default review: a name containing "rechazo" is rejected, every other template approved. */
export function defaultTemplateReview(template: Pick<StoredTemplate, 'name'>): TemplateReview {
  return template.name.includes('rechazo') ? { event: 'REJECTED', reason: 'INCORRECT_CATEGORY' } : { event: 'APPROVED', reason: 'NONE' };
}

/** Approved templates every account has: Meta's hello_world and the demo's notice (core/demo-whatsapp-templates.ts). */
export const SANDBOX_DEFAULT_TEMPLATES: readonly Required<Omit<SandboxTemplate, 'wabaId'>>[] = DEMO_WHATSAPP_TEMPLATES;

export type TemplateAnswer = { status: number; answer: unknown; errorCode?: number; template?: StoredTemplate };

type GraphErrorMaker = (code: number, message: string, extra?: Record<string, unknown>) => unknown;

const NAME = /^[a-z0-9_]{1,512}$/;
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Why Meta would refuse these components (null: fine). Checks what our requests rely on. */
function componentsProblem(category: string, components: unknown, format: unknown): string | null {
  if (!Array.isArray(components) || components.length === 0) return 'components are required';
  const list = components as Record<string, unknown>[];
  const body = list.find((c) => String(c?.type).toUpperCase() === 'BODY');
  if (!body) return 'a BODY component is required';
  if (category === 'AUTHENTICATION') {
    const buttons = list.find((c) => String(c?.type).toUpperCase() === 'BUTTONS')?.buttons;
    if (!Array.isArray(buttons) || !buttons.some((b) => (b as Record<string, unknown>)?.type === 'OTP')) return 'an authentication template needs an OTP button';
    return null;
  }
  if (typeof body.text !== 'string' || body.text.trim() === '') return 'the BODY needs its text';
  if (body.text.length > 1024) return 'the BODY text takes at most 1024 characters';
  const variables = [...body.text.matchAll(VARIABLE)].map((m) => m[1]);
  if (variables.length === 0) return null;
  const example = (body.example ?? {}) as Record<string, unknown>;
  if (format === 'named') {
    const named = example.body_text_named_params;
    const names = new Set(variables);
    if (!Array.isArray(named) || named.length !== names.size || !named.every((p) => names.has(String((p as Record<string, unknown>)?.param_name)))) return 'each named parameter needs an example (body_text_named_params)';
    return null;
  }
  if (!variables.every((v, i) => /^\d+$/.test(v) && (Number(v) <= i + 1))) return 'positional parameters are {{1}}, {{2}}… in order';
  const rows = example.body_text;
  const count = new Set(variables).size;
  if (!Array.isArray(rows) || !Array.isArray(rows[0]) || rows[0].length !== count) return 'each parameter needs an example (body_text)';
  return null;
}

export class TemplateRegistry {
  private readonly byId = new Map<string, StoredTemplate>();

  constructor(initial: readonly SandboxTemplate[], private readonly graphError: GraphErrorMaker) {
    for (const t of initial) {
      const id = t.id ?? this.newId();
      this.byId.set(id, { id, wabaId: t.wabaId ?? null, name: t.name, language: t.language, category: t.category ?? 'UTILITY', status: t.status ?? 'APPROVED', components: [], parameterFormat: 'positional', submissions: 0 });
    }
  }

  private newId(): string {
    // 16 digits like Meta's, below 2^53 so the webhook's number survives JSON.
    let id: string;
    do id = String(1_000_000_000_000_000 + randomInt(0, 2 ** 47) * 64 + randomInt(0, 64)); while (this.byId.has(id));
    return id;
  }

  private find(wabaId: string, name: string, language: string): StoredTemplate | undefined {
    for (const t of this.byId.values()) if ((t.wabaId === wabaId || t.wabaId === null) && t.name === name && t.language === language) return t;
    return undefined;
  }

  /** Whether a number of this account may send the template (it exists there and is APPROVED). */
  sendable(wabaId: string, name: string, language: string): boolean {
    return this.find(wabaId, name, language)?.status === 'APPROVED';
  }

  get(id: string): StoredTemplate | undefined {
    return this.byId.get(id);
  }

  create(wabaId: string, body: Record<string, unknown>): TemplateAnswer {
    const refuse = (message: string, subcode?: number) => ({ status: 400, answer: this.graphError(100, message, subcode ? { error_subcode: subcode } : {}), errorCode: 100 });
    const { name, language, category } = body;
    if (typeof name !== 'string' || !NAME.test(name)) return refuse('Invalid parameter: name must be lowercase letters, digits and underscores');
    if (typeof language !== 'string' || !LANGUAGE.test(language)) return refuse('Invalid parameter: language');
    if (typeof category !== 'string' || !CATEGORIES.has(category)) return refuse('Invalid parameter: category');
    if (body.parameter_format !== undefined && body.parameter_format !== 'named' && body.parameter_format !== 'positional') return refuse('Invalid parameter: parameter_format');
    const problem = componentsProblem(category, body.components, body.parameter_format);
    if (problem) return refuse(`Invalid parameter: ${problem}`);
    if (this.find(wabaId, name, language)) return refuse('Content in this language already exists', 2388024);
    const template: StoredTemplate = {
      id: this.newId(), wabaId, name, language, category: category as TemplateCategory, status: 'PENDING',
      components: body.components as unknown[], parameterFormat: body.parameter_format === 'named' ? 'named' : 'positional', submissions: 1,
    };
    this.byId.set(template.id, template);
    return { status: 200, answer: { id: template.id, status: 'PENDING', category }, template };
  }

  edit(template: StoredTemplate, body: Record<string, unknown>): TemplateAnswer {
    const refuse = (message: string, subcode?: number) => ({ status: 400, answer: this.graphError(100, message, subcode ? { error_subcode: subcode } : {}), errorCode: 100 });
    if (template.status === 'PENDING') return refuse('Message template is being reviewed and cannot be edited');
    const category = body.category === undefined ? template.category : body.category;
    if (typeof category !== 'string' || !CATEGORIES.has(category)) return refuse('Invalid parameter: category');
    const format = body.parameter_format ?? template.parameterFormat;
    const problem = componentsProblem(category, body.components, format);
    if (problem) return refuse(`Invalid parameter: ${problem}`);
    Object.assign(template, { category, components: body.components, parameterFormat: format === 'named' ? 'named' : 'positional', status: 'PENDING', submissions: template.submissions + 1 });
    return { status: 200, answer: { success: true }, template };
  }

  remove(wabaId: string, name: unknown, hsmId: unknown): TemplateAnswer {
    const matches = [...this.byId.values()].filter((t) => (t.wabaId === wabaId || t.wabaId === null) && t.name === name && (hsmId === null || t.id === hsmId));
    if (typeof name !== 'string' || matches.length === 0) return { status: 400, answer: this.graphError(100, 'Message template not found'), errorCode: 100 };
    for (const t of matches) this.byId.delete(t.id);
    return { status: 200, answer: { success: true } };
  }
}
