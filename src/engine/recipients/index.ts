// Campaign recipients files: streaming ingest of CSV/XLSX/XLS with per-row validation, and the
// error report. See ingest.ts for the use and types.ts for what each result means. The server's way
// in (with the upload guards it reads a file through); engine code imports the modules themselves.
export { ingestRecipients, ingestLimits, type RecipientsIngest } from './ingest.ts';
export { invalidFile, RecipientsFileError, tooLarge, type RecipientsFileCode } from './errors.ts';
export { ErrorReportWriter, writeErrorReport, isReportRow, type ErrorReportOptions } from './error-report.ts';
export { formatFromName } from './detect.ts';
export { judgePhone, parseScheduleDate } from './validate-row.ts';
export { headerKey } from './headers.ts';
export { StreamingTextDecoder } from './text-decode.ts';
export { checkInflation, type ZipLimits } from './zip-guard.ts';
export { runSheetJob } from './sheet-thread.ts';
export type { RowResult, RowOutcome, RowProblem, RowNoticeCode, FileProcessorCode, IngestOptions, IngestSummary, IngestLimits, FileFormat, TextEncodingName } from './types.ts';
