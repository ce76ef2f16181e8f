// Messenger Send API error codes → outcome (research protocols.md 3). The Graph code is kept as
// errorCode; there is no spec code to map onto.
import type { SubmitOutcome } from '../../channel-adapter.ts';
import { describeGraphError, type GraphError } from '../shared/graph-error.ts';
import { STATUS_DISPATCH_ERROR, STATUS_INVALID, STATUS_REQUEST_ERROR } from '../whatsapp/errors.ts';

/** Outside the 24-hour window (subcode 2018278): only a message tag may go now. */
export const MESSENGER_OUTSIDE_WINDOW = 10;
export const MESSENGER_TOKEN_EXPIRED = 190;

const retryAfter: Record<number, number> = { 613: 60_000, 4: 60_000, 32: 60_000, 2: 5_000, 1200: 5_000 };
/** The person is not reachable by this page: blocked it, deleted the account, no such PSID. */
const invalidRecipient = new Set([551, 2018001, 2018108]);
const badRequest = new Set([100]);
/** Rate limits: the message overflowed the page's or the app's throughput. */
const throughputLimits = new Set([613, 4, 32]);
/** Our page token refused (expired, or the page lost the permission to message). */
const refusedAccount = new Set([MESSENGER_TOKEN_EXPIRED, 200]);

export function messengerRefusal(error: GraphError, retryAfterHeaderMs?: number): SubmitOutcome {
  const reason = describeGraphError(error);
  if (error.code in retryAfter) return { kind: 'retry', reason, afterMs: retryAfterHeaderMs ?? retryAfter[error.code], ...(throughputLimits.has(error.code) ? { overflow: true } : {}) };
  const statusCode = invalidRecipient.has(error.code) ? STATUS_INVALID : badRequest.has(error.code) ? STATUS_REQUEST_ERROR : STATUS_DISPATCH_ERROR;
  return { kind: 'failed', statusCode, errorCode: String(error.code), reason, ...(refusedAccount.has(error.code) ? { unauthorized: true } : {}) };
}
