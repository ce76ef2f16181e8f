// The schema forms' validator interprets schemas (no eval: the console's CSP has no 'unsafe-eval') and must find what rjsf's Ajv validator finds. For every schema a declared screen
// renders (forms, wizards' steps, report filters), values ordinary and hostile — wrong types,
// empty and 10,000-character strings, NUL, lone surrogates, emoji, HTML, huge numbers, duplicate
// list items, unknown properties — go to both, and the errors (where, which keyword, its
// parameters) must be the same. Then the rjsf half: errors land on the right field, custom rules
// run, `$ref`s resolve for option matching.
import { describe, expect, it } from 'vitest';
import type { FormValidation, RJSFSchema } from '@rjsf/utils';
import { customizeValidator } from '@rjsf/validator-ajv8';
import { customFormats } from '../../src/core/formats.ts';
import { InterpretingValidator, type AjvShapedError } from '../../src/console/runtime/form/schema-validator.ts';
import { screens } from '../../src/generated/screens.gen.ts';

type Prop = Record<string, unknown>;
const ajv = customizeValidator({ customFormats });
const ours = new InterpretingValidator();

/** Every JSON schema of an object a screen declares (nested ones too: a wizard's steps). */
function declaredSchemas(): [string, RJSFSchema][] {
  const out: [string, RJSFSchema][] = [];
  const walk = (node: unknown, where: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node as Prop)) {
      if (k === 'schema' && v && typeof v === 'object' && (v as Prop).properties) out.push([`${where}#${out.length}`, v as RJSFSchema]);
      else walk(v, where);
    }
  };
  for (const [id, screen] of Object.entries(screens as unknown as Record<string, unknown>)) walk(screen, id);
  return out;
}

const STRINGS: unknown[] = ['', 'a', 'Integración ERP', 'ñ'.repeat(81), '😀'.repeat(40), 'x'.repeat(10_000), '<script>alert(1)</script>', "'; DROP TABLE users;--",
  'A\u0000B', 'x\ud800y', ' ', 'ana@tiendas.com.co', 'no-es-correo', '2026-11-27', '2026-02-30', '27/11/2026', '2026-11-27T10:00:00Z', '10:30', '3001234567', '+573001234567',
  '6011234567', 'https://colibri.co/a?b=1', 'javascript:alert(1)', '900123456-7', '900123456', '192.168.0.0/24', '#12ab34', 'Andinas#2026', 'PROMO', 'SALIR', 'a'.repeat(161), 12, null, true, ['a'], { a: 1 }];
const NUMBERS: unknown[] = [0, -1, 1, 1.5, 5, 59, 60, 1e21, Number.MAX_SAFE_INTEGER + 2, -1e21, '5', null, true, [], 2_147_483_648];
const BOOLEANS: unknown[] = [true, false, 'true', 0, null];

/** Values for one property: the hostile ones of its type, its declared choices, and wrong types. */
function valuesFor(p: Prop): unknown[] {
  const choices = Array.isArray(p.enum) ? p.enum : p.const !== undefined ? [p.const] : [];
  switch (p.type) {
    case 'string':
      return [...choices, ...STRINGS];
    case 'integer':
    case 'number':
      return [...NUMBERS, ...choices];
    case 'boolean':
      return BOOLEANS;
    case 'array': {
      const items = (p.items ?? {}) as Prop;
      const one = valuesFor(items);
      return [[], one.slice(0, 1), [one[0], one[0]], one.slice(0, 3), one.slice(0, 40), Array.from({ length: 300 }, (_, i) => one[i % one.length]), 'a', null, [null], [{}]];
    }
    case 'object':
      return [{}, { x: 1 }, null, 'a', []];
    default:
      return [...choices, ...STRINGS.slice(0, 5), ...NUMBERS.slice(0, 3)];
  }
}

/** The samples of a schema: each property takes its i-th value; some leave properties out. */
function samplesFor(schema: RJSFSchema): Record<string, unknown>[] {
  const props = Object.entries((schema.properties ?? {}) as Record<string, Prop>).map(([name, p]) => [name, valuesFor(p)] as const);
  const longest = Math.max(1, ...props.map(([, v]) => v.length));
  const samples: Record<string, unknown>[] = [{}, { unknownField: 'x' }];
  for (let i = 0; i < longest; i++) {
    const sample: Record<string, unknown> = {};
    props.forEach(([name, values], j) => {
      if ((i + j) % 7 !== 3) sample[name] = values[(i + j) % values.length];
    });
    samples.push(sample);
  }
  return samples;
}

