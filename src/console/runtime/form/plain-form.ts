// The plain form's rules (the sign-in first load): which declared forms it can draw and
// how it checks them. A form qualifies when every field is a one-line text (text, e-mail, password,
// the captcha box) checked only by `required`, `minLength`, `maxLength`, `pattern` and `format`;
// anything else (pickers, lists, cross-field rules, modes) stays with the schema form (rjsf and its
// validator, schema-validator.ts). The checks follow Ajv's meaning of each keyword (lengths in code
// points, patterns with the `u` flag, the formats of formats.ts, the schema form's) and give
// Ajv-shaped errors, worded by the same messages (messages.ts); tests/console/plain-form.test.tsx
// compares both validators on the qualifying screens.
import type { TFunction } from 'i18next';
import type { ErrorSchema, RJSFSchema, RJSFValidationError, UiSchema } from '@rjsf/utils';
import { FORMATS, formatHolds } from './formats.ts';
import { makeTransformErrors } from './messages.ts';

type Prop = Record<string, unknown>;
type Data = Record<string, unknown>;

/** Keywords a plain field may carry (annotations the plain form reads, or checks it makes). */
const FIELD_KEYS = new Set(['type', 'title', 'description', 'minLength', 'maxLength', 'pattern', 'format', 'x-widget', 'x-errorKey', 'x-errorCode']);
/** Widgets the plain form draws: a text input, the password input, the captcha box. */
const PLAIN_WIDGETS = new Set([undefined, 'password', 'captcha']);
/** Formats that keep a text input (the others choose a widget of their own: date, phone, colour…). */
const TEXT_FORMATS = new Set([undefined, 'email', 'corporate-email', 'password-policy', 'uri', 'cidr', 'nit-co']);
const UI_KEYS = new Set(['ui:order', 'ui:submitButtonOptions']);

/** Whether the plain form can draw this declared form (else the schema form does). */
export function plainFormFits(schema: RJSFSchema, uiSchema?: UiSchema): boolean {
  if (schema.type !== 'object' || !schema.properties) return false;
  if (Object.keys(schema).some((k) => !['type', 'required', 'properties', 'title', 'description', 'additionalProperties'].includes(k))) return false;
  if (Object.keys(uiSchema ?? {}).some((k) => !UI_KEYS.has(k))) return false;
  return Object.values(schema.properties as Record<string, Prop>).every(
    (p) => p.type === 'string' && Object.keys(p).every((k) => FIELD_KEYS.has(k)) && PLAIN_WIDGETS.has(p['x-widget'] as string | undefined) && TEXT_FORMATS.has(p.format as string | undefined) && (p.format === undefined || String(p.format) in FORMATS),
  );
}

/** The fields in the order the form shows them (`ui:order`, `*` standing for the rest). */
export function plainFieldOrder(schema: RJSFSchema, uiSchema?: UiSchema): string[] {
  const names = Object.keys(schema.properties ?? {});
  const order = (uiSchema?.['ui:order'] as string[] | undefined) ?? ['*'];
  const named = order.filter((n) => n !== '*' && names.includes(n));
  const rest = names.filter((n) => !named.includes(n));
  const star = order.indexOf('*');
  return star < 0 ? [...named, ...rest] : [...named.slice(0, star), ...rest, ...named.slice(star)];
}

const codePoints = (s: string) => [...s].length;

/** Ajv-shaped errors of a plain form's values (only for a form `plainFormFits` accepts). */
export function plainValidate(schema: RJSFSchema, data: Data): RJSFValidationError[] {
  const errors: RJSFValidationError[] = [];
  const add = (field: string, name: string, params: Record<string, unknown>) => errors.push({ name, property: `.${field}`, params, message: name, stack: name, schemaPath: `#/properties/${field}/${name}` });
  for (const field of schema.required ?? []) {
    if (data[field] === undefined) errors.push({ name: 'required', property: `.${field}`, params: { missingProperty: field }, message: 'required', stack: 'required', schemaPath: '#/required' });
  }
  for (const [field, p] of Object.entries((schema.properties ?? {}) as Record<string, Prop>)) {
    const v = data[field];
    if (v === undefined) continue;
    if (typeof v !== 'string') {
      add(field, 'type', { type: 'string' });
      continue;
    }
    if (typeof p.maxLength === 'number' && codePoints(v) > p.maxLength) add(field, 'maxLength', { limit: p.maxLength });
    if (typeof p.minLength === 'number' && codePoints(v) < p.minLength) add(field, 'minLength', { limit: p.minLength });
    if (typeof p.pattern === 'string' && !new RegExp(p.pattern, 'u').test(v)) add(field, 'pattern', { pattern: p.pattern });
    if (typeof p.format === 'string' && !formatHolds(p.format, v)) add(field, 'format', { format: p.format });
  }
  return errors;
}

/** The translated errors of the named fields (all when `fields` is omitted), as rjsf's ErrorSchema. */
export function plainErrorsFor(schema: RJSFSchema, data: Data, t: TFunction, fields?: Iterable<string>): ErrorSchema {
  const wanted = fields ? new Set(fields) : null;
  const out: Record<string, { __errors: string[] }> = {};
  for (const e of makeTransformErrors(t, schema)(plainValidate(schema, data), {} as never)) {
    const field = (e.property ?? '').replace(/^\./, '');
    if (!field || (wanted && !wanted.has(field))) continue;
    const list = (out[field] ??= { __errors: [] }).__errors;
    if (e.message && !list.includes(e.message)) list.push(e.message);
  }
  return out as ErrorSchema;
}
