// A saved list of numbers as people write it: numbers and ranges ("300 123 4500-300 123 4599"),
// one a line or separated by commas or semicolons. A range runs between two Colombian numbers of
// one kind (both mobile or both fixed), first to last, every number between them included; the
// whole list expands to at most `max` numbers, so a typo ("3001230000-3009999999") is refused
// before anything is built. Both ends of a range are written as numbers are (+57, spaces, dashes
// inside the number are read as a range only when the two sides are each a whole number).
import { normalizeColombianPhone } from './phone.ts';

export interface RangeProblem { entry: string; reason: 'invalidNumber' | 'reversedRange' | 'mixedRange' | 'tooMany' }
export type RangeResult = { numbers: string[]; problems: RangeProblem[] };

/** "a - b" with each side a whole number: the separator of a range (dashes inside a number stay part of it). */
const RANGE = /^(.+?)\s*(?:-|–|\bal?\b|\bto\b)\s*(.+)$/u;

function rangeEnds(entry: string): [string, string] | null {
  // Try every dash as the separator: the one whose two sides are each a whole number.
  for (let i = entry.indexOf('-'); i > 0; i = entry.indexOf('-', i + 1)) {
    const a = normalizeColombianPhone(entry.slice(0, i).trim());
    const b = normalizeColombianPhone(entry.slice(i + 1).trim());
    if (a && b) return [a, b];
  }
  const m = RANGE.exec(entry);
  if (m) {
    const a = normalizeColombianPhone(m[1].trim());
    const b = normalizeColombianPhone(m[2].trim());
    if (a && b) return [a, b];
  }
  return null;
}

/** The numbers a list writes (E.164, in order, each once) and what could not be read, at most `max` numbers. */
export function expandRanges(text: string, max: number): RangeResult {
  const seen = new Set<string>();
  const problems: RangeProblem[] = [];
  const entries = text.split(/[\n\r,;]+/).map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const single = normalizeColombianPhone(entry);
    if (single) {
      seen.add(single);
    } else {
      const ends = rangeEnds(entry);
      if (!ends) { problems.push({ entry, reason: 'invalidNumber' }); continue; }
      const [from, to] = ends.map((n) => Number(n.slice(3)));
      if (String(from)[0] !== String(to)[0]) { problems.push({ entry, reason: 'mixedRange' }); continue; }
      if (from > to) { problems.push({ entry, reason: 'reversedRange' }); continue; }
      if (to - from + 1 + seen.size > max) { problems.push({ entry, reason: 'tooMany' }); continue; }
      for (let n = from; n <= to; n++) seen.add(`+57${n}`);
    }
    if (seen.size > max) { problems.push({ entry, reason: 'tooMany' }); break; }
  }
  return { numbers: [...seen], problems };
}
