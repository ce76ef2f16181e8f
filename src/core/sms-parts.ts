// The SMS part rule (research/protocols.md 0.1 and 1.5): one place for the console's live
// counter, the campaign cost, the engine's split and the SMPP encoding.
//   GSM-7  (data_coding 0): 160 septets single, 153 per concatenated part; the extension table
//          (form feed ^ { } \ [ ~ ] | €) costs two septets and an escape pair is never split.
//   UCS-2  (data_coding 8): 70 UTF-16 units single, 67 per part; a surrogate pair is never split.
// The spec's older "160 or 67" rule is kept reachable (constants.sms.rule = "spec") but the facts
// are the default. SMPP carries GSM-7 unpacked: one septet per octet.
import { constants } from '../generated/constants.gen.ts';

const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Extension table: character → code after the escape (0x1B). */
const EXTENSION: ReadonlyMap<string, number> = new Map([
  ['\f', 0x0a], ['^', 0x14], ['{', 0x28], ['}', 0x29], ['\\', 0x2f], ['[', 0x3c], ['~', 0x3d], [']', 0x3e], ['|', 0x40], ['€', 0x65],
]);
const ESCAPE = 0x1b;
/** Position 0x1B is the escape, not a character: a raw U+001B in a text is not GSM-7 (sent alone it
 *  would make the handset read the next character from the extension table). */
const BASIC_CODE: ReadonlyMap<string, number> = new Map([...BASIC].map((ch, i): [string, number] => [ch, i]).filter(([, i]) => i !== ESCAPE));

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsCount {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text costs. */
  units: number;
  /** Number of SMS parts (0 for an empty text). */
  parts: number;
  /** Units still free in the last part before another part is needed. */
  remaining: number;
  /** Characters that force UCS-2 (empty for GSM-7). */
  nonGsm: string[];
}

export interface SmsLimits { gsm7Single: number; gsm7Part: number; ucs2Single: number; ucs2Part: number }

/** The limits in force: the facts by default; `constants.sms` can carry the spec's rule. */
export const defaultLimits: SmsLimits = {
  gsm7Single: constants.sms.gsm7Single,
  gsm7Part: constants.sms.gsm7Part,
  ucs2Single: constants.sms.ucs2Single,
  ucs2Part: constants.sms.ucs2Part,
};

const isGsmChar = (ch: string) => BASIC_CODE.has(ch) || EXTENSION.has(ch);

/** Characters of the text that are not in GSM 03.38 (each listed once, in order of appearance). */
export function nonGsmCharacters(text: string): string[] {
  const seen = new Set<string>();
  for (const ch of text) if (!isGsmChar(ch)) seen.add(ch);
  return [...seen];
}

/** The units of each character in the chosen encoding: the splitter walks these. */
function unitsOf(text: string, encoding: SmsEncoding): number[] {
  const units: number[] = [];
  for (const ch of text) units.push(encoding === 'GSM-7' ? (EXTENSION.has(ch) ? 2 : 1) : ch.length);
  return units;
}

/** Splits the characters into parts without breaking an escape pair or a surrogate pair. */
function splitUnits(chars: string[], units: number[], single: number, part: number): string[][] {
  const total = units.reduce((a, b) => a + b, 0);
  if (total === 0) return [];
  if (total <= single) return [chars];
  const parts: string[][] = [];
  let current: string[] = [];
  let used = 0;
  chars.forEach((ch, i) => {
    if (used + units[i] > part) {
      parts.push(current);
      current = [];
      used = 0;
    }
    current.push(ch);
    used += units[i];
  });
  if (current.length) parts.push(current);
  return parts;
}

