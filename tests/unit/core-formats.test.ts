// src/core/formats.ts: the custom formats shared by the server's Ajv and the console's rjsf.
import { describe, expect, it } from 'vitest';
import { customFormats } from '../../src/core/formats.ts';

describe('customFormats', () => {
  it('declares exactly the formats the schemas use', () => {
    expect(Object.keys(customFormats).sort()).toEqual(['cidr', 'corporate-email', 'nit-co', 'password-policy', 'phone-co']);
  });

  it.each([
    ['corporate-email', 'ana@empresa.co', true],
    ['corporate-email', 'ana@gmail.com', false],
    ['password-policy', 'Segura#2025', true],
    ['password-policy', 'segura', false],
    ['phone-co', '300 123 4567', true],
    ['phone-co', '123', false],
    ['cidr', '2001:db8::/32', true],
    ['cidr', '10.0.0.1/8', false],
    ['nit-co', '900123456-8', true],
    ['nit-co', '900123456-7', false],
  ] as const)('%s(%s) -> %s', (format, value, want) => {
    expect(customFormats[format](value)).toBe(want);
  });
});
