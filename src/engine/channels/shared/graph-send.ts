// One Graph send request (WhatsApp Cloud and Messenger share the transport and the answer shape):
// a transport failure or a transient HTTP status is a retry, a 2xx with the message id is
// accepted, and a Graph error object is handed back for the platform's own refusal mapping.
import type { SubmitOutcome } from '../../channel-adapter.ts';
import { parseGraphError, type GraphError } from './graph-error.ts';
import { isTransientStatus, requestJson, retryAfterMs, TransportError } from './http-client.ts';
import { STATUS_DISPATCH_ERROR } from '../whatsapp/errors.ts';

export type GraphSendResult = { outcome: SubmitOutcome } | { error: GraphError; retryAfterMs: number | undefined };

export async function postToGraph(options: {
  url: string;
  /** Sent as a Bearer header, never in the query, so it stays out of access logs. */
  token: string;
  body: unknown;
  timeoutMs: number;
  /** Where the answer carries the message id (`messages[0].id` for WhatsApp, `message_id` for Messenger). */
  messageIdOf: (body: unknown) => unknown;
}): Promise<GraphSendResult> {
  let answer;
  try {
    answer = await requestJson({ method: 'POST', url: options.url, headers: { authorization: `Bearer ${options.token}` }, body: options.body, timeoutMs: options.timeoutMs });
  } catch (error) {
    // Graph has no idempotency key: after a timeout the message may have gone out. The engine's
    // retry policy decides; the reason says which case it was.
    if (error instanceof TransportError) return { outcome: { kind: 'retry', reason: error.message } };
    throw error;
  }
  if (answer.status >= 200 && answer.status < 300) {
    const id = options.messageIdOf(answer.body);
    if (typeof id === 'string' && id) return { outcome: { kind: 'accepted', providerMessageId: id } };
    return { outcome: { kind: 'failed', statusCode: STATUS_DISPATCH_ERROR, reason: `Graph answered ${answer.status} without a message id` } };
  }
  const error = parseGraphError(answer.body);
  if (error) return { error, retryAfterMs: retryAfterMs(answer.headers) };
  if (isTransientStatus(answer.status)) return { outcome: { kind: 'retry', reason: `Graph answered HTTP ${answer.status}`, afterMs: retryAfterMs(answer.headers) } };
  return { outcome: { kind: 'failed', statusCode: STATUS_DISPATCH_ERROR, errorCode: `http${answer.status}`, reason: `Graph answered HTTP ${answer.status}` } };
}
