// Short links (spec §2 Shortener, §5 "URL valid only with http or https", §9 "a shortened link
// counts as 24 characters"; research/protocols.md §0 item 10 and §7):
// - Codes are random, drawn from [0-9A-Za-z] only (every character is GSM-7 basic, so a short
//   link never flips an SMS to UCS-2 nor costs 2 septets), CODE_LENGTH long (62^7 ≈ 3.5·10^12:
//   not guessable, not sequential like YOURLS). Aliases use the same alphabet, ALIAS_MIN..ALIAS_MAX.
//   With a short domain such as https://clb.co/ (15) a 7-character code makes 22 ≤ 24.
// - A target is a URL the browser will be sent to: only http or https, at most URL_MAX characters,
//   no user:password@ part (https://www.banco.com.co@evil.example is a classic phishing trick), no
//   spaces or control characters, a host that is a name or an IP. International host names are
//   stored and shown in punycode (xn--…, what the browser really visits); a label that mixes
//   scripts (Latin with Cyrillic or Greek, e.g. "pаypal" with a Cyrillic а) or that is written
//   entirely in Cyrillic or Greek letters that look Latin ("аррӏе") is refused as a look-alike.
// Pure: no I/O; the random source is the platform's Web Crypto unless a test passes one.
import type { UrlProblem as AnyUrlProblem } from '../generated/enums.gen.ts';

export const CODE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const CODE_LENGTH = 7;

/** Codes drawn before an insert gives up (62^7 codes: a second draw is already rare; a collision redraws only the rows that did not land). */
export const CODE_ATTEMPTS = 8;
export const ALIAS_MIN = 3;
export const ALIAS_MAX = 16;
export const URL_MAX = 2048;

const CODE_RE = /^[0-9A-Za-z]+$/;

export type RandomBytes = (n: number) => Uint8Array;
const webRandom: RandomBytes = (n) => globalThis.crypto.getRandomValues(new Uint8Array(n));

/**
 * A random code of `length` characters of CODE_ALPHABET, uniform (bytes ≥ 248 are dropped, so
 * 248 = 4 × 62 keeps every character equally likely).
 */
