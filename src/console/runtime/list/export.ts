// Export of what a list or report shows: every row of the current query (paged through the list
// operation, 200 at a time, with progress), the columns as the user reads them (labels, enum
// texts, dates as YYYY/MM/DD h:mma; numbers stay numbers), as an "excel type" CSV (';' between
// fields in Spanish) or an XLSX whose sheet is constants.reports.xlsxSheetName ('recipient',
// spec 9) with typed cells (dates as dates). Every cell goes through src/core/export-safety.ts. The XLSX writer (@e965/xlsx, never the registry's `xlsx`) is loaded
// only when someone exports.
import type { TFunction } from 'i18next';
import { csvSeparatorFor, exportFileName, toCsv, toSheetRows } from '../../../core/export-safety.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { SpreadsheetFormat } from '../../../generated/enums.gen.ts';
import { cellKey, valueAt } from '../cells/registry.ts';
import { cellText } from '../cells/cells.tsx';
import type { ScreenColumn } from '../screen-types.ts';
import { fetchPage, type Row } from './paged-rows.ts';

export type ExportFormat = SpreadsheetFormat;

/** The largest page the list convention serves. */
export const EXPORT_PAGE_SIZE = 200;

/**
 * Pages through a list operation, each page after the previous one's `next` cursor (so past the
 * server's counting bound too); `onProgress(done, total)` after each page. Stops when `signal` aborts.
 */
export async function collectRows(operation: string, values: Record<string, unknown>, onProgress: (done: number, total: number) => void, signal?: AbortSignal): Promise<Row[]> {
  const rows: Row[] = [];
  let total = Infinity;
  let after: string | null | undefined;
  for (let page = 1; rows.length < total || after; page++) {
    if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const answer = await fetchPage(operation, values, page, EXPORT_PAGE_SIZE, after);
    const items = (answer.items ?? []).filter(Boolean);
    after = answer.next;
    rows.push(...items);
    total = typeof answer.total === 'number' ? Math.max(answer.total, answer.totalIsEstimate && after ? rows.length + EXPORT_PAGE_SIZE : 0) : rows.length;
    if (items.length === 0 || (answer.next === null && items.length < EXPORT_PAGE_SIZE)) total = rows.length;
    onProgress(rows.length, total);
    if (items.length === 0 || answer.next === null) break;
  }
  return rows;
}

/** The value written for a cell: a number for integer and COP columns, else the text the screen shows. */
export function exportValue(t: TFunction, exists: (k: string) => boolean, column: ScreenColumn, row: Row): unknown {
  const key = cellKey(column);
  const value = valueAt(row, column.field);
  if ((key === 'integer' || key === 'cop') && typeof value === 'number') return value;
  if (value === undefined || value === null || value === '') return null;
  return cellText(t, exists, key, value, column);
}

export interface ExportFile { blob: Blob; fileName: string }

/** An XLSX date cell's number: days since 1899-12-30 of the wall time the screen shows (the browser's clock), or null. */
function serialOf(value: unknown, key: string): number | null {
  if (typeof value !== 'string') return null;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = day ? null : new Date(value);
  if (!day && (!d || Number.isNaN(d.getTime()))) return null;
  const wall = day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : Date.UTC(d!.getFullYear(), d!.getMonth(), d!.getDate(), key === 'date' ? 0 : d!.getHours(), key === 'date' ? 0 : d!.getMinutes(), key === 'date' ? 0 : d!.getSeconds());
  return (wall - Date.UTC(1899, 11, 30)) / 86_400_000;
}

/** The spec's date formats (YYYY/MM/DD h:mma) as Excel number formats: the cells sort as dates and read as the screen writes them. */
const SHEET_DATE_FORMATS: Readonly<Record<string, string>> = { date: 'yyyy/mm/dd', datetime: 'yyyy/mm/dd h:mm AM/PM' };

/**
 * The file of an export: a CSV as Excel opens it in the reader's language (BOM; ';' between fields
 * in Spanish, ',' in English), or an XLSX with typed cells (text as text, numbers as numbers, dates
 * as dates).
 */
export async function buildExport(
  format: ExportFormat, name: string, columns: readonly ScreenColumn[], rows: readonly Row[], t: TFunction, exists: (k: string) => boolean, language = 'es',
): Promise<ExportFile> {
  const headers = columns.map((c) => t(c.label));
  const cells = rows.map((r) => columns.map((c) => exportValue(t, exists, c, r)));
  if (format === 'csv') {
    return { blob: new Blob([toCsv(headers, cells, { separator: csvSeparatorFor(language) })], { type: 'text/csv;charset=utf-8' }), fileName: exportFileName(name, 'csv') };
  }
  const XLSX = await import('@e965/xlsx');
  const sheet = XLSX.utils.aoa_to_sheet(toSheetRows(headers, cells));
  // Date and date-time columns as date cells in the spec's format.
  columns.forEach((column, c) => {
    const key = cellKey(column);
    const z = SHEET_DATE_FORMATS[key];
    if (!z) return;
    rows.forEach((row, r) => {
      const serial = serialOf(valueAt(row, column.field), key);
      if (serial !== null) sheet[XLSX.utils.encode_cell({ r: r + 1, c })] = { t: 'n', v: serial, z };
    });
  });
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, constants.reports.xlsxSheetName);
  const bytes = XLSX.write(book, { bookType: 'xlsx', type: 'array', compression: true }) as ArrayBuffer;
  return { blob: new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), fileName: exportFileName(name, 'xlsx') };
}
