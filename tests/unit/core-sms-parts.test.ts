// src/core/sms-parts.ts against research/protocols.md §0.1, §1.2 and §1.5: part counts, the
// GSM-7/UCS-2 choice, pairs never split across parts, and the SMPP encoding with its UDH.
import { describe, expect, it } from 'vitest';
import {
  countSms, decodeGsm7, decodeUcs2, encodeGsm7, encodeSms, encodeUcs2, nonGsmCharacters, splitSms, transliterateForGsm,
} from '../../src/core/sms-parts.ts';

const EMOJI = '😀'; // two UTF-16 units (a surrogate pair)

describe('countSms: the research §0.1 examples', () => {
  it.each([
    ['160 × a', 'a'.repeat(160), 'GSM-7', 1],
    ['161 × a', 'a'.repeat(161), 'GSM-7', 2],
    ['306 × a', 'a'.repeat(306), 'GSM-7', 2],
    ['307 × a', 'a'.repeat(307), 'GSM-7', 3],
    ['80 × €', '€'.repeat(80), 'GSM-7', 1], // 160 septets
    ['81 × €', '€'.repeat(81), 'GSM-7', 2], // 162 septets
    ['70 × á', 'á'.repeat(70), 'UCS-2', 1],
    ['71 × á', 'á'.repeat(71), 'UCS-2', 2],
    ['134 × á', 'á'.repeat(134), 'UCS-2', 2],
    ['135 × á', 'á'.repeat(135), 'UCS-2', 3],
    ['35 emoji', EMOJI.repeat(35), 'UCS-2', 1], // 70 units
    ['36 emoji', EMOJI.repeat(36), 'UCS-2', 2],
    ['empty', '', 'GSM-7', 0],
  ])('%s → %s, %i part(s)', (_label, text, encoding, parts) => {
    const count = countSms(text);
    expect(count.encoding).toBe(encoding);
    expect(count.parts).toBe(parts);
    expect(splitSms(text).parts).toHaveLength(parts);
  });

  it.each([
    ['a'.repeat(150), 150, 10], // single: 160 − 150
    ['a'.repeat(161), 161, 145], // second part of 153 holds 8
    ['€'.repeat(3), 6, 154],
    ['á'.repeat(10), 10, 60],
    ['', 0, 160],
  ])('units and remaining of %j', (text, units, remaining) => {
    const count = countSms(text);
    expect([count.units, count.remaining]).toEqual([units, remaining]);
  });
});

describe('GSM-7 or UCS-2', () => {
  it.each([
    ['é', 'GSM-7'], ['ñ', 'GSM-7'], ['Ñ', 'GSM-7'], ['ü', 'GSM-7'], ['à', 'GSM-7'], ['¿', 'GSM-7'], ['¡', 'GSM-7'], ['É', 'GSM-7'], ['Ç', 'GSM-7'],
    ['^{}\\[~]|€\f', 'GSM-7'],
    ['á', 'UCS-2'], ['í', 'UCS-2'], ['ó', 'UCS-2'], ['ú', 'UCS-2'], ['Á', 'UCS-2'], ['ç', 'UCS-2'], ['`', 'UCS-2'], ['’', 'UCS-2'], ['–', 'UCS-2'], [EMOJI, 'UCS-2'],
  ])('%j → %s', (ch, encoding) => {
    expect(countSms(`Señor, ¿qué tal? ${ch}`).encoding).toBe(encoding);
  });

  it('lists the characters that force UCS-2, once each, in order', () => {
    expect(nonGsmCharacters('Canción ñandú á ó')).toEqual(['ó', 'ú', 'á']);
    expect(nonGsmCharacters('Señor, ¿qué tal?')).toEqual([]);
  });

  it('transliteration removes the pasted typography that forces UCS-2', () => {
    const pasted = '“Hola” – it’s…';
    expect(countSms(pasted).encoding).toBe('UCS-2');
    expect(transliterateForGsm(pasted)).toBe('"Hola" - it\'s...');
    expect(countSms(transliterateForGsm(pasted)).encoding).toBe('GSM-7');
  });
});

