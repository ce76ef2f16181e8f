// The plain form (the sign-in first load) draws the sign-in family without rjsf and Ajv:
// which declared forms it takes, and that its checks say exactly what the schema form's validator
// (schema-validator.ts, Ajv's meaning: tests/console/schema-validator.test.tsx) says for the same
// values, in the same words.
import { describe, expect, it } from 'vitest';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { i18n } from '../../src/console/app/i18n.ts';
import { plainErrorsFor, plainFieldOrder, plainFormFits, plainValidate } from '../../src/console/runtime/form/plain-form.ts';
import { errorsFor, validator } from '../../src/console/runtime/form/validation.ts';
import { screens } from '../../src/generated/screens.gen.ts';

type Screen = { id: string; kind: string; schema?: RJSFSchema; uiSchema?: UiSchema };
const all = Object.values(screens as unknown as Record<string, Screen>).filter((s) => s.kind === 'form' && s.schema);
const plain = all.filter((s) => plainFormFits(s.schema!, s.uiSchema));

const samples: Record<string, unknown>[] = [
  {},
  { email: 'superadmin@demo.colibri.co', password: 'x' },
  { email: 'no-es-un-correo', password: '' },
  { email: 'a@b', password: 'x'.repeat(300), captchaToken: 'sandbox-ok' },
  { email: `${'a'.repeat(250)}@b.co`, password: '😀'.repeat(256) },
  { email: 'ana@tiendas.com.co', code: '12', captchaToken: 'y'.repeat(3000) },
  { email: 'ana@gmail.com', password: 'Andinas#2026', code: '123456' },
  { name: '' },
  { name: 'Clave <script>' },
  { name: 'ñ'.repeat(81) },
  { name: 'Integración ERP' },
];

const shape = (errors: { name?: string; property?: string }[]) => errors.map((e) => `${e.property}:${e.name}`).sort();

describe('the plain form', () => {
  it('takes the sign-in family and leaves every other form to the schema form', () => {
    const ids = plain.map((s) => s.id);
    // One-line texts only: the two sign-ins, the e-mail code and an API key's name. Every other
    // form (pickers, lists, dates, phones, cross-field rules, modes) keeps the schema form.
    expect(ids.sort()).toEqual(['clientSignin', 'credentialForm', 'signin', 'userValidation']);
    expect(plainFormFits({ type: 'object', properties: { a: { type: 'string', enum: ['x'] } } })).toBe(false);
    expect(plainFormFits({ type: 'object', properties: { a: { type: 'string', format: 'date' } } })).toBe(false);
    expect(plainFormFits({ type: 'object', properties: { a: { type: 'string', 'x-sameAs': 'b' } as RJSFSchema, b: { type: 'string' } } })).toBe(false);
    expect(plainFormFits({ type: 'object', properties: { a: { type: 'string' } } }, { a: { 'ui:widget': 'textarea' } })).toBe(false);
  });

  it.each(plain.map((s) => [s.id, s] as const))('%s: finds the errors the schema form finds', (_id, s) => {
    for (const sample of samples) {
      const data = Object.fromEntries(Object.entries(sample).filter(([k]) => k in (s.schema!.properties ?? {})));
      const schemaForm = validator.rawValidation(s.schema!, data);
      const schemaFormErrors = (schemaForm.errors ?? []).map((e) => ({ name: e.keyword, property: e.keyword === 'required' ? `.${(e.params as { missingProperty: string }).missingProperty}` : e.instancePath.replace(/^\//, '.') }));
      expect(shape(plainValidate(s.schema!, data)), JSON.stringify(data)).toEqual(shape(schemaFormErrors));
    }
  });

  it.each(plain.map((s) => [s.id, s] as const))('%s: words them as the schema form does', (_id, s) => {
    const t = i18n.getFixedT('es');
    for (const sample of samples) {
      const data = Object.fromEntries(Object.entries(sample).filter(([k]) => k in (s.schema!.properties ?? {})));
      const fields = Object.keys(s.schema!.properties ?? {});
      expect(plainErrorsFor(s.schema!, data, t, fields), JSON.stringify(data)).toEqual(errorsFor(fields, data, s.schema!, t));
    }
  });

  it('orders the fields by ui:order, * standing for the rest', () => {
    const schema: RJSFSchema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' } } };
    expect(plainFieldOrder(schema, { 'ui:order': ['c', '*'] })).toEqual(['c', 'a', 'b']);
    expect(plainFieldOrder(schema, { 'ui:order': ['*', 'a'] })).toEqual(['b', 'c', 'a']);
    expect(plainFieldOrder(schema)).toEqual(['a', 'b', 'c']);
  });
});