/** An error as compared: where, which keyword, with which parameters. */
const key = (e: AjvShapedError) => {
  const params = e.keyword === 'type' || e.keyword === 'enum' || e.keyword === 'uniqueItems' || e.keyword === 'const' ? '' : JSON.stringify(e.params);
  return `${e.instancePath}|${e.keyword}|${params}`;
};
const errorsOf = (v: { rawValidation: (s: RJSFSchema, d: unknown) => { errors?: unknown[] } }, schema: RJSFSchema, data: unknown) =>
  ((v.rawValidation(schema, data).errors ?? []) as AjvShapedError[]).map(key).sort();

describe('the schema forms validator (no eval)', () => {
  const schemas = declaredSchemas();

  it('sees the declared forms', () => {
    // Forms, wizards' steps and report filters: about sixty; a drop would mean the walk broke.
    expect(schemas.length).toBeGreaterThan(50);
  });

  it.each(schemas)('%s: finds what Ajv finds', (_id, schema) => {
    for (const data of samplesFor(schema)) {
      expect(errorsOf(ours, schema, data), JSON.stringify(data).slice(0, 400)).toEqual(errorsOf(ajv, schema, data));
    }
  });

  it('gives rjsf its errors on the right fields, with the custom rules after', () => {
    const schema: RJSFSchema = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2 }, tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } }, mail: { type: 'string', format: 'email' } } };
    const { errors, errorSchema } = ours.validateFormData({ tags: ['c'], mail: 'x' }, schema, (data, handler) => {
      if (!(data as { mail?: string }).mail?.includes('@')) (handler as unknown as Record<string, FormValidation>).mail?.addError('own rule');
      return handler;
    });
    expect(errors.map((e) => `${e.property}:${e.name ?? 'custom'}`).sort()).toEqual(['.mail:custom', '.mail:format', '.name:required', '.tags.0:enum']);
    expect(errorSchema).toMatchObject({ name: { __errors: [expect.any(String)] }, mail: { __errors: [expect.any(String), 'own rule'] }, tags: { 0: { __errors: [expect.any(String)] } } });
    expect(ours.validateFormData({ name: 'Ana', mail: 'ana@tiendas.co' }, schema).errors).toEqual([]);
  });

  it('resolves $ref into the root schema when rjsf matches options', () => {
    const root: RJSFSchema = { definitions: { code: { type: 'string', pattern: '^[0-9]{6}$' } }, type: 'object', properties: { code: { $ref: '#/definitions/code' } } };
    expect(ours.isValid({ $ref: '#/definitions/code' }, '123456', root)).toBe(true);
    expect(ours.isValid({ $ref: '#/definitions/code' }, '12345', root)).toBe(false);
    expect(errorsOf(ours, root, { code: 'x' })).toEqual(errorsOf(ajv, root, { code: 'x' }));
  });

  it('runs without eval: the engine never compiles code', () => {
    const original = globalThis.Function;
    const refused = new Proxy(original, { construct: () => { throw new EvalError('eval refused by the CSP'); }, apply: () => { throw new EvalError('eval refused by the CSP'); } });
    globalThis.Function = refused;
    try {
      const fresh = new InterpretingValidator();
      const schema: RJSFSchema = { type: 'object', properties: { n: { type: 'integer', minimum: 2 }, at: { type: 'string', format: 'date' } } };
      expect(errorsOf(fresh, schema, { n: 1, at: 'x' })).toEqual(['/at|format|{"format":"date"}', '/n|minimum|{"comparison":">=","limit":2}']);
      // The trap works: Ajv, which compiles, is refused by it.
      expect(ajv.rawValidation({ type: 'object', properties: { fresh: { type: 'string', maxLength: 3 } } }, { fresh: 'abcd' }).validationError).toBeInstanceOf(EvalError);
    } finally {
      globalThis.Function = original;
    }
  });
});
