// The SheetJS (@e965/xlsx) reads, as plain functions of bytes: an XLS's rows (BIFF has no streaming
// reader, so the whole workbook is parsed in memory) and the first column of an XLSX or XLS (the
// block list's numbers, the shortener's URLs). They run in a worker thread (sheet-thread.ts), never on
// the server's event loop: a parse of a large sheet takes seconds to minutes of CPU. What they
// return is structured-cloneable; a refusal is a reason string, made a catalogue error by the caller.
import * as XLSX from '@e965/xlsx';
import { displayText, formatCodeOf, isoWallTime } from './cell-format.ts';
import type { SheetRow } from './xlsx-stream.ts';

const MAX_COLUMN = 1024;

export type SheetJob =
  | { kind: 'xlsRows'; bytes: Uint8Array; maxCellChars: number; sheet?: string }
  | { kind: 'firstColumn'; bytes: Uint8Array; maxRows: number };

export type SheetResult =
  | { kind: 'xlsRows'; sheet: string; rows: SheetRow[] }
  | { kind: 'firstColumn'; values: { position: number; value: string }[] | null }
  | { kind: 'refused'; reason: string };

/**
 * An XLS cell's format code as SheetJS gives it: the built-in short date (14) and short date and
 * time (22) come as SheetJS's table spells them ("m/d/yy", "m/d/yy h:mm"), which a Colombian
 * computer shows day first.
 */
function xlsFormatCode(z: XLSX.NumberFormat | undefined): string | null {
  if (z === undefined) return null;
  if (typeof z === 'number') return formatCodeOf(z, undefined);
  const table = XLSX.SSF.get_table() as Record<number, string>;
  const builtin = z === table[14] ? 14 : z === table[22] ? 22 : -1;
  return formatCodeOf(builtin, builtin < 0 ? z : undefined);
}

function xlsCellText(cell: XLSX.CellObject | undefined, maxCellChars: number, date1904: boolean): string {
  if (!cell || cell.v === undefined || cell.v === null) return '';
  let text: string;
  // Dates stay serial numbers (cellDates off: SheetJS would build them in the server's time
  // zone); a number is shown here with its format code as Excel shows it in Colombia.
  if (cell.t === 'n') text = displayText(cell.v as number, xlsFormatCode(cell.z), date1904);
  else if (cell.t === 'd' && cell.v instanceof Date) text = isoWallTime(cell.v);
  else if (cell.t === 'b') text = cell.v ? 'TRUE' : 'FALSE';
  else if (cell.t === 'e') text = cell.w ?? '#ERROR';
  else text = String(cell.v);
  return text.length > maxCellChars ? text.slice(0, maxCellChars + 1) : text;
}

/** Every row of one sheet of an XLS (formula cells give their cached value; nothing is evaluated). */
export function xlsRows(buf: Uint8Array, maxCellChars: number, sheet?: string): SheetResult {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(buf, { type: 'buffer', dense: true, cellDates: false, cellNF: true, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false, bookVBA: false, sheets: sheet ?? 0 });
  } catch {
    return { kind: 'refused', reason: 'the XLS file is damaged or is not an Excel 97-2003 workbook' };
  }
  const name = sheet ?? book.SheetNames[0];
  const ws = name === undefined ? undefined : book.Sheets[name];
  if (!ws) return { kind: 'refused', reason: sheet === undefined ? 'the workbook has no sheets' : `the workbook has no sheet called ${JSON.stringify(sheet)}` };
  const data = (ws['!data'] ?? []) as (XLSX.CellObject[] | undefined)[];
  const date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  const rows: SheetRow[] = [];
  for (let r = 0; r < data.length; r++) {
    const line = data[r];
    if (!line) continue;
    const cells: string[] = [];
    for (let c = 0; c < Math.min(line.length, MAX_COLUMN); c++) cells.push(xlsCellText(line[c], maxCellChars, date1904));
    rows.push({ row: r + 1, cells });
  }
  return { kind: 'xlsRows', sheet: name, rows };
}

function plainCellText(cell: XLSX.CellObject | undefined): string {
  if (!cell) return '';
  if (cell.f) return `=${cell.f}`;
  // Numbers keep their digits (3001234567, not the cell's display format); the rest as text.
  return String(cell.v ?? cell.w ?? '');
}

/**
 * The first-column values of the first sheet with their 1-based row numbers (null when the bytes
 * are not a readable spreadsheet), at most `maxRows` rows (+1, to detect more). Cells are data: a
 * formula cell yields its formula text ("=…"), so nothing in the file is evaluated or trusted.
 */
export function firstColumn(bytes: Uint8Array, maxRows: number): SheetResult {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'buffer', dense: true, sheetRows: maxRows + 1, cellFormula: true, cellHTML: false, cellText: false, cellDates: false, bookVBA: false });
  } catch {
    return { kind: 'firstColumn', values: null };
  }
  const sheet = book.SheetNames.length ? book.Sheets[book.SheetNames[0]] : undefined;
  if (!sheet) return { kind: 'firstColumn', values: null };
  const rows = (sheet['!data'] ?? []) as (XLSX.CellObject[] | undefined)[];
  const values: { position: number; value: string }[] = [];
  rows.forEach((row, i) => {
    const value = plainCellText(row?.[0]);
    // A row with content elsewhere but an empty first cell is reported (emptyPhone); blank rows are not.
    if (value.trim() !== '' || row?.some((c) => plainCellText(c).trim() !== '')) values.push({ position: i + 1, value });
  });
  return { kind: 'firstColumn', values };
}

export function runSheetJob(job: SheetJob): SheetResult {
  return job.kind === 'xlsRows' ? xlsRows(job.bytes, job.maxCellChars, job.sheet) : firstColumn(job.bytes, job.maxRows);
}
