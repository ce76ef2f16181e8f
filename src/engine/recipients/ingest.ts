// ingestRecipients: a campaign recipients file (CSV, XLSX, XLS) read as a stream and judged row
// by row (spec 5 "Uploads", 8 file-processor row errors, 9 the 20 MB limit). Whole-file problems
// throw a RecipientsFileError (99932, 99937, 99955 invalidHeaders) before the first row or while
// streaming; row problems are in each RowResult. Database-free: the upload route stores the rows.
//
//   const ingest = ingestRecipients(part.file, { fileName: part.filename, variables: ['nombre'] });
//   for await (const rows of ingest.batches()) await store(rows);   // or: for await (const row of ingest)
//   ingest.summary  // counts, encoding, separator, headers; `done` once the file is read
//
// Memory: CSV is constant whatever the size (chunks of text, one unfinished record, the phone set
// of 8 bytes per number for duplicates). XLSX keeps the compressed file (≤ 20 MB) and its shared
// strings; the sheet is inflated and scanned as a stream. XLS is read whole by SheetJS (≤ 20 MB).
import type { Readable } from 'node:stream';
import { constants } from '../../generated/constants.gen.ts';
import { invalidFile, invalidHeaders } from './errors.ts';
import { fileRows } from './file-rows.ts';
import { planColumns, type ColumnPlan, type PlanOptions } from './headers.ts';
import { PhoneSet } from './phone-set.ts';
import { validateRow, type RawRow, type RowContext } from './validate-row.ts';
import type { IngestLimits, IngestOptions, IngestSummary, RowResult } from './types.ts';

export interface RecipientsIngest extends AsyncIterable<RowResult> {
  /** The rows in batches (one per chunk of the file read): cheaper than one await per row. */
  batches(): AsyncGenerator<RowResult[]>;
  /** Live while reading; final when `done`. */
  readonly summary: IngestSummary;
}

export function ingestLimits(partial: Partial<IngestLimits> = {}): IngestLimits {
  return {
    maxBytes: partial.maxBytes ?? constants.uploads.campaignFileBytes,
    maxInflatedBytes: partial.maxInflatedBytes ?? constants.uploads.xlsxMaxUncompressedBytes,
    maxCompressionRatio: partial.maxCompressionRatio ?? constants.uploads.xlsxMaxCompressionRatio,
    maxCellChars: partial.maxCellChars ?? constants.uploads.maxCellChars,
  };
}

function emptySummary(): IngestSummary {
  return {
    format: null, encoding: null, encodingUncertain: false, separator: null, sheet: null, headers: [], hasHeader: false,
    phoneColumn: null, scheduleColumn: null, ignoredColumns: [], totalRows: 0, pass: 0, warn: 0, fail: 0, error: 0,
    duplicates: 0, sendable: 0, bytes: 0, done: false,
  };
}

/** Reads and judges a recipients file. Nothing is read until the result is iterated. */
export function ingestRecipients(input: AsyncIterable<Uint8Array> | Readable, options: IngestOptions): RecipientsIngest {
  const summary = emptySummary();
  let started = false;
  const batches = () => {
    if (started) throw new Error('a recipients file can be read once');
    started = true;
    return run(input, options, summary);
  };
  return {
    summary,
    batches,
    async *[Symbol.asyncIterator]() {
      for await (const batch of batches()) yield* batch;
    },
  };
}

async function* run(input: AsyncIterable<Uint8Array> | Readable, options: IngestOptions, summary: IngestSummary): AsyncGenerator<RowResult[]> {
  const limits = ingestLimits(options.limits);
  const planOptions: PlanOptions = {
    variables: options.variables ?? [],
    optionalVariables: options.optionalVariables ?? [],
    phoneColumn: options.phoneColumn ?? 'auto',
    scheduleColumn: options.scheduleColumn === undefined ? 'auto' : options.scheduleColumn,
    urlVariables: options.urlVariables ?? 'auto',
    keepColumns: options.keepColumns ?? false,
  };
  const judge = new RowJudge(summary, planOptions, {
    seen: new PhoneSet(),
    allowFixedLines: options.allowFixedLines ?? false,
    maxCellChars: limits.maxCellChars,
    now: options.now ?? new Date(),
    encodingWarning: false,
  });
  // The summary is the reader's facts too (format, encoding, separator, sheet, bytes), live.
  for await (const rows of fileRows(input, { fileName: options.fileName, declaredBytes: options.declaredBytes, sheet: options.sheet, onProgress: options.onProgress, limits }, summary)) {
    // A CSV that switched from UTF-8 to Windows-1252 part-way: the rows after carry the warning.
    if (summary.encodingUncertain) judge.ctx.encodingWarning = true;
    const out = judge.judge(rows);
    if (out.length) yield out;
  }
  if (summary.totalRows === 0) throw invalidFile(judge.planned ? 'the file has a header row but no recipients' : 'the file has no rows');
  summary.done = true;
}

/** Plans the columns from the first non-blank row, then judges and counts the others. */
class RowJudge {
  plan: ColumnPlan | null = null;
  readonly ctx: RowContext;

  constructor(private readonly summary: IngestSummary, private readonly planOptions: PlanOptions, ctx: Omit<RowContext, 'plan'>) {
    this.ctx = { ...ctx, plan: null as unknown as ColumnPlan };
  }

  get planned(): boolean {
    return this.plan !== null;
  }

  judge(rows: readonly RawRow[]): RowResult[] {
    const out: RowResult[] = [];
    const s = this.summary;
    for (const raw of rows) {
      if (!this.plan) {
        if (raw.cells.every((c) => c.trim() === '') && !raw.problem) continue;
        if (raw.problem) throw invalidHeaders(`the first row (row ${raw.row}) cannot be read: ${raw.problem}`, []);
        this.plan = planColumns(raw.cells, this.planOptions);
        this.ctx.plan = this.plan;
        s.headers = this.plan.headers;
        s.hasHeader = this.plan.hasHeader;
        s.phoneColumn = this.plan.hasHeader ? this.plan.phoneName : null;
        s.scheduleColumn = this.plan.scheduleName;
        s.ignoredColumns = this.plan.ignored;
        if (this.plan.hasHeader) continue;
      }
      const result = validateRow(raw, this.ctx);
      if (!result) continue;
      s.totalRows++;
      switch (result.result) {
        case 'pass': s.pass++; break;
        case 'warn': s.warn++; break;
        case 'fail': s.fail++; break;
        default: s.error++;
      }
      if (result.duplicateOf) s.duplicates++;
      if (result.send) s.sendable++;
      out.push(result);
    }
    return out;
  }
}
