// One HTTP request to a URL a company typed (a status callback, a flow's integration step). Outside
// the sandbox it only reaches public addresses, checked on the socket's own DNS answer
// (public-address.ts), follows no redirect, has a deadline, and reads at most `maxBytes` of the
// answer. node:http rather than fetch: it takes the guarded lookup.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { PrivateAddressError, privateHostReason, publicOnlyLookup } from './public-address.ts';

export interface CompanyUrlRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Bytes of the answer kept (0: the body is not read: only the status counts). */
  maxBytes: number;
}

export interface CompanyUrlAnswer { status: number; contentType: string; body: Buffer }

/** The answer, whatever its status; throws PrivateAddressError, a timeout (TimeoutError/AbortError) or a network error. */
export function requestCompanyUrl(r: CompanyUrlRequest): Promise<CompanyUrlAnswer> {
  return new Promise((resolve, reject) => {
    const hostReason = r.allowPrivateNetworks ? null : privateHostReason(r.url.hostname);
    if (hostReason) return reject(new PrivateAddressError(r.url.hostname, hostReason));
    if (r.url.protocol !== 'http:' && r.url.protocol !== 'https:') return reject(new Error(`unsupported protocol ${r.url.protocol}`));
    const send = r.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(r.url, {
      method: r.method,
      headers: { ...r.headers, ...(r.body === null ? {} : { 'content-length': String(Buffer.byteLength(r.body)) }) },
      signal: AbortSignal.timeout(r.timeoutMs),
      ...(r.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
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
