// src/core/nit.ts: the DIAN verification digit of a Colombian NIT, checked against public NITs.
import { describe, expect, it } from 'vitest';
import { isValidNit, nitBase, nitCheckDigit } from '../../src/core/nit.ts';

describe('nitCheckDigit', () => {
  it.each([
    ['890903938', 8], // Bancolombia
    ['899999068', 1], // Ecopetrol
    ['800197268', 4], // DIAN
    ['860034313', 7], // Davivienda
    ['900123456', 8],
    ['1', 8], // r = 3 -> 11 - 3
    ['0', 0], // r = 0 -> 0
  ])('%s -> %s', (base, want) => {
    expect(nitCheckDigit(base)).toBe(want);
  });

  it.each([[''], ['12a4'], ['1234567890123456'], ['-1']])('refuses %j', (base) => {
    expect(nitCheckDigit(base)).toBeNull();
  });
});

describe('isValidNit', () => {
  it.each([
    ['890903938-8', true],
    ['900123456-8', true],
    ['900123456-7', false], // wrong digit
    ['9001234568', false], // the dash is required: without it the digit cannot be told apart
    ['900.123.456-8', false],
    ['12345-6', false], // fewer than 6 digits
    ['900123456-', false],
    [' 900123456-8', false],
    ["900123456-8'; --", false],
  ])('%s -> %s', (given, want) => {
    expect(isValidNit(given)).toBe(want);
  });
});

describe('nitBase', () => {
  it.each([['900.123.456-8', '900123456'], ['900123456', '900123456'], ['900 123 456-8', '900123456']])('nitBase(%j) = %j', (nit, want) => expect(nitBase(nit)).toBe(want));
});
