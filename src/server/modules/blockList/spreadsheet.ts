// The first column of an uploaded spreadsheet (XLSX, or the older binary XLS), read with
// SheetJS (@e965/xlsx). Cells are data: a formula cell yields its formula text ("=…"), which is
// never a phone, so nothing in the file is evaluated or trusted.
//
// An XLSX file is a ZIP archive: before parsing, its central directory is read and an archive
// that would inflate past MAX_INFLATED_BYTES (a "zip bomb"), or that needs ZIP64, is refused.
import * as XLSX from '@e965/xlsx';

const MAX_INFLATED_BYTES = 200 * 1024 * 1024;

export type SpreadsheetKind = 'xlsx' | 'xls';

export function sniffSpreadsheet(bytes: Uint8Array): SpreadsheetKind | null {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'xlsx';
  const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  if (ole.every((b, i) => bytes[i] === b)) return 'xls';
  return null;
}

/** Sum of the archive's declared uncompressed sizes, or null when the directory is unreadable or ZIP64. */
export function zipInflatedSize(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const from = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= from; i--) {
    if (view.getUint32(i, true) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd === -1) return null;
  const entries = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (entries === 0xffff || offset === 0xffffffff) return null;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.length || view.getUint32(offset, true) !== 0x02014b50) return null;
    const size = view.getUint32(offset + 24, true);
    if (size === 0xffffffff) return null;
    total += size;
    offset += 46 + view.getUint16(offset + 28, true) + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return total;
}

function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell) return '';
  if (cell.f) return `=${cell.f}`;
  // Numbers keep their digits (3001234567, not the cell's display format); the rest as text.
  return String(cell.v ?? cell.w ?? '');
}

/**
 * The first-column values of the first sheet, with their 1-based row numbers; null when the
 * bytes are not a readable spreadsheet. Reads at most `maxRows` rows (+1, to detect more).
 */
export function spreadsheetFirstColumn(bytes: Uint8Array, kind: SpreadsheetKind, maxRows: number): { position: number; value: string }[] | null {
  if (kind === 'xlsx') {
    const inflated = zipInflatedSize(bytes);
    if (inflated === null || inflated > MAX_INFLATED_BYTES) return null;
  }
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'buffer', dense: true, sheetRows: maxRows + 1, cellFormula: true, cellHTML: false, cellText: false, cellDates: false, bookVBA: false });
  } catch {
    return null;
  }
  const sheet = book.SheetNames.length ? book.Sheets[book.SheetNames[0]] : undefined;
  if (!sheet) return null;
  const rows = (sheet['!data'] ?? []) as (XLSX.CellObject[] | undefined)[];
  const out: { position: number; value: string }[] = [];
  rows.forEach((row, i) => {
    const value = cellText(row?.[0]);
    // A row with content elsewhere but an empty first cell is reported (emptyPhone); blank rows are not.
    if (value.trim() !== '' || row?.some((c) => cellText(c).trim() !== '')) out.push({ position: i + 1, value });
  });
  return out;
}
