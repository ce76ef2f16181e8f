// Validation of the schema forms: the rjsf Ajv 8 validator with OUR formats (src/core/formats.ts,
// the same the server uses), messages translated to validation.* keys, and the cross-field rule
// `x-sameAs` (password repeat).
import type { TFunction } from 'i18next';
import type { CustomValidator, ErrorSchema, ErrorTransformer, FormValidation, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { customFormats } from '../../../core/formats.ts';
import { lengthProblem } from '../../../core/message-content.ts';
import { PASSWORD_SPECIALS } from '../../../core/password-policy.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { serverErrors } from '../../../generated/errors.gen.ts';
import { rowApplies } from '../expressions.ts';
import type { RowCondition } from '../screen-types.ts';
import { rangeProblem, today } from './date-rules.ts';

type T = TFunction;

/** One validator for the whole console: Ajv caches each compiled schema. */
export const validator = customizeValidator({ customFormats });

/** The field an error belongs to (first path segment). */
export function errorField(error: RJSFValidationError): string | undefined {
  if (error.name === 'required' && typeof error.params?.missingProperty === 'string') return error.params.missingProperty;
  const property = (error.property ?? '').replace(/^\./, '');
  return property.split(/[.[]/)[0] || undefined;
}

/** Values the password-policy message spells out. */
export const passwordPolicyValues = () => ({
  min: constants.limits.passwordMin,
  max: constants.limits.passwordMax,
  specials: PASSWORD_SPECIALS,
});

/** The message keys tried for an Ajv error, most specific first. */
export function messageKeys(error: RJSFValidationError, field: string | undefined): string[] {
  const name = error.name ?? 'invalid';
  const keys: string[] = [];
  if (name === 'format') {
    const format = String(error.params?.format ?? '');
    keys.push(`validation.format.${format}`, 'validation.format');
  } else {
    if (field) keys.push(`validation.${name}.${field}`);
    keys.push(`validation.${name}`);
  }
  keys.push('validation.invalid');
  return keys;
}

/**
 * An item of a list of plain values (keywords, tags, role ids) is edited by one widget for the whole
 * list: its error is shown on the list ("keywords.1" → "keywords").
 */
export function listItemOwner(property: string | undefined, schema: RJSFSchema | undefined): string | null {
  const m = /^\.?(\w+)(?:\.(\d+)|\[(\d+)\])$/.exec(property ?? '');
  if (!m || !schema) return null;
  const p = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.[m[1]];
  const items = p?.items as Record<string, unknown> | undefined;
  return p?.type === 'array' && items && items.type !== 'object' ? m[1] : null;
}

export function makeTransformErrors(t: T, schema?: RJSFSchema): ErrorTransformer {
  return (errors) =>
    errors.map((error) => {
      const field = errorField(error);
      // A field may name its own message (`x-errorKey`) when its name is shared by other rules.
      const own = field ? (schema?.properties as Record<string, Record<string, unknown>> | undefined)?.[field]?.['x-errorKey'] : undefined;
      const keys = messageKeys(error, field);
      const message = t(typeof own === 'string' && error.name !== 'required' ? [own, ...keys] : keys, { limit: error.params?.limit, ...passwordPolicyValues() });
      const owner = listItemOwner(error.property, schema);
      return { ...error, ...(owner ? { property: `.${owner}` } : {}), message, stack: field ? `${field}: ${message}` : message };
    });
}

/**
 * Cross-field rules declared in the schema: `x-sameAs: other` must equal the other field; a date
 * range (`x-widget: dateRange`, an object { start, end }) ends after it starts and not after today;
 * `x-max: today` keeps a date up to today; `x-after: other` keeps a date on or after another one.
 * The date rules are the server's (src/core/date-range.ts). A message (`x-widget: smsContent`) stays
 * within the content limits (src/core/message-content.ts lengthProblem, the server's 99903/99904):
 * refused with the catalogue's words, never cut.
 */
export function makeCustomValidate(t: T, schema: RJSFSchema): CustomValidator {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const entries = Object.entries(properties);
  const same = entries.filter(([, p]) => typeof p['x-sameAs'] === 'string');
  const ranges = entries.filter(([, p]) => p['x-widget'] === 'dateRange');
  const upToToday = entries.filter(([, p]) => p['x-max'] === 'today');
  const after = entries.filter(([, p]) => typeof p['x-after'] === 'string');
  const messages = entries.filter(([, p]) => p['x-widget'] === 'smsContent');
  return (formData, errors: FormValidation) => {
    const data = (formData ?? {}) as Record<string, unknown>;
    const on = (name: string) => (errors as unknown as Record<string, FormValidation | undefined>)[name];
    for (const [name, p] of same) {
      const other = p['x-sameAs'] as string;
      if (data[name] !== undefined && data[name] !== data[other]) {
        const otherTitle = properties[other]?.title;
        on(name)?.addError(t('validation.sameAs', { field: typeof otherTitle === 'string' ? t(otherTitle) : other }));
      }
    }
    for (const [name] of ranges) {
      const problem = rangeProblem(data[name] as { start?: string; end?: string } | undefined);
      if (problem) on(name)?.addError(t(`validation.dateRange.${problem}`));
    }
    for (const [name] of upToToday) {
      const v = data[name];
      if (typeof v === 'string' && v > today()) on(name)?.addError(t('validation.dateRange.afterToday'));
    }
    for (const [name, p] of after) {
      const v = data[name];
      const other = data[p['x-after'] as string];
      if (typeof v === 'string' && typeof other === 'string' && v < other) on(name)?.addError(t('validation.dateRange.endBeforeStart'));
    }
    for (const [name, p] of messages) {
      const v = data[name];
      const problem = typeof v === 'string' ? lengthProblem(v, rowApplies(p['x-smsWhen'] as RowCondition | undefined, data, {})) : null;
      if (problem) on(name)?.addError(t(serverErrors[problem.code === 'tooLong' ? '99904' : '99903'].key));
    }
    return errors;
  };
}

/** Validates the whole form and keeps only the errors of `fields` (blur and secondary actions). */
export function errorsFor(fields: Iterable<string>, formData: Record<string, unknown>, schema: RJSFSchema, t: T): ErrorSchema {
  const { errorSchema } = validator.validateFormData(JSON.parse(JSON.stringify(formData ?? {})), schema, makeCustomValidate(t, schema), makeTransformErrors(t, schema));
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const e = (errorSchema as Record<string, { __errors?: string[] }>)[f];
    if (e?.__errors?.length) out[f] = { __errors: [...new Set(e.__errors)] };
  }
  return out as ErrorSchema;
}
