// Rows of a legacy Excel 97-2003 workbook (BIFF8 in an OLE2 container), read with SheetJS
// (@e965/xlsx, sheet-read.ts) in a worker thread (sheet-thread.ts). BIFF has no streaming reader:
// the whole file is parsed in memory. The upload limit (uploads.campaignFileBytes, 20 MB, counted
// before this runs) bounds that, and the worker's memory and time limits stop a parse past them.
// Formula cells give their cached value (SheetJS does not evaluate); numbers keep all digits;
// date-formatted cells come out as ISO dates, whatever the server's time zone.
import { invalidFile } from './errors.ts';
import type { SheetRow } from './xlsx-stream.ts';
import { runSheetJob } from './sheet-thread.ts';

const BATCH = 1000;

export interface XlsRows { sheet: string; rows: Generator<SheetRow[]> }

export async function openXls(buf: Uint8Array, maxCellChars: number, sheet?: string): Promise<XlsRows> {
  const result = await runSheetJob({ kind: 'xlsRows', bytes: buf, maxCellChars, sheet });
  if (result.kind === 'refused') throw invalidFile(result.reason);
  if (result.kind !== 'xlsRows') throw new Error(`unexpected sheet result ${result.kind}`);
  const all = result.rows;
  function* rows(): Generator<SheetRow[]> {
    for (let k = 0; k < all.length; k += BATCH) yield all.slice(k, k + BATCH);
  }
  return { sheet: result.sheet, rows: rows() };
}
