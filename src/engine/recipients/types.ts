// The shapes of a campaign recipients file ingest (spec 5 "Uploads", 8 file-processor row errors).
// Database-free: the upload route stores what it reads.
import type { RecipientResult, SpreadsheetFormat } from '../../generated/enums.gen.ts';
import type { fileProcessorErrors } from '../../generated/errors.gen.ts';

/**
 * pass  = sendable as read.
 * warn  = sendable, but something was fixed or is worth knowing (a number normalised from
 *         +57/57/spaces, an optional variable empty, the encoding guessed), or NOT sent because
 *         the phone already appeared earlier in the file (`send: false`, `duplicatePhone`).
 * fail  = read fine but cannot be sent: empty or invalid phone, foreign country code, a fixed
 *         line for SMS, a required variable empty, a bad URL or schedule date.
 * error = the row could not be read: malformed quoting, more cells than headers, a cell over
 *         uploads.maxCellChars.
 */
export type RowOutcome = RecipientResult;

/** The catalogue's row codes (config/errors.yaml fileProcessor). */
export type FileProcessorCode = keyof typeof fileProcessorErrors;

/** Notices of this reader that the catalogue has no code for (warn or error rows). */
export type RowNoticeCode =
  | 'phoneNormalized' // warn: +57…, 57…, spaces or dashes removed
  | 'duplicatePhone' // warn, not sent: the same E.164 number earlier in the file (`duplicateOf`)
  | 'emptyOptionalValue' // warn: an optional variable is empty
  | 'undecidedEncoding' // warn: the text was valid UTF-8 until here, read as Windows-1252 from here
  | 'fixedLine' // fail (with invalidPhone): a Colombian fixed line cannot receive SMS
  | 'cellTooLong' // error: a cell longer than uploads.maxCellChars (cut, never accumulated)
  | 'malformedQuotes' // error: text after a closing quote, or a quote never closed
  | 'tooManyCells' // error: more non-empty cells than the header row has columns
  | 'emptyTemplateParameter'; // fail, judged when read: the cell of a column a template parameter is filled from is blank (the launch refuses it, 131008)

export interface RowProblem { code: FileProcessorCode | RowNoticeCode; column?: string }

export interface RowResult {
  /** 1-based row of the file as a spreadsheet shows it (the header is row 1; blank rows count). */
  row: number;
  /** E.164 (+57…) when the phone is valid, else null. */
  phone: string | null;
  /** The message's variables (required and optional) by the name the message uses. */
  variables: Record<string, string>;
  result: RowOutcome;
  /** Empty for pass rows (a shared frozen array: build new results, do not push into it). */
  problems: readonly RowProblem[];
  /** Whether a message should be created for this row: pass/warn, except duplicates. */
  send: boolean;
  /** For duplicatePhone: the row where the number first appeared. */
  duplicateOf?: number;
  /** From a schedule column: the instant (UTC ISO) to send at. */
  scheduleAt?: string;
  /** The phone cell as written, for every row that is not a plain pass (refused, warned, unreadable). */
  entered?: string;
  /** fail and error rows: every cell as read (cut at maxCellChars), for the error report. */
  cells?: string[];
}

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type FileFormat = SpreadsheetFormat | 'xls';

export interface IngestLimits {
  /** Default uploads.campaignFileBytes (20 MB): past it, 99937. */
  maxBytes: number;
  /** XLSX: default uploads.xlsxMaxUncompressedBytes, declared and actually inflated. */
  maxInflatedBytes: number;
  /** XLSX: default uploads.xlsxMaxCompressionRatio, for entries over 1 MB inflated. */
  maxCompressionRatio: number;
  /** Default uploads.maxCellChars. */
  maxCellChars: number;
}

export interface IngestOptions {
  fileName: string;
  /** The size the client declared (Content-Length of the part, File.size), when known. */
  declaredBytes?: number;
  /** Variables the message uses ({{name}}): a column each, a value in every row. */
  variables?: readonly string[];
  /** Variables that may be empty (warn emptyOptionalValue); their column must exist too. */
  optionalVariables?: readonly string[];
  /** A header (matched like variables) or a 0-based column index; default auto. */
  phoneColumn?: string | number | 'auto';
  /** Only Colombia for now: numbers are normalised to +57. */
  country?: 'CO';
  /** SMS cannot reach fixed lines (60X…): fail unless this is true (WhatsApp, voice). */
  allowFixedLines?: boolean;
  /** A header holding a send date-time per row; default auto (fecha_envio, programacion, …); null: none. */
  scheduleColumn?: string | null | 'auto';
  /** Keep the other columns' values under their headers (unjudged) instead of ignoring them. */
  keepColumns?: boolean;
  /** Variables whose values must be http(s) URLs; default the ones named url, link, enlace, *_url. */
  urlVariables?: readonly string[] | 'auto';
  /** "Now" for schedule dates (tests); default the clock. */
  now?: Date;
  /** XLSX/XLS: a sheet by name; default the first sheet. */
  sheet?: string;
  /** Bytes of the file read so far, and the total when known (declaredBytes). */
  onProgress?: (bytes: number, total: number | null) => void;
  limits?: Partial<IngestLimits>;
}

export interface IngestSummary {
  format: FileFormat | null;
  /** CSV only. */
  encoding: TextEncodingName | null;
  /** CSV: the file switched from UTF-8 to Windows-1252 part-way (rows after carry undecidedEncoding). */
  encodingUncertain: boolean;
  separator: ',' | ';' | null;
  sheet: string | null;
  /** The header row as written ([] for a number-only file without a header). */
  headers: string[];
  hasHeader: boolean;
  phoneColumn: string | null;
  scheduleColumn: string | null;
  /** Headers that are neither the phone, a variable nor the schedule: not read. */
  ignoredColumns: string[];
  totalRows: number;
  pass: number;
  warn: number;
  fail: number;
  error: number;
  duplicates: number;
  /** Rows that should become messages (pass + warn − duplicates). */
  sendable: number;
  bytes: number;
  done: boolean;
}