export function randomCode(length = CODE_LENGTH, random: RandomBytes = webRandom): string {
  let out = '';
  while (out.length < length) {
    for (const b of random(length * 2)) {
      if (b >= 248) continue;
      out += CODE_ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A code we could have issued (random or alias): the redirect looks nothing else up. */
export function isShortCode(code: string): boolean {
  return code.length >= ALIAS_MIN && code.length <= Math.max(ALIAS_MAX, CODE_LENGTH) && CODE_RE.test(code);
}

export function isValidAlias(alias: string): boolean {
  return alias.length >= ALIAS_MIN && alias.length <= ALIAS_MAX && CODE_RE.test(alias);
}

// ---- Targets ----

/** What checking the URL by itself can tell (ownShortener and aliasTaken need the server's configuration and store). */
export type UrlProblem = Exclude<AnyUrlProblem, 'ownShortener' | 'aliasTaken'>;

export type TargetCheck = { ok: true; url: string; host: string; displayHost: string } | { ok: false; problem: UrlProblem };

// Spaces, controls, and the invisible/bidi characters that hide what a URL says.
const FORBIDDEN = /[\s\p{Cc}\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** Checks and normalises a target URL (see the header); `url` is what the redirect sends. */
export function checkTargetUrl(raw: string): TargetCheck {
  const text = raw.trim();
  if (!text) return { ok: false, problem: 'empty' };
  if (text.length > URL_MAX) return { ok: false, problem: 'tooLong' };
  if (FORBIDDEN.test(text)) return { ok: false, problem: 'invalid' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return { ok: false, problem: scheme ? 'scheme' : 'invalid' };
  if (!/^https?:\/\/[^/]/i.test(text)) return { ok: false, problem: 'invalid' };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { ok: false, problem: 'invalid' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, problem: 'scheme' };
  if (u.username || u.password) return { ok: false, problem: 'credentials' };
  const host = u.hostname;
  if (!host || host.endsWith('..')) return { ok: false, problem: 'invalid' };
  if (!host.startsWith('[') && !/^[a-z0-9.-]+$/.test(host)) return { ok: false, problem: 'invalid' };
  const labels = host.split('.');
  const display: string[] = [];
  for (const label of labels) {
    if (!label.startsWith('xn--')) {
      display.push(label);
      continue;
    }
    const unicode = punycodeDecode(label.slice(4));
    if (unicode === null || lookAlike(unicode)) return { ok: false, problem: 'lookAlike' };
    display.push(unicode);
  }
  if (u.href.length > URL_MAX) return { ok: false, problem: 'tooLong' };
  return { ok: true, url: u.href, host, displayHost: display.join('.') };
}

// Script of one character, among those seen in host names; null for digits, hyphens and marks.
const SCRIPTS: Array<[string, RegExp]> = [
  ['Latin', /\p{Script=Latin}/u], ['Cyrillic', /\p{Script=Cyrillic}/u], ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u], ['Hebrew', /\p{Script=Hebrew}/u], ['Arabic', /\p{Script=Arabic}/u],
  ['Han', /\p{Script=Han}/u], ['Hiragana', /\p{Script=Hiragana}/u], ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u], ['Thai', /\p{Script=Thai}/u], ['Devanagari', /\p{Script=Devanagari}/u],
  ['Georgian', /\p{Script=Georgian}/u], ['Cherokee', /\p{Script=Cherokee}/u],
];
// Scripts that legitimately mix inside one label (Japanese, Korean).
const COMPATIBLE = [new Set(['Han', 'Hiragana', 'Katakana']), new Set(['Han', 'Hangul'])];
// Cyrillic and Greek letters that pass for Latin ones in a lower-case host.
const LATIN_LOOKING = new Set([...'аеіјорсуѕхһԁԛԝӏѵьвкмнтґ', ...'αοικνρτυχεβ']);

function lookAlike(label: string): boolean {
  const scripts = new Set<string>();
  let letters = 0;
  let latinLooking = 0;
  for (const ch of label) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    if (LATIN_LOOKING.has(ch)) latinLooking++;
    const script = SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'Other';
    scripts.add(script);
  }
  if (scripts.size > 1 && !COMPATIBLE.some((set) => [...scripts].every((s) => set.has(s)))) return true;
  const only = [...scripts][0];
  return (only === 'Cyrillic' || only === 'Greek') && letters > 0 && latinLooking === letters;
}

/** RFC 3492 decoding of one label's part after "xn--"; null when it is not valid punycode. */
export function punycodeDecode(input: string): string | null {
  const base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700;
  const adapt = (delta: number, points: number, first: boolean) => {
    delta = first ? Math.floor(delta / damp) : delta >> 1;
    delta += Math.floor(delta / points);
    let k = 0;
    while (delta > ((base - tMin) * tMax) >> 1) {
      delta = Math.floor(delta / (base - tMin));
      k += base;
    }
    return k + Math.floor(((base - tMin + 1) * delta) / (delta + skew));
  };
  const digit = (c: number) => (c >= 48 && c <= 57 ? c - 22 : c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 97 : base);
  const out: number[] = [];
  const delimiter = input.lastIndexOf('-');
  for (let j = 0; j < Math.max(delimiter, 0); j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) return null;
    out.push(c);
  }
  let n = 128, bias = 72, i = 0;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length;) {
    const oldI = i;
    for (let w = 1, k = base; ; k += base) {
      if (index >= input.length) return null;
      const d = digit(input.charCodeAt(index++));
      if (d >= base) return null;
      i += d * w;
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (d < t) break;
      w *= base - t;
      if (i > 0x10ffff * 64) return null;
    }
    bias = adapt(i - oldI, out.length + 1, oldI === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    if (n > 0x10ffff) return null;
    out.splice(i++, 0, n);
  }
  return String.fromCodePoint(...out);
}

/** The link a message carries for a code under our base URL ("https://clb.co" + "/" + code). */
export function shortUrlOf(baseUrl: string, code: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${code}`;
}
