// Lists of phone numbers typed or uploaded by people (block list, later campaign recipients):
// comma-separated input, the first column of a CSV file, and the text encoding of that file.
// Every value is data: a cell such as "=cmd|' /C calc'!A0" is judged as a phone (and refused),
// never interpreted.
import type { PhoneRejection as ListedRejection } from '../generated/enums.gen.ts';
import { normalizeColombianPhone } from './phone.ts';

/** What reading a list can tell by itself (alreadyListed needs the stored list). */
export type PhoneRejection = Exclude<ListedRejection, 'alreadyListed'>;

export interface PhoneListResult {
  /** Valid numbers in E.164 (+57…), in input order, each once, with where they were. */
  valid: { position: number; phone: string }[];
  /** What was refused and why; `position` is 1-based (item in a typed list, row in a file). */
  rejected: { position: number; value: string; reason: PhoneRejection }[];
}

/** Echoed values are cut: an answer never carries a whole hostile cell back. */
export const ECHO_MAX = 40;

export function judgePhones(values: readonly { position: number; value: string }[]): PhoneListResult {
  const valid: PhoneListResult['valid'] = [];
  const seen = new Set<string>();
  const rejected: PhoneListResult['rejected'] = [];
  for (const { position, value } of values) {
    const text = value.trim();
    const echo = text.slice(0, ECHO_MAX);
    if (text === '') { rejected.push({ position, value: '', reason: 'emptyPhone' }); continue; }
    const phone = normalizeColombianPhone(text);
    if (!phone) { rejected.push({ position, value: echo, reason: 'invalidPhone' }); continue; }
    if (seen.has(phone)) { rejected.push({ position, value: echo, reason: 'duplicate' }); continue; }
    seen.add(phone);
    valid.push({ position, phone });
  }
  return { valid, rejected };
}

/** "3001234567, 3109876543" (also ';' or new lines between numbers). A trailing comma is not an entry. */
export function parsePhoneList(input: string): PhoneListResult {
  const items = input.split(/[,;\n\r]+/).map((value, i) => ({ position: i + 1, value }));
  if (items.length > 1 && items[items.length - 1].value.trim() === '') items.pop();
  return judgePhones(items);
}

/**
 * The CSV separator of a file: ';' when the first record has more semicolons than commas.
 * Separators inside quotes ("Pérez, Juan") do not count, and a quoted line break does not end
 * the record. The text may be only the start of a file (a streamed first chunk).
 */
export function csvSeparator(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') inQuotes = !inQuotes;
    else if (inQuotes) continue;
    else if (c === ',') commas++;
    else if (c === ';') semicolons++;
    else if (c === '\n' || c === '\r') break;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * The first field of every record of a CSV text (RFC 4180 quoting: "a ""b""", separators and
 * line breaks inside quotes). Blank lines are skipped; positions are 1-based record numbers.
 */
export function csvFirstColumn(text: string, separator: ',' | ';' = csvSeparator(text), maxRecords = Infinity): { position: number; value: string }[] {
  const out: { position: number; value: string }[] = [];
  let i = 0;
  let record = 0;
  const n = text.length;
  // Whether a character is content (not a separator, a quote or white space); char checks, not a
  // regular expression, because a 20 MB file means twenty million calls.
  const counts = (c: string) => c > ' ' && c !== separator && c !== '"' && c !== '\u00a0' && c !== '\ufeff';
  while (i < n && out.length < maxRecords) {
    record++;
    let field = '';
    // A record with nothing but separators, quotes and spaces is a blank line: skipped.
    let blank = true;
    if (text[i] === '"') {
      i++;
      while (i < n) {
        if (text[i] === '"') {
          if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
          i++;
          break;
        }
        field += text[i++];
      }
    }
    // The rest of the first field (unquoted text), then skip to the end of the record.
    while (i < n && text[i] !== separator && text[i] !== '\n' && text[i] !== '\r') field += text[i++];
    if ([...field].some(counts)) blank = false;
    let inQuotes = false;
    while (i < n) {
      const c = text[i];
      if (c === '"') inQuotes = !inQuotes;
      else if (!inQuotes && (c === '\n' || c === '\r')) break;
      if (counts(c)) blank = false;
      i++;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    if (!blank) out.push({ position: record, value: field });
  }
  return out;
}

/** A first row without a single digit is a header ("telefono", "Número"), not an entry. */
export const looksLikeHeader = (value: string) => !/\d/.test(value);

/** The separators between pasted numbers: line ends, commas and semicolons (spaces: see below). */
const PASTE_PIECES = /[\r\n,;]+/;
/** A number written in groups ("+57 300 123 4567") has at most this many space-separated groups. */
const MAX_GROUPS = 5;

/**
 * Numbers typed or pasted into a box (a campaign's recipients, a test send): one per line, or
 * separated by commas, semicolons or spaces, with or without +57. Spaces separate numbers unless
 * the groups around them make one valid number together ("+57 300 123 4567", "300 123 4567"), so
 * a list copied from a contact sheet reads as a person means it. Each entry is answered as
 * written (the caller judges it: the file's row rules, normalised with a warning); empty pieces
 * are not entries. The console counts with this too, so its counter and the server agree.
 */
export function splitPastedNumbers(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(PASTE_PIECES)) {
    const groups = piece.trim().split(/\s+/).filter((g) => g !== '');
    let i = 0;
    while (i < groups.length) {
      // The longest run of groups from here that is one Colombian number; else the group alone.
      let taken = 1;
      for (let n = Math.min(MAX_GROUPS, groups.length - i); n > 1; n--) {
        if (normalizeColombianPhone(groups.slice(i, i + n).join('').replace(/^00/, '+'))) { taken = n; break; }
      }
      out.push(groups.slice(i, i + taken).join(' '));
      i += taken;
    }
  }
  return out;
}