describe('pairs are never split across parts', () => {
  it.each([
    // 152 a then € (2 septets): the pair would straddle septets 153–154 of part 1.
    ['escape pair at the GSM-7 boundary', 'a'.repeat(152) + '€' + 'b'.repeat(20), ['a'.repeat(152), '€' + 'b'.repeat(20)]],
    // 153 septets exactly fill part 1 with the pair at 152–153.
    ['escape pair ending exactly at the boundary', 'a'.repeat(151) + '€' + 'b'.repeat(20), ['a'.repeat(151) + '€', 'b'.repeat(20)]],
    // 66 units of á, then a surrogate pair that would straddle units 67–68.
    ['surrogate pair at the UCS-2 boundary', 'á'.repeat(66) + EMOJI + 'é'.repeat(10), ['á'.repeat(66), EMOJI + 'é'.repeat(10)]],
    ['surrogate pair ending exactly at the boundary', 'á'.repeat(65) + EMOJI + 'é'.repeat(10), ['á'.repeat(65) + EMOJI, 'é'.repeat(10)]],
  ])('%s', (_label, text, want) => {
    const { parts } = splitSms(text);
    expect(parts).toEqual(want);
    expect(parts.join('')).toBe(text);
  });

  it('every part of a long mixed text fits its capacity and no part begins with half a pair', () => {
    const text = ('Oferta {especial} 😀 ' + 'ñ€'.repeat(7) + ' á ').repeat(12);
    const { encoding, parts } = splitSms(text);
    expect(encoding).toBe('UCS-2');
    expect(parts.join('')).toBe(text);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(67);
      expect(/^[\uDC00-\uDFFF]/.test(part)).toBe(false);
      expect(/[\uD800-\uDBFF]$/.test(part)).toBe(false);
    }
  });
});

describe('encodeSms', () => {
  it('a single GSM-7 SMS: data_coding 0, no UDH, one septet per octet', () => {
    const [segment, ...rest] = encodeSms('Hola ñ €', 7);
    expect(rest).toEqual([]);
    expect(segment.dataCoding).toBe(0);
    expect(segment.udh).toBeNull();
    // H o l a space ñ(0x7D) space ESC e(0x65)
    expect([...segment.payload]).toEqual([0x48, 0x6f, 0x6c, 0x61, 0x20, 0x7d, 0x20, 0x1b, 0x65]);
  });

  it('a single UCS-2 SMS: data_coding 8, UTF-16 big-endian', () => {
    const [segment] = encodeSms('Sí 😀', 7);
    expect(segment.dataCoding).toBe(8);
    expect(segment.udh).toBeNull();
    expect([...segment.payload]).toEqual([0x00, 0x53, 0x00, 0xed, 0x00, 0x20, 0xd8, 0x3d, 0xde, 0x00]);
  });

  it.each([
    ['GSM-7', 'a'.repeat(152) + '€' + 'b'.repeat(300), 0, 153],
    ['UCS-2', 'á'.repeat(66) + EMOJI + 'é'.repeat(150), 8, 134],
  ])('a long %s SMS: UDH 05 00 03 ref total seq, payloads within the part size', (_label, text, dataCoding, maxOctets) => {
    const reference = 300; // only the low byte travels
    const segments = encodeSms(text, reference);
    expect(segments.length).toBe(countSms(text).parts);
    segments.forEach((s, i) => {
      expect(s.dataCoding).toBe(dataCoding);
      expect([...s.udh!]).toEqual([0x05, 0x00, 0x03, 300 & 0xff, segments.length, i + 1]);
      expect(s.payload.length).toBeLessThanOrEqual(maxOctets);
    });
    const decode = dataCoding === 0 ? decodeGsm7 : decodeUcs2;
    expect(segments.map((s) => decode(s.payload)).join('')).toBe(text);
  });

  it('the first GSM-7 part is exactly 153 octets when full, and never ends on a bare escape', () => {
    const segments = encodeSms('a'.repeat(152) + '€' + 'b'.repeat(10), 1); // 164 septets: two parts
    expect(segments[0].payload.length).toBe(152);
    expect(segments[0].payload.at(-1)).not.toBe(0x1b);
    expect([...segments[1].payload.slice(0, 2)]).toEqual([0x1b, 0x65]);
    expect(encodeSms('a'.repeat(400), 1)[0].payload.length).toBe(153);
  });
});

describe('decode(encode(x)) === x', () => {
  it.each([
    'Hola Señor, ¿qué tal? ¡Oferta! @£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!"#¤%&\'()*+,-./:;<=>?§äöñüà\n\r',
    'Extension: ^ { } \\ [ ~ ] | € \f',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789ÄÖÑÜ',
  ])('GSM-7 %j', (text) => {
    expect(nonGsmCharacters(text)).toEqual([]);
    expect(decodeGsm7(encodeGsm7(text))).toBe(text);
  });

  it.each(['Canción número 1 😀 ✓ 中文', 'áéíóú ÁÉÍÓÚ ç', EMOJI.repeat(40)])('UCS-2 %j', (text) => {
    expect(decodeUcs2(encodeUcs2(text))).toBe(text);
  });

  it('encodeGsm7 refuses a character outside GSM 03.38', () => {
    expect(() => encodeGsm7('á')).toThrow(RangeError);
  });

  it('a raw U+001B is not GSM-7: alone it would turn the next character into an extension one', () => {
    const text = 'a\u001be';
    expect(nonGsmCharacters(text)).toEqual(['\u001b']);
    expect(countSms(text).encoding).toBe('UCS-2');
    expect(() => encodeGsm7(text)).toThrow(RangeError);
    const [segment] = encodeSms(text, 1);
    expect(segment.dataCoding).toBe(8);
    expect(decodeUcs2(segment.payload)).toBe(text);
  });
});
