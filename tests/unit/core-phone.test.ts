// src/core/phone.ts: Colombian numbers (10 digits; mobiles 3…, fixed lines 60X…), E.164, masks.
import { describe, expect, it } from 'vitest';
import { addressFor, isColombianMobile, isColombianPhone, maskDestination, normalizeColombianPhone } from '../../src/core/phone.ts';

describe('normalizeColombianPhone', () => {
  it.each([
    ['3001234567', '+573001234567'],
    ['300 123 4567', '+573001234567'],
    ['(300) 123-4567', '+573001234567'],
    ['300.123.4567', '+573001234567'],
    ['+57 300 123 4567', '+573001234567'],
    ['57-300-123-4567', '+573001234567'],
    ['6012345678', '+576012345678'],
    ['+57 604 444 5555', '+576044445555'],
    ['6092345678', null], // 609 is not an area indicative
    ['2001234567', null],
    ['300123456', null], // 9 digits
    ['30012345678', null], // 11 digits
    ['+1 202 555 0100', null],
    ['0057 300 123 4567', null],
    ['300-ABC-4567', null],
    ['', null],
    ["300'; DROP TABLE users;--", null],
    // Signed numbers (a spreadsheet's negative number): the separators must not hide the sign.
    ['-3001234567', null],
    ['+-3001234567', null],
    [' −300 123 4567', null],
    ['-57 300 123 4567', null],
  ])('%s -> %s', (given, want) => {
    expect(normalizeColombianPhone(given)).toBe(want);
    expect(isColombianPhone(given)).toBe(want !== null);
  });
});

describe('isColombianMobile', () => {
  it.each([
    ['3001234567', true],
    ['+573101234567', true],
    ['6012345678', false],
    ['12345', false],
  ])('%s -> %s', (given, want) => {
    expect(isColombianMobile(given)).toBe(want);
  });
});

describe('maskDestination', () => {
  it.each([
    ['+573105550000', '+57310***0000'],
    ['juan.perez@empresa.co', 'j***@empresa.co'],
    ['1234567', '***'],
  ])('%s -> %s', (given, want) => {
    expect(maskDestination(given)).toBe(want);
  });
});

// What a channel type reaches: SMS and RCS only mobiles, WhatsApp any phone, Messenger a PSID.
describe('addressFor', () => {
  it.each([
    ['mobile', '300 123 4567', '+573001234567'],
    ['mobile', '6012345678', null],
    ['mobile', '+57 601 234 5678', null],
    ['mobile', '-3001234567', null],
    ['phone', '6012345678', '+576012345678'],
    ['phone', '-6012345678', null],
    ['psid', '1234567890123', '1234567890123'],
    ['psid', '+573001234567', null],
  ] as const)('%s %s -> %s', (reach, given, want) => {
    expect(addressFor(reach, given)).toBe(want);
  });
});
