// The error report of a recipients upload: the fail and error rows with their row number, the
// cells as read and the problems, as an "excel type" CSV (BOM, CRLF) or an XLSX, written as a
// stream. Every cell goes through export-safety: "=cmd|' /C calc'!A0" from the uploaded file
// comes back as text, never as a formula.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { BOM, csvField, safeCell } from '../../core/export-safety.ts';
import type { SpreadsheetFormat } from '../../generated/enums.gen.ts';
import type { RowProblem, RowResult } from './types.ts';

export interface ErrorReportOptions {
  format: SpreadsheetFormat;
  /**
   * The file's header row (summary.headers; [] for a number-only file), or a function answering
   * it, read at the first row: `() => ingest.summary.headers` while the ingest is still running.
   */
  headers: readonly string[] | (() => readonly string[]);
  separator?: ',' | ';';
  /** Column titles; Spanish by default (the console's language). */
  labels?: { row: string; phone: string; problems: string };
  /** A problem as text (a translated message); default its code and column: "requiredValue (nombre)". */
  describe?: (problem: RowProblem) => string;
  sheetName?: string;
}

const DEFAULT_LABELS = { row: 'Fila', phone: 'Teléfono', problems: 'Problemas' };

const defaultDescribe = (p: RowProblem) => (p.column ? `${p.code} (${p.column})` : p.code);

/** Whether a row belongs in the report. */
export const isReportRow = (row: RowResult) => row.result === 'fail' || row.result === 'error';

export class ErrorReportWriter {
  private columns: string[] = [];
  private readonly describe: (p: RowProblem) => string;
  private readonly sep: ',' | ';';
  private book?: ExcelJS.stream.xlsx.WorkbookWriter;
  private sheet?: ExcelJS.Worksheet;
  private started = false;
  rows = 0;

  constructor(private readonly out: Writable, private readonly options: ErrorReportOptions) {
    this.describe = options.describe ?? defaultDescribe;
    this.sep = options.separator ?? ',';
  }

  /** Adds a row when it is fail or error (others are ignored). */
  async add(row: RowResult): Promise<void> {
    if (!this.started) await this.start();
    if (!isReportRow(row)) return;
    const width = this.columns.length - 2;
    const cells = row.cells ?? [];
    const values: unknown[] = [row.row];
    for (let k = 0; k < width; k++) values.push(cells[k] ?? '');
    values.push(row.problems.map(this.describe).join('; '));
    this.rows++;
    await this.write(values);
  }

  async end(): Promise<void> {
    if (!this.started) await this.start();
    if (this.book) {
      await this.book.commit();
    } else {
      this.out.end();
      await once(this.out, 'finish');
    }
  }

  private async start(): Promise<void> {
    this.started = true;
    const labels = this.options.labels ?? DEFAULT_LABELS;
    const headers = typeof this.options.headers === 'function' ? this.options.headers() : this.options.headers;
    this.columns = [labels.row, ...(headers.length ? headers : [labels.phone]), labels.problems];
    if (this.options.format === 'xlsx') {
      // exceljs is loaded only when an XLSX report is asked for.
      const { default: excel } = await import('exceljs');
      this.book = new excel.stream.xlsx.WorkbookWriter({ stream: this.out, useStyles: false, useSharedStrings: false });
      this.sheet = this.book.addWorksheet(this.options.sheetName ?? 'errores');
    }
    if (this.book) await this.write(this.columns);
    else await this.writeText(BOM + this.line(this.columns));
  }

  private line(values: readonly unknown[]): string {
    return values.map((v) => csvField(v, this.sep)).join(this.sep) + '\r\n';
  }

  private async write(values: readonly unknown[]): Promise<void> {
    if (this.sheet) this.sheet.addRow(values.map((v) => safeCell(v))).commit();
    else await this.writeText(this.line(values));
  }

  private async writeText(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
}

/** Writes the report of every fail/error row of `rows` to `out`; answers how many rows it holds. */
export async function writeErrorReport(rows: AsyncIterable<RowResult> | Iterable<RowResult>, out: Writable, options: ErrorReportOptions): Promise<number> {
  const writer = new ErrorReportWriter(out, options);
  for await (const row of rows) await writer.add(row);
  await writer.end();
  return writer.rows;
}
