// A streaming RFC 4180 CSV reader over decoded text chunks: comma or semicolon, quoted fields
// ("a ""b""", separators and line breaks inside quotes), CRLF, LF or CR line ends.
// Memory stays bounded whatever the file: an unfinished record is kept only up to
// maxRecordChars; past that the record is skipped to its end (tracking quotes, keeping nothing)
// and reported as an error row. Lenient where Excel is: a quote inside an unquoted field is a
// character (5" pantalla). Strict where data would shift: text after a closing quote, or a quote
// never closed, makes the row an error.
import type { RowNoticeCode } from './types.ts';

export interface CsvRecord {
  /** 1-based record number (what a spreadsheet shows as the row). */
  row: number;
  cells: string[];
  problem?: Extract<RowNoticeCode, 'cellTooLong' | 'malformedQuotes' | 'tooManyCells'>;
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** A record can never hold more cells than this (the rest are dropped, the row is an error). */
export const MAX_CELLS = 1024;

export class CsvTokenizer {
  private readonly sep: number;
  private readonly maxCellChars: number;
  private readonly maxRecordChars: number;
  private carry = '';
  private row = 0;
  /** Skipping an oversized record: whether the skip is inside quotes. */
  private skipping: { inQuotes: boolean } | null = null;

  constructor(separator: ',' | ';', maxCellChars: number) {
    this.sep = separator.charCodeAt(0);
    this.maxCellChars = maxCellChars;
    // Room for a full row of normal cells; a single cell past maxCellChars is still read (and
    // reported) as long as the record fits.
    this.maxRecordChars = Math.max(maxCellChars * 16, 65536);
  }

  /** Characters held for an unfinished record: never more than the record cap. */
  get pendingChars(): number {
    return this.carry.length;
  }

  /** Appends the complete records of `text` to `out`; an unfinished last record waits. */
  push(text: string, out: CsvRecord[]): void {
    this.parse(this.carry.length ? this.carry + text : text, false, out);
  }

  /** The end of the file: the last record (without a line break) and an unclosed quote. */
  end(out: CsvRecord[]): void {
    const text = this.carry;
    this.carry = '';
    if (this.skipping) {
      this.skipping = null;
      return;
    }
    if (text.length) this.parse(text, true, out);
  }

  private parse(s: string, final: boolean, out: CsvRecord[]): void {
    const n = s.length;
    let i = 0;
    if (this.skipping) {
      i = this.skip(s, 0);
      if (this.skipping) { this.carry = ''; return; }
    }
    const sep = this.sep;
    const sepChar = String.fromCharCode(sep);
    const maxCell = this.maxCellChars;
    // The next separator, LF and CR at or after i (n when none): found with indexOf (a memchr-like
    // scan) and kept until passed, instead of testing every character.
    let nextSep = -1, nextLf = -1, nextCr = -1;
    record: while (i < n) {
      const start = i;
      const cells: string[] = [];
      let problem: CsvRecord['problem'];
      for (;;) {
        let field: string;
        if (s.charCodeAt(i) === QUOTE) {
          let j = i + 1;
          field = '';
          for (;;) {
            const q = s.indexOf('"', j);
            if (q < 0 || (q === n - 1 && !final)) {
              if (!final) { this.wait(s, start, out); return; }
              // A quote never closed: the rest of the file is this field.
              field += s.slice(j);
              problem = 'malformedQuotes';
              i = n;
              break;
            }
            if (s.charCodeAt(q + 1) === QUOTE) { field += s.slice(j, q + 1); j = q + 2; continue; }
            field += s.slice(j, q);
            i = q + 1;
            break;
          }
          if (i < n) {
            const c = s.charCodeAt(i);
            if (c !== sep && c !== LF && c !== CR) {
              // "abc"def: read the rest as text, but the row cannot be trusted.
              problem = 'malformedQuotes';
              let j = i;
              while (j < n) { const d = s.charCodeAt(j); if (d === sep || d === LF || d === CR) break; j++; }
              if (j === n && !final) { this.wait(s, start, out); return; }
              field += s.slice(i, j);
              i = j;
            }
          }
        } else {
          if (nextSep < i) { nextSep = s.indexOf(sepChar, i); if (nextSep < 0) nextSep = n; }
          if (nextLf < i) { nextLf = s.indexOf('\n', i); if (nextLf < 0) nextLf = n; }
          if (nextCr < i) { nextCr = s.indexOf('\r', i); if (nextCr < 0) nextCr = n; }
          const j = nextSep < nextLf ? (nextSep < nextCr ? nextSep : nextCr) : nextLf < nextCr ? nextLf : nextCr;
          if (j === n && !final) { this.wait(s, start, out); return; }
          field = s.slice(i, j);
          i = j;
        }
        if (field.length > maxCell) { field = field.slice(0, maxCell); problem ??= 'cellTooLong'; }
        if (cells.length < MAX_CELLS) cells.push(field);
        else problem ??= 'tooManyCells';
        if (i >= n) {
          if (!final) { this.wait(s, start, out); return; }
          break;
        }
        const c = s.charCodeAt(i);
        if (c === sep) { i++; if (i === n && !final) { this.wait(s, start, out); return; } continue; }
        // A line end: CR LF, LF or CR; a CR at the end of a chunk waits for a possible LF.
        if (c === CR) {
          if (i + 1 === n && !final) { this.wait(s, start, out); return; }
          i += s.charCodeAt(i + 1) === LF ? 2 : 1;
        } else i++;
        break;
      }
      this.row++;
      out.push(problem ? { row: this.row, cells, problem } : { row: this.row, cells });
      continue record;
    }
    this.carry = '';
  }

  /**
   * Keeps the unfinished record from `start`, or, when it is already too big, reports it as an
   * error row (no cells: nothing of it is kept) and skips to its end.
   */
  private wait(s: string, start: number, out: CsvRecord[]): void {
    if (s.length - start <= this.maxRecordChars) { this.carry = s.slice(start); return; }
    let quoted = false;
    for (let k = start; k < s.length; k++) if (s.charCodeAt(k) === QUOTE) quoted = !quoted;
    this.carry = '';
    this.row++;
    out.push({ row: this.row, cells: [], problem: 'cellTooLong' });
    this.skipping = { inQuotes: quoted };
  }

  /** Skips to the end of an oversized record; answers where the next record starts. */
  private skip(s: string, from: number): number {
    const skipping = this.skipping!;
    let quoted = skipping.inQuotes;
    const n = s.length;
    for (let k = from; k < n; k++) {
      const c = s.charCodeAt(k);
      if (c === QUOTE) quoted = !quoted;
      else if (!quoted && (c === LF || c === CR)) {
        this.skipping = null;
        return c === CR && s.charCodeAt(k + 1) === LF ? k + 2 : k + 1;
      }
    }
    skipping.inQuotes = quoted;
    return n;
  }
}
