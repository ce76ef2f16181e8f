// Validation of the schema forms: an interpreting validator (schema-validator.ts: no eval, so the
// CSP needs no 'unsafe-eval') with Ajv's meaning and OUR formats (src/core/formats.ts, the same the
// server uses), messages translated to validation.* keys, and the cross-field rules below.
import type { TFunction } from 'i18next';
import type { CustomValidator, ErrorSchema, FormValidation, RJSFSchema } from '@rjsf/utils';
import { lengthProblem } from '../../../core/message-content.ts';
import { serverErrors } from '../../../generated/errors.gen.ts';
import { rowApplies } from '../expressions.ts';
import type { RowCondition } from '../screen-types.ts';
import { rangeProblem, today } from './date-rules.ts';
import { makeTransformErrors } from './messages.ts';
import { InterpretingValidator } from './schema-validator.ts';

// The messages live apart (messages.ts) so the plain form (plain-form.ts) shares them.
export { errorField, listItemOwner, makeTransformErrors, messageKeys, passwordPolicyValues } from './messages.ts';

type T = TFunction;

/** One validator for the whole console. */
export const validator = new InterpretingValidator();

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
