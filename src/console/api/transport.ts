// The one place where the console talks HTTP: the generated client calls `transport(id, args)`;
// this file turns the operation table into requests, adds the auth and component headers
// (spec 7), turns error answers into ApiError, and applies the 401 rule (spec 8).
import { setTransport, type Transport } from '../../generated/client.gen.ts';
import type { operations } from '../../generated/operations.gen.ts';
import { getComponent, resetAction } from './component.ts';
import { ApiError, NETWORK, type FieldProblem } from './errors.ts';
import { dropSession, getSession } from './session.ts';

export interface RequestArgs {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  form?: FormData;
  /** Multipart uploads only: called with the sent fraction (0..1). */
  onUploadProgress?: (fraction: number) => void;
}

type Operation = (typeof operations)[number];

// The operation table loads with the first call, or with the first route that is not a first-load
// page (RouteScreen awaits operationsReady): the sign-in page draws before it.
let byId: Map<string, Operation> | null = null;
let loading: Promise<Map<string, Operation>> | null = null;

function table(): Promise<Map<string, Operation>> {
  loading ??= import('../../generated/operations.gen.ts').then(({ operations: all }) => (byId = new Map<string, Operation>(all.map((o) => [o.id, o]))));
  return loading;
}

/** Resolves once the operation table is at hand (operationById may be called from then on). */
export const operationsReady = (): Promise<void> => table().then(() => undefined);

/**
 * An operation's entry, once the table has loaded. Before, this throws rather than answer
 * "unknown": a permission read from a missing entry would be no permission at all.
 */
export function operationById(id: string): Operation | undefined {
  if (!byId) throw new Error(`operation table not loaded yet (${id}): await operationsReady() first`);
  return byId.get(id);
}

/** Calls that answer 401 for a wrong password rather than an expired session. */
const NOT_SESSION_CALLS = new Set(['clientAuth.validate', 'clientAuth.signin']);

/** Routes whose first segment is Client use the client token header (spec 2 and 7). */
export const isClientPath = (pathname: string) => pathname.split('/')[1] === 'Client';

const METHOD_ACTION: Record<string, string> = { GET: 'view', POST: 'create', PUT: 'edit', PATCH: 'edit', DELETE: 'delete' };

// --- the 401 rule -----------------------------------------------------------------------------

let expiredHandler: () => void = () => {
  if (typeof window !== 'undefined') window.location.assign('/signin?expired=true');
};
let expiredFlag = false;

/** The router registers how to go to /signin?expired=true without a page load. */
export function onSessionExpired(handler: () => void): () => void {
  const previous = expiredHandler;
  expiredHandler = handler;
  return () => {
    expiredHandler = previous;
  };
}

/** True once a 401 dropped the session, until the next sign-in: guards then add ?expired=true. */
export const sessionWasExpired = () => expiredFlag;
export const clearExpiredFlag = () => {
  expiredFlag = false;
};

export function expireSession(): void {
  expiredFlag = true;
  dropSession();
  expiredHandler();
}

// --- requests ---------------------------------------------------------------------------------

export function buildUrl(path: string, params: Record<string, unknown> = {}, query: Record<string, unknown> = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) v.forEach((x) => search.append(k, String(x)));
    else search.append(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}

export function requestHeaders(op: Pick<Operation, 'method'>, pathname: string, language?: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const user = getSession();
  if (user) {
    if (isClientPath(pathname)) headers['X-Client-Token'] = user.token;
    else {
      headers['X-Auth-Token'] = user.token;
      headers.Authorization = `Bearer ${user.token}`;
    }
  }
  const component = getComponent();
  if (component.id !== null) headers['X-Component-Id'] = String(component.id);
  if (component.name) headers['X-Component-Name'] = component.name;
  headers['X-Component-Action'] = component.action !== 'view' ? component.action : (METHOD_ACTION[op.method] ?? 'view');
  if (language) headers['Accept-Language'] = language;
  return headers;
}

interface RawResponse { status: number; statusText: string; contentType: string; text?: string; blob?: Blob }

function sendXhr(method: string, url: string, headers: Record<string, string>, form: FormData, onProgress: (f: number) => void): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, statusText: xhr.statusText, contentType: xhr.getResponseHeader('content-type') ?? '', text: xhr.responseText });
    xhr.onerror = () => reject(new TypeError('Network Error'));
    xhr.send(form);
  });
}

async function sendFetch(fetchImpl: typeof fetch, method: string, url: string, headers: Record<string, string>, body: BodyInit | undefined, binary: boolean): Promise<RawResponse> {
  const res = await fetchImpl(url, { method, headers, body, credentials: 'same-origin' });
  const contentType = res.headers.get('content-type') ?? '';
  if (binary && res.ok) return { status: res.status, statusText: res.statusText, contentType, blob: await res.blob() };
  return { status: res.status, statusText: res.statusText, contentType, text: await res.text() };
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface TransportOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  /** The current location's path, to choose the client-token header. */
  pathname?: () => string;
  language?: () => string;
}

export function createTransport(options: TransportOptions = {}): Transport {
  const baseUrl = options.baseUrl ?? '';
  const pathname = options.pathname ?? (() => (typeof window === 'undefined' ? '/' : window.location.pathname));
  const run = async (id: string, rawArgs: unknown): Promise<unknown> => {
    const op = (await table()).get(id);
    if (!op) throw new Error(`Unknown operation ${id}`);
    const args = (rawArgs ?? {}) as RequestArgs;
    const url = baseUrl + buildUrl(op.path, args.params, args.query);
    const headers = requestHeaders(op, pathname(), options.language?.());
    let raw: RawResponse;
    try {
      if (args.form && args.onUploadProgress && !options.fetch && typeof XMLHttpRequest !== 'undefined') {
        raw = await sendXhr(op.method, url, headers, args.form, args.onUploadProgress);
      } else {
        let body: BodyInit | undefined;
        if (args.form) body = args.form;
        else if (args.body !== undefined) {
          body = JSON.stringify(args.body);
          headers['Content-Type'] = 'application/json';
        }
        raw = await sendFetch(options.fetch ?? fetch, op.method, url, headers, body, op.produces === 'binary');
        args.onUploadProgress?.(1);
      }
    } catch {
      throw new ApiError({ status: 0, code: NETWORK, message: 'Network Error', operation: id });
    }
    if (raw.status >= 200 && raw.status < 300) {
      resetAction();
      return raw.blob ?? parseJson(raw.text) ?? {};
    }
    const answer = (parseJson(raw.text) ?? {}) as { code?: unknown; message?: unknown; errors?: FieldProblem[] };
    const error = new ApiError({
      status: raw.status,
      code: typeof answer.code === 'string' ? answer.code : 'm1',
      message: typeof answer.message === 'string' ? answer.message : raw.statusText,
      errors: Array.isArray(answer.errors) ? answer.errors : [],
      operation: id,
    });
    if (raw.status === 401 && !NOT_SESSION_CALLS.has(id)) expireSession();
    throw error;
  };
  return run as Transport;
}

export function installTransport(options?: TransportOptions): void {
  setTransport(createTransport(options));
}
