// A flow's integration step reaches the company's own systems: the call is made like
// a status callback (company-url-request.ts: only where the outbound policy lets it, no
// redirects, a deadline), with the step's method, content type and body, and its answer read up to
// MAX_ANSWER_BYTES — parsed as JSON when it is JSON, else kept as text — for the step's access path.
import type { IntegrationCaller } from '../../engine/conversations/index.ts';
import { requestCompanyUrl, requestFailure } from './company-url-request.ts';
import type { OutboundPolicy } from '../security/outbound-guard.ts';

export const MAX_ANSWER_BYTES = 256 * 1024;

function parse(text: string, contentType: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return /json/i.test(contentType) ? null : text;
  }
}

export function integrationCaller(options: { outbound: OutboundPolicy }): IntegrationCaller {
  return async (request) => {
    const timeoutMs = Math.max(1, Math.min(60, request.timeoutSeconds)) * 1000;
    const hasBody = request.body !== null && request.method !== 'GET' && request.method !== 'DELETE';
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new Error('not a valid URL');
    }
    try {
      const answer = await requestCompanyUrl({
        method: request.method, url, timeoutMs, policy: options.outbound, maxBytes: MAX_ANSWER_BYTES,
        headers: { accept: 'application/json, text/plain;q=0.8, */*;q=0.5', 'user-agent': 'Colibri-Flows/1', ...(hasBody ? { 'content-type': request.contentType } : {}) },
        body: hasBody ? request.body : null,
      });
      return { status: answer.status, body: parse(answer.body.toString('utf8'), answer.contentType) };
    } catch (error) {
      const failure = new Error(requestFailure(error, timeoutMs), { cause: error });
      // The engine words an unanswered call apart from an unreachable one (conversations/notes.ts).
      const name = (error as Error | undefined)?.name;
      if (name === 'AbortError' || name === 'TimeoutError') failure.name = 'TimeoutError';
      throw failure;
    }
  };
}
