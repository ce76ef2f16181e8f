// One place turns every failure into { code, message, errors? } with the catalogue's status:
// our ApiErrors, Ajv validation failures, Fastify's own parser errors (malformed JSON, body too
// large, wrong media type), multipart limits, and anything unexpected (m1, generic text, no
// stack or SQL: the detail goes to the log only).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.ts';
import { validationError } from './validation.ts';

function toApiError(error: FastifyError & { validationContext?: string }): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error.validation) return validationError(error.validation as never, error.validationContext);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('99937');
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

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
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
