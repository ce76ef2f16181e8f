// The schema forms' validator (rjsf's ValidatorType) without code generation, so the console runs
// under a Content-Security-Policy without 'unsafe-eval'. rjsf's Ajv validator compiles
// every schema with `new Function`; this one interprets the schema with the `jsonschema` library
// (maintained, no eval) and hands rjsf the errors in Ajv's shape (keyword, instancePath, params),
// so the messages (messages.ts), the error placement and the plain form's checks keep one meaning.
//
// Where the two libraries differ, Ajv's meaning is kept: formats are Ajv's (formats.ts: ajv-formats'
// full set and ours, the server's), checked only on the data types they apply to, an unknown format
// passes (rjsf's Ajv runs with strict: false). Lengths count code points and
// patterns use the `u` flag in both. tests/console/schema-validator.test.ts compares both
// validators on every declared form with hostile and ordinary values.
import {
  createErrorHandler,
  getDefaultFormState,
  ROOT_SCHEMA_PREFIX,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  withIdRefPrefix,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import { Validator, ValidatorResult, type Schema, type ValidationError } from 'jsonschema';
import { formatHolds } from './formats.ts';

/** An error as Ajv words it (the fields rjsf and our messages read). */
export interface AjvShapedError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

/** The Ajv params of a jsonschema error (its `argument`), by keyword. */
function paramsOf(e: ValidationError): Record<string, unknown> {
  const a = e.argument as unknown;
  switch (e.name) {
    case 'required':
      return { missingProperty: a };
    case 'additionalProperties':
      return { additionalProperty: a };
    case 'format':
      return { format: a };
    case 'pattern':
      return { pattern: a };
    case 'type':
      return { type: Array.isArray(a) ? a.join(',') : a };
    case 'enum':
      return { allowedValues: a };
    case 'const':
      return { allowedValue: a };
    case 'minimum':
      return { comparison: '>=', limit: a };
    case 'maximum':
      return { comparison: '<=', limit: a };
    case 'exclusiveMinimum':
      return { comparison: '>', limit: a };
    case 'exclusiveMaximum':
      return { comparison: '<', limit: a };
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
    case 'minProperties':
    case 'maxProperties':
    case 'multipleOf':
      return { limit: a };
    default:
      return a === undefined ? {} : { argument: a };
  }
}

/** The JSON pointer of a path (`['tags', 0]` → `/tags/0`). */
const pointer = (path: (string | number)[]) => path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** Where in a form's schema a value's keyword is (`['tags', 0]` → `/properties/tags/items`). */
const schemaPointer = (path: (string | number)[]) => path.map((p) => (typeof p === 'number' ? '/items' : `/properties/${p}`)).join('');

export class InterpretingValidator implements ValidatorType<unknown, RJSFSchema> {
  private readonly engine = new Validator();
  private rootSchema: RJSFSchema | undefined;

  constructor() {
    // Formats with Ajv's meaning, through the library's documented custom-keyword door.
    this.engine.attributes.format = (instance: unknown, schema: Schema, options, ctx) => {
      const result = new ValidatorResult(instance, schema, options, ctx);
      const format = String(schema.format);
      if (!formatHolds(format, instance)) result.addError({ name: 'format', argument: format, message: `must match format "${format}"` });
      return result;
    };
  }

  /** The errors of `data` against `schema`, in Ajv's shape; a broken schema gives `validationError`. */
  rawValidation<Result = AjvShapedError>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      const result = this.engine.validate(formData, schema as Schema, { nestedErrors: true, allowUnknownAttributes: true });
      const errors = result.errors.map((e) => ({
        keyword: e.name,
        instancePath: pointer(e.path),
        schemaPath: `#${e.name === 'required' ? '' : schemaPointer(e.path)}/${e.name}`,
        params: paramsOf(e),
        message: e.message,
      }));
      return { errors: errors.length ? (errors as Result[]) : undefined };
    } catch (error) {
      return { validationError: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  validateFormData(formData: unknown, schema: RJSFSchema, customValidate?: CustomValidator<unknown, RJSFSchema>, transformErrors?: ErrorTransformer<unknown, RJSFSchema>, uiSchema?: UiSchema): ValidationData<unknown> {
    const raw = this.rawValidation<AjvShapedError>(schema, formData);
    let errors: RJSFValidationError[] = (raw.errors ?? []).map((e) => {
      const at = e.instancePath.replace(/\//g, '.');
      const property = e.keyword === 'required' ? `${at}.${String(e.params.missingProperty)}` : at;
      return { name: e.keyword, property, message: e.message, params: e.params, stack: `${property} ${e.message}`.trim(), schemaPath: e.schemaPath };
    });
    if (raw.validationError) errors = [...errors, { stack: raw.validationError.message }];
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    const errorSchema = toErrorSchema<unknown>(errors);
    if (!customValidate) return { errors, errorSchema };
    // As rjsf's own validators do: the custom rules see the form data with its defaults filled.
    const withDefaults = getDefaultFormState<unknown, RJSFSchema>(this, schema, formData, schema, true);
    const own = customValidate(withDefaults, createErrorHandler<unknown>(withDefaults), uiSchema, errorSchema);
    return validationDataMerge<unknown>({ errors, errorSchema }, unwrapErrorHandler<unknown>(own));
  }

  /** Whether `data` fits `schema`; `$ref`s in it point into `rootSchema` (rjsf's option matching). */
  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    try {
      if (this.rootSchema !== rootSchema) {
        this.engine.addSchema(rootSchema as Schema, `/${ROOT_SCHEMA_PREFIX}`);
        this.rootSchema = rootSchema;
      }
      return this.engine.validate(formData, withIdRefPrefix(schema) as Schema, { base: '/' }).valid;
    } catch {
      return false;
    }
  }

  reset(): void {
    this.rootSchema = undefined;
  }
}
