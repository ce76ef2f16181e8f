// Rows of a legacy Excel 97-2003 workbook (BIFF8 in an OLE2 container), read with SheetJS
// (@e965/xlsx). BIFF has no streaming reader: the whole file is parsed in memory. The upload
// limit (uploads.campaignFileBytes, 20 MB, counted before this runs) bounds that: SheetJS needs
// roughly 10-50× the file size while parsing. Formula cells give their cached value (SheetJS
// does not evaluate); numbers keep all digits; date-formatted cells come out as ISO dates,
// whatever the server's time zone.
import * as XLSX from '@e965/xlsx';
import { invalidFile } from './errors.ts';
import { isoWallTime, numberText, serialDateText } from './cell-format.ts';
import type { SheetRow } from './xlsx-stream.ts';

const MAX_COLUMN = 1024;
const BATCH = 1000;

function cellText(cell: XLSX.CellObject | undefined, maxCellChars: number, date1904: boolean): string {
  if (!cell || cell.v === undefined || cell.v === null) return '';
  let text: string;
  // Dates stay serial numbers (cellDates off: SheetJS would build them in the server's time
  // zone) and are converted here from their number format.
  if (cell.t === 'n') text = cell.z !== undefined && XLSX.SSF.is_date(cell.z) ? serialDateText(cell.v as number, date1904) : numberText(cell.v as number);
  else if (cell.t === 'd' && cell.v instanceof Date) text = isoWallTime(cell.v);
  else if (cell.t === 'b') text = cell.v ? 'TRUE' : 'FALSE';
  else if (cell.t === 'e') text = cell.w ?? '#ERROR';
  else text = String(cell.v);
  return text.length > maxCellChars ? text.slice(0, maxCellChars + 1) : text;
}

export interface XlsRows { sheet: string; rows: Generator<SheetRow[]> }

export function openXls(buf: Uint8Array, maxCellChars: number, sheet?: string): XlsRows {
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(buf, { type: 'buffer', dense: true, cellDates: false, cellNF: true, cellFormula: false, cellHTML: false, cellText: false, cellStyles: false, bookVBA: false, sheets: sheet ?? 0 });
  } catch {
    throw invalidFile('the XLS file is damaged or is not an Excel 97-2003 workbook');
  }
  const name = sheet ?? book.SheetNames[0];
  const ws = name === undefined ? undefined : book.Sheets[name];
  if (!ws) throw invalidFile(sheet === undefined ? 'the workbook has no sheets' : `the workbook has no sheet called ${JSON.stringify(sheet)}`);
  const data = (ws['!data'] ?? []) as (XLSX.CellObject[] | undefined)[];
  const date1904 = Boolean(book.Workbook?.WBProps?.date1904);
  function* rows(): Generator<SheetRow[]> {
    let batch: SheetRow[] = [];
    for (let r = 0; r < data.length; r++) {
      const line = data[r];
      if (!line) continue;
      const cells: string[] = [];
      for (let c = 0; c < Math.min(line.length, MAX_COLUMN); c++) cells.push(cellText(line[c], maxCellChars, date1904));
      batch.push({ row: r + 1, cells });
      if (batch.length === BATCH) { yield batch; batch = []; }
    }
    if (batch.length) yield batch;
  }
  return { sheet: name, rows: rows() };
}
