// A signature field's /Contents holds the CMS (DER) and then zero padding: the CMS is cut at the
// length its own header states. Trimming zeros from the end instead also cut a CMS whose last byte
// is 0x00 (about one signature in 256), and such a genuine certificate read as altered.
import { describe, expect, it } from 'vitest';
import { signatureDer } from '../../src/server/signing/pdf-verification.ts';

const hex = (bytes: number[]) => Buffer.from(bytes).toString('hex');

describe('a signature field\'s contents', () => {
  it('keeps a CMS whose last byte is zero, and drops only the padding', () => {
    const der = [0x30, 0x03, 0x02, 0x01, 0x00];
    expect(signatureDer(hex(der) + '0'.repeat(40))).toEqual(Buffer.from(der));
    expect(signatureDer(hex(der))).toEqual(Buffer.from(der));
  });

  it('reads long-form lengths', () => {
    const body = Array.from({ length: 300 }, (_, i) => (i === 299 ? 0 : (i % 250) + 1));
    const der = [0x30, 0x82, 0x01, 0x2c, ...body];
    expect(signatureDer(hex(der) + '0000')).toEqual(Buffer.from(der));
  });

  it.each([
    ['bytes after the CMS that are not padding', hex([0x30, 0x01, 0x05]) + '0001'],
    ['a CMS longer than the field', hex([0x30, 0x05, 0x01])],
    ['not a SEQUENCE', hex([0x31, 0x01, 0x00])],
    ['an indefinite length', hex([0x30, 0x80, 0x00, 0x00])],
    ['odd hex', '3001000'],
    ['not hex', '30zz'],
    ['nothing', ''],
  ])('is nothing for %s', (_, text) => expect(signatureDer(text)).toBeNull());
});
