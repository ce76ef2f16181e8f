// The words of a form's validation errors: an Ajv-shaped error (name, params, property) to its
// translated validation.* message. Shared by the schema form's Ajv validator (validation.ts) and
// the plain form's checks (plain-form.ts), so both say the same thing for the same problem.
import type { TFunction } from 'i18next';
import type { ErrorTransformer, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { PASSWORD_SPECIALS } from '../../../core/password-policy.ts';
import { constants } from '../../../generated/constants.gen.ts';

type T = TFunction;

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
