// Campaign recipients files: streaming ingest of CSV/XLSX/XLS with per-row validation, and the
// error report. See ingest.ts for the use and types.ts for what each result means.
export { ingestRecipients, ingestLimits, type RecipientsIngest } from './ingest.ts';
export { RecipientsFileError, type RecipientsFileCode } from './errors.ts';
export { ErrorReportWriter, writeErrorReport, isReportRow, type ErrorReportOptions } from './error-report.ts';
export { formatFromName } from './detect.ts';
export { judgePhone, parseScheduleDate } from './validate-row.ts';
export { headerKey } from './headers.ts';
export type { RowResult, RowOutcome, RowProblem, RowNoticeCode, FileProcessorCode, IngestOptions, IngestSummary, IngestLimits, FileFormat, TextEncodingName } from './types.ts';
