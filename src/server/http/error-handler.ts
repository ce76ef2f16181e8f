// One place turns every failure into { code, message, errors? } with the catalogue's status:
// our ApiErrors, Ajv validation failures, Fastify's own parser errors (malformed JSON, body too
// large, wrong media type), multipart limits, and anything unexpected (m1, generic text, no
// stack or SQL: the detail goes to the log only). A client that hung up mid-request is logged at
// info: it is the client's doing, not an error of the server's.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Refused } from '../../engine/refused.ts';
import { ApiError, fieldError } from '../errors/api-error.ts';
import { validationError } from './validation.ts';

/** SQLSTATE query_canceled: statement_timeout, or pg_cancel_backend. */
const QUERY_CANCELED = '57014';

function toApiError(error: FastifyError & { validationContext?: string }): ApiError | null {
  if (error instanceof ApiError) return error;
  // The engine's refusal (a launch, a preview, a deployment action): its code, its detail, its field.
  if (error instanceof Refused) return error.field ? new ApiError(error.code, undefined, [fieldError(error.field, error.code, error.detail)]) : new ApiError(error.code, error.detail);
  if (error.validation) return validationError(error.validation as never, error.validationContext);
  // Our own answer broke its declared schema (Fastify's serializer refused it): a fault of the
  // backend's, named as such (99964), never the half-written body.
  if ((error as { serialization?: unknown }).serialization) return new ApiError('99964');
  // PostgreSQL cancelled a statement past the process's statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS),
  // a long query or one waiting behind another's lock: the request timed out (504), it did not fail.
  if (error.code === QUERY_CANCELED) return new ApiError('99993');
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('99937');
    // The console's files: a path the static server will not look up (one whose spelling it cannot
    // verify on disk, such as a segment longer than the file system's 255-byte names) or a name
    // too long to open names no file: 404, as any missing one.
    case 'FST_STATIC_FORBIDDEN_PATH':
    case 'ENAMETOOLONG':
      return new ApiError('99936');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('99931');
    // Multipart: a missing, oversized or non-multipart upload is an invalid file.
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
    case 'FST_MP_PREMATURE_CLOSE':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ApiError('99932');
  }
  // Fastify's JSON parser throws a plain SyntaxError with statusCode 400 on some inputs.
  if (error.statusCode === 400 && (error.name === 'SyntaxError' || error.code?.startsWith('FST_ERR_CTP'))) return new ApiError('99931');
  if (error.statusCode === 413) return new ApiError('99937');
  return null;
}

// What a connection closed by the client makes its request's reading fail with.
const CONNECTION_CLOSED = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/** A client that closed its connection mid-request: nobody hears the answer and nothing failed on our side. */
function clientClosed(error: FastifyError, request: FastifyRequest): boolean {
  const gone = request.raw.aborted || request.raw.readableAborted || request.raw.socket?.destroyed === true;
  return gone && (CONNECTION_CLOSED.has(error.code) || error.message === 'aborted');
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (clientClosed(error, request)) {
      request.log.info({ code: error.code }, 'client closed the connection mid-request');
      const gone = new ApiError('99931');
      return reply.status(gone.status).send(gone.toBody());
    }
    const known = toApiError(error);
    if (known) {
      if (known.code === 'm1' || known.status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(known.status).send(known.toBody());
    }
    request.log.error({ err: error }, 'unexpected error');
    const unknown = new ApiError('m1');
    return reply.status(unknown.status).send(unknown.toBody());
  });
}
