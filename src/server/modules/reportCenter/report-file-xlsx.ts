// A report file as an Excel workbook (format xlsx). A workbook is a zip whose directory comes last,
// so it cannot grow a chunk per job step the way the CSV does: one step writes it whole, streaming
// (exceljs's WorkbookWriter, no shared strings, rows committed as they go, so memory stays bounded
// whatever the rows), reading the rows in chunks from the type's source and renewing the job's
// lease after each chunk. A step that died half-way leaves a partial file that the next claim
// truncates and writes again from the start; the rows count and the file become ready together.
// A sheet holds at most 1,048,575 rows under its header (Excel's limit): then the next sheet.
import { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { safeCell } from '../../../core/export-safety.ts';
import type { Database } from '../../../engine/database.ts';
import type { Job } from '../../../engine/jobs/index.ts';
import { advanceJob, finishJob, lockJob } from '../../../engine/lifecycle/index.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { storedLanguage, wordsFor } from '../../i18n/document-words.ts';
import { fileSources, headerOf, sheetNameOf, type FileParams, type SourcedReportType } from './report-file-sources.ts';

/** Excel's rows per sheet, less the header. */
export const XLSX_ROWS_PER_SHEET = 1_048_575;

interface XlsxFile { id: number | string; company_id: number; report_type_id: number; params: unknown; storage_key: string; language: string }

/** Appends what the workbook writer emits to the stored file, in order, from an empty file. */
function storageWriter(storage: FileStorage, key: string): { out: Writable; length: () => number } {
  let offset = 0;
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      storage.writeAt(key, offset, chunk).then((length) => {
        offset = length;
        done();
      }, done);
    },
  });
  return { out, length: () => offset };
}

/** Writes the whole workbook; answers 'done', or 'lost' when the job stopped being this step's. */
export async function writeXlsxFile(
  deps: { db: Kysely<Database>; now: () => Date; storage: FileStorage },
  job: Job,
  file: XlsxFile,
  options: { chunkRows: number; leaseMs: number; rowsPerSheet?: number },
): Promise<'done' | 'lost'> {
  const { db, storage } = deps;
  const source = fileSources[file.report_type_id as SourcedReportType];
  const params = file.params as FileParams;
  const perSheet = options.rowsPerSheet ?? XLSX_ROWS_PER_SHEET;
  await storage.writeAt(file.storage_key, 0, new Uint8Array(0));
  const { out, length } = storageWriter(storage, file.storage_key);
  const finished = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  const { default: excel } = await import('exceljs');
  const book = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  let sheetNo = 0;
  const language = storedLanguage(file.language);
  const words = wordsFor(language);
  const header = headerOf(source, language);
  const sheetName = sheetNameOf(source, language);
  let sheet = book.addWorksheet(sheetName);
  sheet.addRow(header).commit();
  let inSheet = 0;
  let rows = 0;
  let cursor = 0;
  for (;;) {
    const chunk = await source.after(db, file.company_id, params, cursor, options.chunkRows);
    for (const r of chunk) {
      if (inSheet === perSheet) {
        sheet.commit();
        sheetNo += 1;
        sheet = book.addWorksheet(`${sheetName} (${sheetNo + 1})`);
        sheet.addRow(header).commit();
        inSheet = 0;
      }
      sheet.addRow(source.cells(r, words).map((c) => safeCell(c))).commit();
      inSheet += 1;
    }
    rows += chunk.length;
    if (chunk.length) cursor = Number(chunk[chunk.length - 1].id);
    // The lease is renewed after every chunk; a step that lost its job stops writing.
    const held = await db.transaction().execute(async (trx) => {
      if (!(await lockJob(trx, job.id))) return false;
      await advanceJob(trx, job.id, cursor, chunk.length, deps.now(), options.leaseMs);
      return true;
    });
    if (!held) return 'lost';
    if (chunk.length < options.chunkRows) break;
  }
  sheet.commit();
  await book.commit();
  await finished;
  const now = deps.now();
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('report_files').set({ bytes: length(), rows, state: 'ready', finished_at: now }).where('id', '=', Number(file.id)).execute();
    await finishJob(trx, job.id, now);
  });
  return 'done';
}
