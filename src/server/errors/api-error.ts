// Every error answer is { code, message, errors? } with a code of the catalogue
// (config/errors.yaml) and that code's HTTP status. Handlers throw ApiError; the error handler
// turns anything else into m1 without leaking stacks or SQL.
import { serverErrors } from '../../generated/errors.gen.ts';
import { catalogueMessage } from './messages.ts';

export type ErrorCode = keyof typeof serverErrors;

export interface FieldError { field: string; code: string; message: string }

export interface ApiErrorBody { code: string; message: string; errors?: FieldError[] }

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];

  constructor(code: ErrorCode, message?: string, errors?: FieldError[]) {
    super(message ?? messageFor(code));
    this.name = 'ApiError';
    this.code = code;
    this.errors = errors;
  }

  get status(): number {
    return serverErrors[this.code].http;
  }

  toBody(): ApiErrorBody {
    return this.errors?.length ? { code: this.code, message: this.message, errors: this.errors } : { code: this.code, message: this.message };
  }
}

export const messageFor = catalogueMessage;

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in serverErrors;

/** Shorthand for handlers: `throw fail('99959')`. */
export const fail = (code: ErrorCode, message?: string, errors?: FieldError[]) => new ApiError(code, message, errors);

/** One field's problem for an answer's `errors` list (99931 unless told), with an optional detail. */
export const fieldError = (field: string, code: ErrorCode = '99931', detail?: string): FieldError =>
  ({ field, code, message: detail ? `${messageFor(code)} (${detail})` : messageFor(code) });

/** The answer for a list of field problems: the first one's code, every field listed. */
export const failFields = (errors: FieldError[]) => new ApiError(errors[0].code as ErrorCode, messageFor(errors[0].code), errors);
