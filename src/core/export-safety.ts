// Spreadsheet exports (CSV "excel type" and XLSX, spec 9) carry data people typed: in a CSV, a text
// cell that starts with = + - @, a tab or a carriage return is read as a formula by Excel,
// LibreOffice and Google Sheets (CSV / formula injection, OWASP). Such cells get a leading
// apostrophe, which spreadsheets treat as "this is text". An XLSX types its cells, so its text
// cells are text already and go as written. Numbers and booleans are values, never formulas, and
// stay as they are. Pure code: the console builds its downloads with it, the server may too.
import type { SpreadsheetFormat } from '../generated/enums.gen.ts';


/** The first characters that make a spreadsheet evaluate a cell. */
export const FORMULA_TRIGGERS: readonly string[] = ['=', '+', '-', '@', '\t', '\r'];

export type CellValue = string | number | boolean | null;

/** A text cell that cannot run as a formula; other values pass through (undefined → null). */
export function safeCell(value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : Array.isArray(value) ? value.map(String).join(', ') : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  return text.length > 0 && FORMULA_TRIGGERS.includes(text[0]) ? `'${text}` : text;
}

/** One CSV field (RFC 4180): safe, then quoted when it holds the separator, a quote, a line break or edge spaces. */
export function csvField(value: unknown, separator = ','): string {
  const cell = safeCell(value);
  if (cell === null) return '';
  const text = String(cell);
  const needsQuotes = text.includes(separator) || text.includes('"') || text.includes('\n') || text.includes('\r') || /^\s|\s$/.test(text);
  return needsQuotes ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The UTF-8 byte order mark: Excel needs it to read accents (Bogotá, Medellín) in a CSV. */
export const BOM = '\ufeff';

export interface CsvOptions { separator?: ',' | ';'; bom?: boolean }

/**
 * An "excel type" CSV: BOM, a header row, CRLF line ends (what Excel writes), every field safe
 * and escaped.
 */
export function toCsv(headers: readonly string[], rows: readonly (readonly unknown[])[], options: CsvOptions = {}): string {
  const sep = options.separator ?? ',';
  const line = (cells: readonly unknown[]) => cells.map((c) => csvField(c, sep)).join(sep);
  const body = [line(headers), ...rows.map(line)].join('\r\n') + '\r\n';
  return (options.bom ?? true ? BOM : '') + body;
}

/**
 * Rows for an XLSX, header row first. An XLSX cell carries its type: a text cell is text, never a
 * formula (only a cell written as a formula is one), so text goes as it is, a phone "+573001234567"
 * without the apostrophe a CSV needs; numbers stay numbers, and a `Date`... is the caller's to
 * type (a date cell with its format, so it sorts as a date).
 */
export function toSheetRows(headers: readonly string[], rows: readonly (readonly unknown[])[]): CellValue[][] {
  const typed = (value: unknown): CellValue => {
    if (value === undefined || value === null) return null;
    if (typeof value === 'number') return Number.isFinite(value) ? value : null;
    if (typeof value === 'boolean' || typeof value === 'string') return value;
    return Array.isArray(value) ? value.map(String).join(', ') : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  };
  return [headers.map(typed), ...rows.map((r) => r.map(typed))];
}

/** The CSV list separator a person's Excel expects: ';' in Spanish (the comma is Colombia's decimal mark), ',' in English. */
export const csvSeparatorFor = (language: string): ',' | ';' => (language.startsWith('es') ? ';' : ',');

/** A file name without path separators or characters Windows refuses, with a date stamp. */
export function exportFileName(base: string, extension: SpreadsheetFormat, now: Date = new Date()): string {
  const clean = base.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'export';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${clean}-${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}.${extension}`;
}
