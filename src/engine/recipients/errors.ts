// Whole-file problems of a recipients upload: a typed error with the catalogue code the upload
// route answers with (config/errors.yaml), thrown before the first row or while streaming.
//   99932 invalid file (415): name, extension, content, zip bomb, damaged workbook
//   99937 payload too large (413): over uploads.campaignFileBytes, counted while reading
//   99955 file processor error (422) with `problem: 'invalidHeaders'`: columns missing or repeated
//   99933 too many requests (429): every spreadsheet reader busy and its queue full (sheet-thread.ts)
import { serverErrors, type fileProcessorErrors } from '../../generated/errors.gen.ts';

export type RecipientsFileCode = '99932' | '99933' | '99937' | '99955';

export class RecipientsFileError extends Error {
  readonly code: RecipientsFileCode;
  /** A fileProcessor code when the file's content is at fault (invalidHeaders). */
  readonly problem?: keyof typeof fileProcessorErrors;
  /** The columns concerned: missing variables, repeated headers, several phone columns. */
  readonly columns?: string[];

  constructor(code: RecipientsFileCode, reason: string, extra: { problem?: keyof typeof fileProcessorErrors; columns?: string[] } = {}) {
    super(reason);
    this.name = 'RecipientsFileError';
    this.code = code;
    this.problem = extra.problem;
    this.columns = extra.columns;
  }

  get status(): number {
    return serverErrors[this.code].http;
  }
}

export const invalidFile = (reason: string) => new RecipientsFileError('99932', reason);
export const tooLarge = (maxBytes: number) => new RecipientsFileError('99937', `the file is larger than ${maxBytes} bytes`);
export const invalidHeaders = (reason: string, columns: string[]) => new RecipientsFileError('99955', reason, { problem: 'invalidHeaders', columns });
