// Validation of the schema forms: the rjsf Ajv 8 validator with OUR formats (src/core/formats.ts,
// the same the server uses), messages translated to validation.* keys, and the cross-field rule
// `x-sameAs` (password repeat).
import type { TFunction } from 'i18next';
import type { CustomValidator, ErrorSchema, ErrorTransformer, FormValidation, RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { customFormats } from '../../../core/formats.ts';
import { PASSWORD_SPECIALS } from '../../../core/password-policy.ts';
import { constants } from '../../../generated/constants.gen.ts';

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

export function makeTransformErrors(t: T): ErrorTransformer {
  return (errors) =>
    errors.map((error) => {
      const field = errorField(error);
      const message = t(messageKeys(error, field), { limit: error.params?.limit, ...passwordPolicyValues() });
      return { ...error, message, stack: field ? `${field}: ${message}` : message };
    });
}

/** Cross-field rules declared in the schema: `x-sameAs: other` must equal the other field. */
export function makeCustomValidate(t: T, schema: RJSFSchema): CustomValidator {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const same = Object.entries(properties).filter(([, p]) => typeof p['x-sameAs'] === 'string');
  return (formData, errors: FormValidation) => {
    const data = (formData ?? {}) as Record<string, unknown>;
    for (const [name, p] of same) {
      const other = p['x-sameAs'] as string;
      if (data[name] !== undefined && data[name] !== data[other]) {
        const otherTitle = properties[other]?.title;
        (errors as unknown as Record<string, FormValidation>)[name]?.addError(t('validation.sameAs', { field: typeof otherTitle === 'string' ? t(otherTitle) : other }));
      }
    }
    return errors;
  };
}

/** Validates the whole form and keeps only the errors of `fields` (blur and secondary actions). */
export function errorsFor(fields: Iterable<string>, formData: Record<string, unknown>, schema: RJSFSchema, t: T): ErrorSchema {
  const { errorSchema } = validator.validateFormData(JSON.parse(JSON.stringify(formData ?? {})), schema, makeCustomValidate(t, schema), makeTransformErrors(t));
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const e = (errorSchema as Record<string, { __errors?: string[] }>)[f];
    if (e?.__errors?.length) out[f] = { __errors: [...new Set(e.__errors)] };
  }
  return out as ErrorSchema;
}
