// src/core/email.ts: syntax, corporate-only (public domains refused, spec 5), normalisation.
import { describe, expect, it } from 'vitest';
import { emailDomain, isCorporateEmail, isEmail, normalizeEmail } from '../../src/core/email.ts';

describe('isEmail', () => {
  it.each([
    ['ana@empresa.co', true],
    ['ana.perez+campañas@sub.empresa.com.co', true],
    ['ANA@EMPRESA.CO', true],
    ['ana@empresa', false],
    ['ana@@empresa.co', false],
    ['ana empresa@empresa.co', false],
    ['<script>@empresa.co', false],
    ["ana'--@empresa.co", false],
    ['ana@-empresa.co', false],
    ['ana@empresa-.co', false],
    ['', false],
    [`${'a'.repeat(250)}@e.co`, false],
  ])('%s -> %s', (given, want) => {
    expect(isEmail(given)).toBe(want);
  });
});

describe('isCorporateEmail', () => {
  it.each([
    ['ana@empresa.co', true],
    ['ana@gmail.com', false],
    ['ana@GMAIL.COM', false],
    ['ana@hotmail.es', false],
    ['ana@mail.yahoo.com', false], // a subdomain of a public provider
    ['ana@gmail.com.co', true], // a different domain
    ['ana@outlook.es', false],
    ['not-an-email', false],
  ])('%s -> %s', (given, want) => {
    expect(isCorporateEmail(given)).toBe(want);
  });

  it('takes the list of public domains as a parameter', () => {
    expect(isCorporateEmail('ana@empresa.co', ['empresa.co'])).toBe(false);
    expect(isCorporateEmail('ana@gmail.com', [])).toBe(true);
  });
});

describe('emailDomain and normalizeEmail', () => {
  it.each([
    ['Ana@Empresa.CO', 'empresa.co'],
    ['"a@b"@empresa.co', 'empresa.co'],
  ])('emailDomain(%s) = %s', (given, want) => {
    expect(emailDomain(given)).toBe(want);
  });

  it.each([
    ['  Ana.Perez@Empresa.CO ', 'ana.perez@empresa.co'],
    ['ana@empresa.co', 'ana@empresa.co'],
  ])('normalizeEmail(%j) = %s', (given, want) => {
    expect(normalizeEmail(given)).toBe(want);
  });
});
