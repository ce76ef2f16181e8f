// The first column of an uploaded file (the block list's numbers, the shortener's URLs), through
// the one intake (intake.ts): the size refused before parsing, text decoded as the recipients
// file is (UTF-16 included), and an XLSX's archive checked by the recipients' zip guard before
// SheetJS (@e965/xlsx) reads the first sheet. Cells are data: a formula cell yields its formula
// text ("=…"), so nothing in the file is evaluated or trusted.
import * as XLSX from '@e965/xlsx';
import type { FastifyRequest } from 'fastify';
import { csvFirstColumn } from '../../core/phone-list.ts';
import { ingestLimits } from '../../engine/recipients/ingest.ts';
import { fail } from '../errors/api-error.ts';
import { checkWorkbookArchive, decodeUploadText, readUpload } from './intake.ts';

export type SpreadsheetKind = 'xlsx' | 'xls';

export function sniffSpreadsheet(bytes: Uint8Array): SpreadsheetKind | null {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'xlsx';
  const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  if (ole.every((b, i) => bytes[i] === b)) return 'xls';
  return null;
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
  // A zip bomb or a damaged archive is refused naming why (99932), before anything is inflated.
  if (kind === 'xlsx') checkWorkbookArchive(bytes, ingestLimits());
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

/**
 * The first-column values of an upload (at most `maxBytes`; header row left in), with their row
 * numbers, reading at most `maxRows` rows (+1, to detect more). 99932 for an empty or unreadable
 * file, 99937 for one too large.
 */
export async function readFirstColumn(request: FastifyRequest, maxBytes: number, maxRows: number): Promise<{ position: number; value: string }[]> {
  const { bytes } = await readUpload(request, maxBytes);
  if (bytes.length === 0) throw fail('99932');
  const kind = sniffSpreadsheet(bytes);
  let values: { position: number; value: string }[] | null;
  if (kind) values = spreadsheetFirstColumn(bytes, kind, maxRows);
  else {
    const text = decodeUploadText(bytes);
    values = text === null ? null : csvFirstColumn(text, undefined, maxRows + 1);
  }
  if (!values) throw fail('99932');
  return values;
}
