// The router's own refusals, answered in the catalogue's shape like every other error: a path
// parameter longer than the router takes (no identifier of ours is that long, so it names
// nothing: 404, 99936) and a URL whose percent-encoding is broken (400, 99931).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error.ts';

export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const answer = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? new ApiError('99936') : new ApiError('99931');
  void reply.status(answer.status).send(answer.toBody());
}
