// WhatsApp Cloud API error codes → what the dispatcher does with the message (research
// protocols.md 2.8). The Meta code is what the outcome and the status event carry (errorCode);
// the spec's legacy code (470, 1013, 2001 …) that reports show comes from the catalogue in
// config/errors.yaml through whatsappReportCode, so the table lives in one place.
import { smsStateByName } from '../../../generated/enums.gen.ts';
import { whatsappErrors } from '../../../generated/errors.gen.ts';
import type { SubmitOutcome } from '../../channel-adapter.ts';
import { describeGraphError, type GraphError } from '../shared/graph-error.ts';

/** Spec SMS status codes used for refused messages (schemas/enums/sms-state.yaml). */
export const STATUS_REQUEST_ERROR = smsStateByName.requestError;
export const STATUS_DISPATCH_ERROR = smsStateByName.dispatchError;
export const STATUS_INVALID = smsStateByName.invalid;

/** Throttling and transient codes, with the wait before the next attempt when Meta sends no Retry-After. */
const retryAfter: Record<number, number> = {
  130429: 1_000, // throughput above the number's mps
  131056: 6_000, // (business, consumer) pair rate limit: about one message per 6 s per user
  131057: 60_000, // account in maintenance / throughput upgrade
  4: 60_000, // app rate limit
  80007: 60_000, // WABA rate limit
  613: 60_000, // API calls rate limit
  2: 5_000, // service temporarily unavailable
  131016: 5_000, // service overloaded
};

/** Codes that are the provider's throughput limits (ours, the number's, the account's): the message overflowed. */
const throughputLimits = new Set([130429, 131056, 4, 80007, 613]);
/** Codes by which Meta refuses our credentials or our account (expired token, locked or blocked account). */
const refusedAccount = new Set([190, 131031, 368]);

/** Codes that name a bad recipient rather than a bad request. */
const invalidRecipient = new Set([131026, 131030]);
/** Codes that say our request was malformed (parameters, lengths, types). */
const badRequest = new Set([100, 131008, 131009, 131051, 132000, 132005, 132007, 132012]);

export const TOKEN_EXPIRED = 190;

const reportCodes: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [code, entry] of Object.entries(whatsappErrors) as [string, { cloud: readonly string[]; mapsTo: string | null }][]) {
    for (const cloud of entry.cloud) map.set(cloud, code);
    if (entry.mapsTo) map.set(code, entry.mapsTo);
  }
  return map;
})();

/**
 * The code a report shows for a WhatsApp error: the spec's code when the catalogue maps the
 * Meta code onto one (131047 → 470, 131026 → 1013, 132001/132015/132016 → 2001), otherwise the
 * Meta code itself. Spec codes pass through unchanged.
 */
export function whatsappReportCode(errorCode: string): string {
  return reportCodes.get(errorCode) ?? errorCode;
}

export function isRetryableWhatsAppCode(code: number): boolean {
  return code in retryAfter;
}

/** The outcome of a refused send, from Graph's error (null when the body was not one). */
export function whatsappRefusal(error: GraphError, retryAfterHeaderMs?: number): SubmitOutcome {
  const reason = describeGraphError(error);
  if (error.code in retryAfter) return { kind: 'retry', reason, afterMs: retryAfterHeaderMs ?? retryAfter[error.code], ...(throughputLimits.has(error.code) ? { overflow: true } : {}) };
  const statusCode = invalidRecipient.has(error.code) ? STATUS_INVALID : badRequest.has(error.code) ? STATUS_REQUEST_ERROR : STATUS_DISPATCH_ERROR;
  return { kind: 'failed', statusCode, errorCode: String(error.code), reason, ...(refusedAccount.has(error.code) ? { unauthorized: true } : {}) };
}
