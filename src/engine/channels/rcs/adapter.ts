// Google RCS Business Messaging adapter: agentMessages.create per message, with a messageId
// derived from our message id so a resend is ignored by Google (idempotent). 404 means the
// phone cannot get RCS from this agent: the outcome is `fallback` and the dispatcher sends SMS.
import type { ChannelAdapter, OutboundMessage, SubmitOutcome } from '../../channel-adapter.ts';
import {
  ConcurrencyLimit, DEFAULT_MAX_CONCURRENT, DEFAULT_TIMEOUT_MS, drain, isTransientStatus, requestJson, retryAfterMs, TransportError,
  type HttpAdapterOptions, type HttpAnswer,
} from '../shared/http-client.ts';
import { STATUS_DISPATCH_ERROR, STATUS_REQUEST_ERROR } from '../whatsapp/errors.ts';
import { rbmMessageId, rbmRequestId } from './message-id.ts';
import type { AccessTokenProvider } from './service-account-token.ts';

export const RBM_BASE_URL = 'https://rcsbusinessmessaging.googleapis.com';
/** RBM's limit on a text message, in characters. */
export const RCS_TEXT_MAX = 3072;

export interface RcsAdapterConfig extends HttpAdapterOptions {
  /** RBM_BASE_URL (or a regional host) in production, the stand-in's url in tests. */
  baseUrl: string;
  /** The RBM agent id (the channel's sender). */
  agentId: string;
  /** Bearer tokens: serviceAccountTokenProvider(...) in production. */
  accessToken: AccessTokenProvider;
}

export type RcsCapability =
  | { capable: true; features: string[] }
  | { capable: false; reason: string }
  /** The check itself failed (throttled, down): unknown, ask again later. */
  | { capable: undefined; reason: string };

export interface RcsAdapter extends ChannelAdapter {
  /** capabilities.get: whether `phone` (E.164) can get RCS from this agent now. */
  capabilities(phone: string): Promise<RcsCapability>;
}

interface GoogleError { code?: number; status?: string; message?: string }
const googleError = (body: unknown): GoogleError => ((body as { error?: GoogleError } | null)?.error ?? {});
const describe = (answer: HttpAnswer) => {
  const e = googleError(answer.body);
  return `RBM answered ${answer.status}${e.status ? ` ${e.status}` : ''}${e.message ? `: ${e.message}` : ''}`;
};

export function createRcsAdapter(config: RcsAdapterConfig): RcsAdapter {
  const limit = new ConcurrencyLimit(config.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  const base = config.baseUrl.replace(/\/+$/, '');
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agent = encodeURIComponent(config.agentId);
  let closed = false;
  let alerted = false;

  /** One authorised call; a 401 gets one more try with a fresh token. */
  async function call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<HttpAnswer | { tokenFailure: string }> {
    for (let attempt = 0; ; attempt++) {
      let token: string;
      try {
        token = await config.accessToken(attempt > 0);
      } catch (error) {
        if (!alerted) {
          alerted = true;
          config.onAlert?.({ platform: 'rcs', kind: 'unauthorized', reason: `agent ${config.agentId}: ${(error as Error).message}` });
        }
        return { tokenFailure: (error as Error).message };
      }
      const answer = await requestJson({ method, url, headers: { authorization: `Bearer ${token}` }, body, timeoutMs });
      if (answer.status !== 401 || attempt > 0) return answer;
    }
  }

  async function sendOne(message: OutboundMessage): Promise<SubmitOutcome> {
    if (closed) return { kind: 'retry', reason: 'the RCS adapter is closing' };
    if (message.template) return { kind: 'failed', statusCode: STATUS_REQUEST_ERROR, reason: 'RCS has no WhatsApp templates: send text' };
    const text = message.text ?? '';
    if (text.trim() === '') return { kind: 'failed', statusCode: STATUS_REQUEST_ERROR, reason: 'an RCS message needs a text' };
    if (Array.from(text).length > RCS_TEXT_MAX) return { kind: 'failed', statusCode: STATUS_REQUEST_ERROR, reason: `text longer than RBM's ${RCS_TEXT_MAX} characters` };
    if (!/^\+\d{6,15}$/.test(message.to)) return { kind: 'failed', statusCode: STATUS_REQUEST_ERROR, reason: `not an E.164 phone number: ${message.to}` };
    const messageId = rbmMessageId(message.id);
    const url = `${base}/v1/phones/${message.to}/agentMessages?messageId=${messageId}&agentId=${agent}`;
    let answer;
    try {
      answer = await call('POST', url, { contentMessage: { text } });
    } catch (error) {
      // Safe to retry: the same messageId makes Google ignore a second create.
      if (error instanceof TransportError) return { kind: 'retry', reason: error.message };
      throw error;
    }
    if ('tokenFailure' in answer) return { kind: 'retry', reason: `no RBM access token: ${answer.tokenFailure}`, afterMs: 60_000 };
    if (answer.status >= 200 && answer.status < 300) return { kind: 'accepted', providerMessageId: messageId };
    const reason = describe(answer);
    if (answer.status === 404) return { kind: 'fallback', reason };
    // 429 is RBM's quota for the agent (overflow); 401 after a fresh token and 403 refuse the agent itself.
    if (isTransientStatus(answer.status)) return { kind: 'retry', reason, afterMs: retryAfterMs(answer.headers), ...(answer.status === 429 ? { overflow: true } : {}) };
    const errorCode = googleError(answer.body).status ?? `http${answer.status}`;
    return { kind: 'failed', statusCode: answer.status === 400 ? STATUS_REQUEST_ERROR : STATUS_DISPATCH_ERROR, errorCode, reason, ...(answer.status === 401 || answer.status === 403 ? { unauthorized: true } : {}) };
  }

  return {
    platform: 'rcs',
    submit: (messages) => Promise.all(messages.map((m) => limit.run(() => sendOne(m)))),
    async capabilities(phone) {
      if (!/^\+\d{6,15}$/.test(phone)) return { capable: false, reason: `not an E.164 phone number: ${phone}` };
      const url = `${base}/v1/phones/${phone}/capabilities?requestId=${rbmRequestId()}&agentId=${agent}`;
      let answer;
      try {
        answer = await limit.run(() => call('GET', url));
      } catch (error) {
        if (error instanceof TransportError) return { capable: undefined, reason: error.message };
        throw error;
      }
      if ('tokenFailure' in answer) return { capable: undefined, reason: `no RBM access token: ${answer.tokenFailure}` };
      if (answer.status === 200) {
        const features = (answer.body as { features?: unknown } | null)?.features;
        return { capable: true, features: Array.isArray(features) ? features.filter((f): f is string => typeof f === 'string') : [] };
      }
      if (answer.status === 404) return { capable: false, reason: describe(answer) };
      return { capable: undefined, reason: describe(answer) };
    },
    async close() {
      closed = true;
      await drain(limit);
    },
  };
}
