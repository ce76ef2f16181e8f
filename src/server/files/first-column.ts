// The first column of an uploaded file (the block list's numbers, the shortener's URLs), through
// the one intake (intake.ts): the size refused before parsing, text decoded as the recipients
// file is (UTF-16 included), and an XLSX's archive inflated through the recipients' zip guard
// (declared and real sizes, ratio, entry count) before SheetJS reads the first sheet in a worker
// thread (engine/recipients/sheet-thread.ts), with a time and memory limit, off the event loop.
// Cells are data: a formula cell yields its formula text ("=…"), so nothing is evaluated or trusted.
import type { FastifyRequest } from 'fastify';
import { csvFirstColumn } from '../../core/phone-list.ts';
import { ingestLimits, runSheetJob } from '../../engine/recipients/index.ts';
import { fail } from '../errors/api-error.ts';
import { asUploadError, checkWorkbookArchive, decodeUploadText, readUpload } from './intake.ts';

export type SpreadsheetKind = 'xlsx' | 'xls';

export function sniffSpreadsheet(bytes: Uint8Array): SpreadsheetKind | null {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return 'xlsx';
  const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  if (ole.every((b, i) => bytes[i] === b)) return 'xls';
  return null;
}

/**
 * The first-column values of the first sheet, with their 1-based row numbers; null when the
 * bytes are not a readable spreadsheet. Reads at most `maxRows` rows (+1, to detect more).
 */
export async function spreadsheetFirstColumn(bytes: Uint8Array, kind: SpreadsheetKind, maxRows: number): Promise<{ position: number; value: string }[] | null> {
  // A zip bomb or a damaged archive is refused naming why (99932), before SheetJS inflates anything.
  if (kind === 'xlsx') await checkWorkbookArchive(bytes, ingestLimits());
  let result;
  try {
    result = await runSheetJob({ kind: 'firstColumn', bytes, maxRows });
  } catch (error) {
    throw asUploadError(error, bytes.length);
  }
  return result.kind === 'firstColumn' ? result.values : null;
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
  if (kind) values = await spreadsheetFirstColumn(bytes, kind, maxRows);
  else {
    const text = decodeUploadText(bytes);
    values = text === null ? null : csvFirstColumn(text, undefined, maxRows + 1);
  }
  if (!values) throw fail('99932');
  return values;
}