export function countSms(text: string, limits: SmsLimits = defaultLimits): SmsCount {
  const nonGsm = nonGsmCharacters(text);
  const encoding: SmsEncoding = nonGsm.length === 0 ? 'GSM-7' : 'UCS-2';
  const chars = [...text];
  const units = unitsOf(text, encoding);
  const total = units.reduce((a, b) => a + b, 0);
  const [single, part] = encoding === 'GSM-7' ? [limits.gsm7Single, limits.gsm7Part] : [limits.ucs2Single, limits.ucs2Part];
  const parts = splitUnits(chars, units, single, part);
  const capacity = parts.length <= 1 ? single : part;
  const lastUnits = parts.length === 0 ? 0 : parts[parts.length - 1].reduce((a, ch) => a + unitsOf(ch, encoding)[0], 0);
  return { encoding, units: total, parts: parts.length, remaining: capacity - lastUnits, nonGsm };
}

/** The texts of each part, as the handset will show them joined. */
export function splitSms(text: string, limits: SmsLimits = defaultLimits): { encoding: SmsEncoding; parts: string[] } {
  const encoding: SmsEncoding = nonGsmCharacters(text).length === 0 ? 'GSM-7' : 'UCS-2';
  const [single, part] = encoding === 'GSM-7' ? [limits.gsm7Single, limits.gsm7Part] : [limits.ucs2Single, limits.ucs2Part];
  return { encoding, parts: splitUnits([...text], unitsOf(text, encoding), single, part).map((p) => p.join('')) };
}

/** GSM-7 unpacked (one septet per octet, escape pairs for the extension table), as SMPP carries it. */
export function encodeGsm7(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const basic = BASIC_CODE.get(ch);
    if (basic !== undefined) out.push(basic);
    else {
      const ext = EXTENSION.get(ch);
      if (ext === undefined) throw new RangeError(`not a GSM-7 character: ${JSON.stringify(ch)}`);
      out.push(ESCAPE, ext);
    }
  }
  return Uint8Array.from(out);
}

export function decodeGsm7(bytes: Uint8Array): string {
  const reverseExt = new Map([...EXTENSION].map(([ch, code]) => [code, ch]));
  let text = '';
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === ESCAPE && i + 1 < bytes.length) text += reverseExt.get(bytes[++i]) ?? ' ';
    else text += BASIC[bytes[i]] ?? '?';
  }
  return text;
}

/** UCS-2 as SMPP data_coding 8 carries it: UTF-16 big-endian. */
export function encodeUcs2(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out[2 * i] = code >> 8;
    out[2 * i + 1] = code & 0xff;
  }
  return out;
}

export function decodeUcs2(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode((bytes[i] << 8) | bytes[i + 1]);
  return text;
}

export interface EncodedSegment {
  /** SMPP data_coding: 0 GSM-7, 8 UCS-2. */
  dataCoding: 0 | 8;
  /** The concatenation UDH (05 00 03 ref total seq) or null for a single SMS. */
  udh: Uint8Array | null;
  /** The encoded text of this part (without the UDH). */
  payload: Uint8Array;
}

/** Encodes a message into SMPP segments; `reference` (0–255) ties the parts of one message. */
export function encodeSms(text: string, reference: number, limits: SmsLimits = defaultLimits): EncodedSegment[] {
  const { encoding, parts } = splitSms(text, limits);
  const dataCoding = encoding === 'GSM-7' ? 0 : 8;
  const encode = encoding === 'GSM-7' ? encodeGsm7 : encodeUcs2;
  if (parts.length <= 1) return [{ dataCoding, udh: null, payload: encode(parts[0] ?? '') }];
  return parts.map((part, i) => ({
    dataCoding,
    udh: Uint8Array.from([0x05, 0x00, 0x03, reference & 0xff, parts.length, i + 1]),
    payload: encode(part),
  }));
}

/** Typographic characters that pasted text often carries, and their GSM-7 twins (optional). */
const TRANSLITERATION: ReadonlyMap<string, string> = new Map([
  ['‘', "'"], ['’', "'"], ['‚', "'"], ['“', '"'], ['”', '"'], ['„', '"'], ['–', '-'], ['—', '-'], ['…', '...'], ['\u00a0', ' '], ['`', "'"],
]);

/** Replaces typographic quotes and dashes that would force UCS-2 for no visible gain. */
export function transliterateForGsm(text: string): string {
  let out = '';
  for (const ch of text) out += TRANSLITERATION.get(ch) ?? ch;
  return out;
}
