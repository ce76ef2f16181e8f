// The rows of an uploaded CSV, XLSX or XLS file, read as a stream: the one reader under the
// recipients' ingest (ingest.ts judges each row) and any other file of rows (a flow's training
// phrases). Whole-file problems throw a RecipientsFileError: 99937 past maxBytes (from the declared
// size before a byte is read, else at the first byte past it), 99932 for an empty file or content
// that is not what its name says. CSV memory is constant whatever the size; an XLSX keeps its
// compressed bytes and shared strings while its sheet is inflated as a stream; an XLS is read
// whole by SheetJS, so it may not pass uploads.campaignFileBytes (20 MB) whatever the upload's limit.
import type { Readable } from 'node:stream';
import { csvSeparator } from '../../core/phone-list.ts';
import { constants } from '../../generated/constants.gen.ts';
import { allBytes, countedBytes, peekBytes, type ByteCounter } from './byte-source.ts';
import { CsvTokenizer, type CsvRecord } from './csv-stream.ts';
import { checkContent, formatFromName } from './detect.ts';
import { invalidFile, tooLarge } from './errors.ts';
import { StreamingTextDecoder } from './text-decode.ts';
import { openXlsx } from './xlsx-stream.ts';
import type { FileFormat, IngestLimits, IngestSummary } from './types.ts';
import type { RawRow } from './validate-row.ts';

/** What the reader learnt of the file, live while reading. */
export type FileFacts = Pick<IngestSummary, 'format' | 'encoding' | 'encodingUncertain' | 'separator' | 'sheet' | 'bytes'>;

export interface FileRowsOptions {
  fileName: string;
  declaredBytes?: number | null;
  sheet?: string;
  onProgress?: (bytes: number, total: number | null) => void;
  limits: IngestLimits;
}

const HEAD_BYTES = 8;

export const emptyFacts = (): FileFacts => ({ format: null, encoding: null, encodingUncertain: false, separator: null, sheet: null, bytes: 0 });

/** The file's rows in batches (one per chunk read, or per batch of the sheet); `facts` fills in as it goes. */
export async function* fileRows(input: AsyncIterable<Uint8Array> | Readable, options: FileRowsOptions, facts: FileFacts): AsyncGenerator<RawRow[]> {
  const { limits } = options;
  const format: FileFormat = formatFromName(options.fileName);
  facts.format = format;
  const total = options.declaredBytes ?? null;
  if (total !== null && total > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const counter: ByteCounter = { bytes: 0 };
  const source = countedBytes(input, limits.maxBytes, counter, total, options.onProgress);
  try {
    const { head, rest } = await peekBytes(source, HEAD_BYTES);
    if (head.length === 0) throw invalidFile('the file is empty');
    checkContent(format, head);
    if (format === 'csv') {
      yield* csvRows(rest, facts, limits.maxCellChars);
    } else {
      const bytes = await allBytes(rest);
      // An XLS is parsed whole by SheetJS (memory several times its size): past the recipients'
      // 20 MB it is refused, whatever the upload's own limit (a 200 MB training file): CSV or XLSX then.
      if (format === 'xls' && bytes.length > constants.uploads.campaignFileBytes) throw tooLarge(constants.uploads.campaignFileBytes);
      // SheetJS is loaded only for XLS files, in a worker thread (xls.ts).
      const book = format === 'xlsx' ? await openXlsx(bytes, limits, options.sheet) : await (await import('./xls.ts')).openXls(bytes, limits.maxCellChars, options.sheet);
      facts.sheet = book.sheet;
      for await (const rows of book.rows) if (rows.length) yield rows;
    }
  } finally {
    facts.bytes = counter.bytes;
    await source.return(undefined);
  }
}

async function* csvRows(bytes: AsyncIterable<Uint8Array>, facts: FileFacts, maxCellChars: number): AsyncGenerator<RawRow[]> {
  const decoder = new StreamingTextDecoder();
  let tokenizer: CsvTokenizer | null = null;
  let pending = '';
  const feed = (text: string, final: boolean): CsvRecord[] => {
    if (!tokenizer) {
      // The separator comes from the first record: wait for its line end (or the file's end).
      pending += text;
      if (!final && !/[\r\n]/.test(pending.replace(/"[^"]*"/g, '')) && pending.length < 1024 * 1024) return [];
      facts.separator = csvSeparator(pending);
      tokenizer = new CsvTokenizer(facts.separator, maxCellChars);
      text = pending;
      pending = '';
    }
    const records: CsvRecord[] = [];
    tokenizer.push(text, records);
    if (final) tokenizer.end(records);
    facts.encoding = decoder.encoding;
    if (decoder.uncertain) facts.encodingUncertain = true;
    return records;
  };
  for await (const chunk of bytes) {
    const out = feed(decoder.decode(chunk), false);
    if (out.length) yield out;
  }
  const out = feed(decoder.decode(new Uint8Array(0), true), true);
  if (out.length) yield out;
}
