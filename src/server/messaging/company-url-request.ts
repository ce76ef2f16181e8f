// One HTTP request to a URL a company typed (a status callback, a flow's integration step). It goes
// only where the outbound policy lets it (outbound-guard.ts: public addresses; in the sandbox its
// allowed stand-ins; never this server's own ports or sandbox paths), to the very address checked
// (pinned: no second DNS answer), follows no redirect, has a deadline, and reads at most
// `maxBytes` of the answer. node:http rather than fetch: it takes the pinned lookup.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, portOf, type OutboundPolicy } from '../security/outbound-guard.ts';
import { PrivateAddressError } from '../security/public-address.ts';

export interface CompanyUrlRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  /** Where the request may go (outbound-guard.ts). */
  policy: OutboundPolicy;
  /** Bytes of the answer kept (0: the body is not read: only the status counts). */
  maxBytes: number;
}

export interface CompanyUrlAnswer { status: number; contentType: string; body: Buffer }

/** The answer, whatever its status; throws PrivateAddressError, a timeout (TimeoutError/AbortError) or a network error. */
export async function requestCompanyUrl(r: CompanyUrlRequest): Promise<CompanyUrlAnswer> {
  const refusal = r.policy.urlRefusal(r.url);
  if (refusal) throw new PrivateAddressError(r.url.hostname, refusal);
  const target = await r.policy.resolveTarget(r.url.hostname, portOf(r.url));
  return new Promise((resolve, reject) => {
    const send = r.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(r.url, {
      method: r.method,
      headers: { ...r.headers, ...(r.body === null ? {} : { 'content-length': String(Buffer.byteLength(r.body)) }) },
      signal: AbortSignal.timeout(r.timeoutMs),
      lookup: pinnedLookup(target),
    }, (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const contentType = String(response.headers['content-type'] ?? '');
      if (r.maxBytes === 0) {
        response.resume();
        return resolve({ status, contentType, body: Buffer.alloc(0) });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size >= r.maxBytes) return;
        chunks.push(chunk.subarray(0, r.maxBytes - size));
        size += chunk.length;
      });
      response.on('end', () => resolve({ status, contentType, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end(r.body ?? undefined);
  });
}

/** A failed request in words for a log, an incident or a callback's last error. */
export function requestFailure(error: unknown, timeoutMs: number): string {
  const e = error as Error & { code?: string; cause?: { code?: string } };
  if (e instanceof PrivateAddressError) return `refused: ${e.message}`;
  if (e.name === 'AbortError' || e.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return `request failed: ${e.code ?? e.cause?.code ?? e.message}`;
}
