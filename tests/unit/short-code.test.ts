// src/core/short-code.ts: codes within the SMS's GSM-7 basic alphabet, uniform and random; target
// URLs only http(s), bounded, without credentials, and international host names checked for
// look-alikes (research/protocols.md §0 item 10, §7).
import { describe, expect, it } from 'vitest';
import { countSms } from '../../src/core/sms-parts.ts';
import {
  CODE_ALPHABET, CODE_LENGTH, URL_MAX, checkTargetUrl, isShortCode, isValidAlias, punycodeDecode, randomCode, shortUrlOf,
} from '../../src/core/short-code.ts';

describe('randomCode', () => {
  it('draws CODE_LENGTH characters of [0-9A-Za-z], all GSM-7 basic', () => {
    for (let i = 0; i < 200; i++) {
      const code = randomCode();
      expect(code).toMatch(/^[0-9A-Za-z]{7}$/);
      expect(countSms(code).encoding).toBe('GSM-7');
      expect(countSms(code).units).toBe(CODE_LENGTH);
    }
    expect(CODE_ALPHABET).toHaveLength(62);
  });

  it('is uniform: bytes 248..255 are dropped instead of favouring the first characters', () => {
    // A source that yields every byte value in turn: each character appears exactly 4 times per 248.
    let next = 0;
    const cycling = (n: number) => Uint8Array.from({ length: n }, () => next++ % 256);
    const counts = new Map<string, number>();
    for (const ch of randomCode(248 * 10, cycling)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    expect(new Set(counts.values())).toEqual(new Set([40]));
  });

  it('hardly repeats in 100,000 draws (not a sequence, not a small space)', () => {
    // 62^7 codes: 100,000 draws share a code about once in 700 runs (the birthday bound), so
    // exactly 100,000 distinct would fail by chance (CI saw 99,999). Three or more repeats
    // (p < 1e-9) would mean a small space or a sequence: 62^5 codes would give about 5, 62^4 about 340.
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(randomCode());
    expect(seen.size).toBeGreaterThanOrEqual(99_998);
  });

  it('fits the 24 characters the SMS counter assumes with a short domain', () => {
    expect(shortUrlOf('https://clb.co/', 'Ab3dE5f')).toBe('https://clb.co/Ab3dE5f');
    expect(shortUrlOf('https://clb.co', 'Ab3dE5f').length).toBeLessThanOrEqual(24);
  });
});

describe('codes and aliases', () => {
  it.each([
    ['Ab3dE5f', true], ['abc', true], ['ab', false], ['a'.repeat(17), false], ['promo-1', false], ['promo_1', false],
    ['año', false], ['promo~', false], ['../etc', false], ['', false],
  ])('isShortCode(%j) = %s', (code, want) => expect(isShortCode(code)).toBe(want));

  it.each([['Promo2025', true], ['ab', false], ['x'.repeat(16), true], ['x'.repeat(17), false], ['con espacio', false], ['ñandú', false], ['a{b}', false]])(
    'isValidAlias(%j) = %s', (alias, want) => expect(isValidAlias(alias)).toBe(want),
  );
});

describe('checkTargetUrl', () => {
  it.each([
    ['https://tienda.example.com/promo?utm=sms#top', 'https://tienda.example.com/promo?utm=sms#top'],
    ['  http://EJEMPLO.com.co  ', 'http://ejemplo.com.co/'],
    ['https://192.168.0.10:8443/a', 'https://192.168.0.10:8443/a'],
    ['https://münchen.de/', 'https://xn--mnchen-3ya.de/'],
    ['https://xn--mnchen-3ya.de/x', 'https://xn--mnchen-3ya.de/x'],
    ['https://日本語.jp/', 'https://xn--wgv71a119e.jp/'],
  ])('accepts %j', (raw, want) => {
    const check = checkTargetUrl(raw);
    expect(check).toMatchObject({ ok: true, url: want });
  });

  it('shows an international host in Unicode and stores its punycode', () => {
    expect(checkTargetUrl('https://münchen.de/')).toMatchObject({ host: 'xn--mnchen-3ya.de', displayHost: 'münchen.de' });
  });

  it.each([
    ['', 'empty'],
    ['javascript:alert(1)', 'scheme'],
    ['JavaScript:alert(document.cookie)', 'scheme'],
    ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'scheme'],
    ['vbscript:msgbox(1)', 'scheme'],
    ['ftp://files.example.com/a', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['tienda.example.com/promo', 'invalid'],
    ['//evil.example/x', 'invalid'],
    ['https:/evil.example', 'invalid'],
    ['https://', 'invalid'],
    ['https://exa mple.com', 'invalid'],
    ['https://example.com/\u202egnp.exe', 'invalid'],
    ['https://exa\u200bmple.com', 'invalid'],
    ['https://www.bancolombia.com.co@evil.example/login', 'credentials'],
    ['https://user:pass@example.com/', 'credentials'],
    [`https://example.com/${'a'.repeat(URL_MAX)}`, 'tooLong'],
    ['https://pаypal.com/', 'lookAlike'], // Cyrillic а inside Latin
    ['https://аррӏе.com/', 'lookAlike'], // all Cyrillic, all Latin-looking
    ['https://gοοgle.com/', 'lookAlike'], // Greek ο
    ['https://xn--pypal-4ve.com/', 'lookAlike'], // the punycode of pаypal
    ['https://xn--!!.com/', 'invalid'],
  ])('refuses %j (%s)', (raw, problem) => {
    expect(checkTargetUrl(raw)).toEqual({ ok: false, problem });
  });

  it('accepts a whole label in Cyrillic that does not pass for Latin', () => {
    expect(checkTargetUrl('https://пример.рф/')).toMatchObject({ ok: true, displayHost: 'пример.рф' });
  });
});

describe('punycodeDecode', () => {
  it.each([['mnchen-3ya', 'münchen'], ['wgv71a119e', '日本語'], ['e1afmkfd', 'пример'], ['bcher-kva', 'bücher']])('%s → %s', (input, want) => {
    expect(punycodeDecode(input)).toBe(want);
  });
  it('answers null for garbage', () => expect(punycodeDecode('zzzzzzzzzzzzzzzzzzzz9')).toBeNull());
});
