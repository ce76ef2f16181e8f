// Request validation with the same formats and keywords as the console (src/core/formats.ts),
// and the mapping of Ajv errors onto catalogue codes.
//
// Two Ajv instances: bodies are validated WITHOUT type coercion (a number where a string is
// declared is a wrong type, not something to fix up), while path and query parameters are
// coerced (they always arrive as strings). Unknown body properties are refused, not silently
// stripped, so a typo in a field name is an error the caller sees.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { customFormats } from '../../core/formats.ts';
import { findUnstorableString } from '../../core/storable-text.ts';
import { channelDefinition, channelDefinitions } from '../../engine/channels/index.ts';
import { annotationKeywords, entitySchemas } from '../../generated/server-operations.gen.ts';
import { compiledOnFirstUse } from './lazy-compile.ts';
import { ApiError, isErrorCode, messageFor, type ErrorCode, type FieldError } from '../errors/api-error.ts';

/**
 * PostgreSQL's `integer` (int4) range: an integer the schema does not bound itself is one of
 * those, so 99999999999999999999 is refused as invalid naming the field instead of failing in the
 * database. A field stored as `bigint` declares its own `maximum` (up to
 * Number.MAX_SAFE_INTEGER, the largest integer JSON numbers carry exactly).
 */
export const INT4 = { minimum: -2147483648, maximum: 2147483647 } as const;

/** A copy of the schema where every `type: integer` without its own bound gets INT4's. */
export function boundIntegers<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(boundIntegers) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = key === 'enum' || key === 'const' || key === 'default' || key === 'examples' ? value : boundIntegers(value);
  const type = copy.type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (copy.maximum === undefined && copy.exclusiveMaximum === undefined) copy.maximum = INT4.maximum;
    if (copy.minimum === undefined && copy.exclusiveMinimum === undefined) copy.minimum = INT4.minimum;
  }
  return copy as T;
}

/**
 * The channel types a request may name are the registered ones (engine/channels/registry.ts),
 * asked at the moment of the request: the YAML enum of schemas/enums/channel-platform.yaml lists
 * the built-in types for the OpenAPI description and the console, and the registry holds the
 * same ones (its Record is keyed by that enum) plus any a deployment or a test registers. So the
 * served schemas replace the enum: validation checks against the registry, and the answers'
 * serializers (which check an enum inside anyOf) take any string the database holds.
 */
const REGISTERED_CHANNEL_TYPE = 'x-registeredChannelType';
export function servedSchema(schema: object, forValidation: boolean): object {
  if ((schema as { $id?: string }).$id !== 'channel-platform') return schema;
  const { enum: _builtIn, ...rest } = schema as Record<string, unknown>;
  return forValidation ? { ...rest, [REGISTERED_CHANNEL_TYPE]: true } : rest;
}

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true, // forms show every field's problem at once; bodies are capped at 1 MiB
    verbose: true, // errors carry parentSchema, where x-errorCode lives
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: true,
    keywords: [...annotationKeywords],
  });
  addFormats.default(ajv);
  for (const [name, validate] of Object.entries(customFormats)) ajv.addFormat(name, { type: 'string', validate });
  ajv.addKeyword({
    keyword: REGISTERED_CHANNEL_TYPE,
    type: 'string',
    schemaType: 'boolean',
    error: { message: () => `must be a channel type: ${channelDefinitions().map((d) => d.platform).join(', ')}` },
    validate: (_: boolean, data: string) => channelDefinition(data) !== undefined,
  });
  for (const schema of entitySchemas) ajv.addSchema(boundIntegers(servedSchema(schema as object, true)));
  return ajv;
}

let instances: { body: Ajv; coercing: Ajv } | null = null;
function ajvFor(httpPart: string | undefined): Ajv {
  instances ??= { body: makeAjv(false), coercing: makeAjv(true) };
  return httpPart === 'body' ? instances.body : instances.coercing;
}

const UNSTORABLE_MESSAGE = {
  nul: 'contains the NUL character (\\u0000)',
  loneSurrogate: 'contains a lone UTF-16 surrogate, which is not text',
  control: 'is a name: one line, without control characters',
  bidi: 'is a name: without bidirectional overrides or isolates (U+202A–U+202E, U+2066–U+2069)',
} as const;

/**
 * Fastify validatorCompiler: called once per route and request part; the schema is compiled on
 * the first request (http/lazy-compile.ts). Every part of every operation first refuses strings
 * the database cannot store (NUL, lone surrogates; see core/storable-text.ts) as 99931 naming the
 * field, then runs the declared schema.
 */
export function compileValidator({ schema, httpPart }: { schema: object; httpPart?: string }): ValidateFunction {
  const { compiled } = compiledOnFirstUse(() => ajvFor(httpPart).compile(boundIntegers(schema)));
  const guarded = ((data: unknown) => {
    const bad = findUnstorableString(data);
    if (bad) {
      const error: ErrorObject = {
        keyword: 'storable',
        instancePath: bad.path.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
        schemaPath: '#',
        params: { reason: bad.reason },
        message: UNSTORABLE_MESSAGE[bad.reason],
      };
      guarded.errors = [error];
      return false;
    }
    const validate = compiled();
    const ok = validate(data);
    guarded.errors = validate.errors;
    return ok;
  }) as ValidateFunction;
  guarded.schema = schema;
  return guarded;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') path.push(String(error.params.missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty));
  return path.join('.');
}

/** Fastify validates headers under their lowercase names; the answer names them as declared ("Idempotency-Key"). */
function headerName(field: string): string {
  return field.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/**
 * The catalogue code of one Ajv error: the failing property's own x-errorCode (e.g. 99947 on a
 * corporate e-mail, 99938 on the password policy, 99934 on acceptTerms), else 99999 for a
 * missing required field (or a missing body), else 99931 (invalid field).
 */
function codeOf(error: ErrorObject): ErrorCode {
  if (error.keyword === 'required') return '99999';
  if (error.keyword === 'type' && error.instancePath === '' && (error.data === undefined || error.data === null)) return '99999';
  const declared = (error.parentSchema as Record<string, unknown> | undefined)?.['x-errorCode'];
  if (isErrorCode(declared)) return declared;
  return '99931';
}

/** Turns Fastify's validation failure into the catalogue answer; the first error decides the code. */
export function validationError(errors: ErrorObject[], part: string | undefined): ApiError {
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  for (const e of errors) {
    // anyOf branches repeat the same field several times; the first reason is the useful one.
    const field = part === 'headers' ? headerName(fieldOf(e)) : fieldOf(e) || (part === 'body' ? '' : String(part ?? ''));
    if (seen.has(field)) continue;
    seen.add(field);
    const code = codeOf(e);
    fields.push({ field, code, message: e.keyword === 'required' ? messageFor(code) : `${messageFor(code)} (${e.message ?? 'invalid'})` });
  }
  const first = fields[0] ?? { code: '99931', field: '', message: messageFor('99931') };
  return new ApiError(first.code as ErrorCode, messageFor(first.code), fields);
}
