// A stand-in server for stories and console tests: a `fetch` that answers the declared operations
// from handlers, plugged into the REAL transport (headers, error mapping, the 401 rule). No network.
import { setTransport, type OperationId } from '../../generated/client.gen.ts';
import { operations } from '../../generated/operations.gen.ts';
import { createTransport } from '../api/transport.ts';

export interface StubRequest {
  operation: OperationId;
  method: string;
  url: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * An answer with a status: `reply(401, { code: '99996', message: '…' })`. A class, not a plain
 * object, so Storybook's parameter merging does not blend it with a meta-level answer.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
export const reply = (status: number, body: unknown): Reply => new Reply(status, body);
export const apiError = (status: number, code: string, message = 'error', errors?: unknown[]) => reply(status, { code, message, ...(errors ? { errors } : {}) });
/** Makes the request fail as if the connection dropped. */
export const NETWORK_DOWN = Symbol('network');

export type Handler = (req: StubRequest) => unknown | Promise<unknown>;
export type Handlers = Partial<Record<OperationId, Handler | unknown>>;

const matchers = operations.map((op) => {
  const names: string[] = [];
  const pattern = op.path.replace(/\{(\w+)\}/g, (_, n: string) => {
    names.push(n);
    return '([^/]+)';
  });
  return { op, names, re: new RegExp(`^${pattern}$`) };
});

/** Every request the stub answered, newest last (reset by `installStubApi`). */
export const apiCalls: StubRequest[] = [];

export function callsTo(operation: OperationId): StubRequest[] {
  return apiCalls.filter((c) => c.operation === operation);
}

export function stubFetch(handlers: Handlers): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://console.test');
    const method = (init?.method ?? 'GET').toUpperCase();
    // Like the server's router: a literal path (/v1/deployments/history) wins over a parameter (/v1/deployments/{id}).
    const found = matchers.filter((m) => m.op.method === method && m.re.test(url.pathname)).sort((a, b) => a.names.length - b.names.length)[0];
    const headers = Object.fromEntries(Object.entries((init?.headers as Record<string, string>) ?? {}));
    if (!found) return json(404, { code: '99936', message: `No operation for ${method} ${url.pathname}` });
    const values = found.re.exec(url.pathname)!.slice(1);
    let body: unknown;
    if (typeof init?.body === 'string') body = JSON.parse(init.body);
    else if (init?.body) body = init.body;
    const req: StubRequest = {
      operation: found.op.id as OperationId,
      method,
      url: url.pathname + url.search,
      params: Object.fromEntries(found.names.map((n, i) => [n, decodeURIComponent(values[i])])),
      query: Object.fromEntries(url.searchParams),
      body,
      headers,
    };
    apiCalls.push(req);
    const handler = handlers[req.operation];
    if (handler === undefined) return json(404, { code: '99936', message: `Not stubbed: ${req.operation}` });
    const answer = typeof handler === 'function' ? await (handler as Handler)(req) : handler;
    if (answer === NETWORK_DOWN) throw new TypeError('Failed to fetch');
    if (answer instanceof Reply) return json(answer.status, answer.body);
    // A file (an operation that produces binary) goes back as its bytes.
    if (answer instanceof Blob) return new Response(answer, { status: 200, headers: { 'content-type': answer.type } });
    return json(200, answer ?? {});
  }) as typeof fetch;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export function installStubApi(handlers: Handlers = {}): void {
  apiCalls.length = 0;
  setTransport(createTransport({ fetch: stubFetch(handlers) }));
}
