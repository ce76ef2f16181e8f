// Registers every declared operation (src/generated/server-operations.gen.ts) with its schemas,
// its access rule and its handler. Sandbox-only operations exist only in sandbox/demo mode.
import { fail } from '../errors/api-error.ts';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { constants } from '../../generated/constants.gen.ts';
import { serverOperations, type ServerOperation } from '../../generated/server-operations.gen.ts';
import type { OperationId } from '../../generated/operations.gen.ts';
import { resolveApiKey, apiKeyFromHeaders } from '../auth/api-keys.ts';
import { notify } from '../security/credential-notices.ts';
import { authorize } from '../auth/authorize.ts';
import { resolveToken } from '../auth/session-store.ts';
import { openSandboxDoor } from '../auth/sandbox-door.ts';
import type { ServerDeps, Session } from '../context.ts';
import { parseApiKey } from '../security/api-keys.ts';
import { tokenFromHeaders } from '../security/tokens.ts';
import type { ThrottleHookFor } from '../security/throttle.ts';
import type { BinaryResult, Handler, HandlerMap } from './handler.ts';

const ERROR_SCHEMA = { $ref: 'api-error#' };

// Each route carries its operation id (the audit log reads it).
declare module 'fastify' {
  interface FastifyContextConfig { operationId?: string }
}

/** "/v1/clients/{id}" -> "/v1/clients/:id" */
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

export function operationsFor(sandbox: boolean): ServerOperation[] {
  return serverOperations.filter((op) => sandbox || !op.sandbox);
}

/** Throws when a declared operation has no handler (the type check normally catches it first). */
export function assertHandlersComplete(map: Partial<Record<string, unknown>>): void {
  const missing = serverOperations.filter((op) => typeof map[op.id] !== 'function').map((op) => op.id);
  if (missing.length) throw new Error(`operations without a handler: ${missing.join(', ')}`);
}

function schemaOf(op: ServerOperation): FastifySchema {
  const schema: FastifySchema = {};
  if (op.params) schema.params = op.params;
  if (op.query) schema.querystring = op.query;
  // Node hands headers over with lowercase names, and Fastify leaves the schema to a custom
  // validator compiler (ours) as it is, so the declared names (Idempotency-Key) go lowercase here.
  if (op.headers) schema.headers = { ...op.headers, properties: Object.fromEntries(Object.entries(op.headers.properties).map(([name, s]) => [name.toLowerCase(), s])) };
  if (op.body) schema.body = op.body;
  const response: Record<string, unknown> = { '4xx': ERROR_SCHEMA, '5xx': ERROR_SCHEMA };
  if (op.response) response['200'] = op.response;
  schema.response = response;
  return schema;
}

/** The caller a request presents: a session token wins; without one, an API key from an authorised IP. */
async function callerOf(deps: ServerDeps, request: FastifyRequest): Promise<Session | null> {
  const presented = tokenFromHeaders(request.headers);
  // An API key may come as `Authorization: Bearer ck_…` (the sending API) or X-Api-Key.
  const bearerKey = presented && parseApiKey(presented) ? presented : null;
  const token = bearerKey ? null : presented;
  const apiKey = token ? null : (bearerKey ?? apiKeyFromHeaders(request.headers));
  if (token) return resolveToken(deps.db, token, deps.now());
  // A good key from an address the company did not authorise (status 96) warns the company's notification e-mail.
  return apiKey ? resolveApiKey(deps.db, apiKey, request.ip, deps.now(), (c) => notify(deps, request.log, c.companyId, `presentada desde ${c.ip}, una dirección no autorizada (estado 96, IP de origen inválida), y rechazada`, c)) : null;
}

/** The largest file a multipart operation takes: its generated uploadLimit (a constants.uploads key, the default resolved by the generator). */
export function uploadLimitOf(op: { uploadLimit: string | null }): number {
  const limit = op.uploadLimit ? (constants.uploads as Record<string, unknown>)[op.uploadLimit] : undefined;
  if (typeof limit !== 'number') throw new Error(`upload limit "${op.uploadLimit}" is not a number under uploads`);
  return limit;
}

export function registerOperations(app: FastifyInstance, deps: ServerDeps, handlers: HandlerMap, throttleHookFor: ThrottleHookFor = () => null): void {
  assertHandlersComplete(handlers);
  for (const op of operationsFor(deps.sandbox)) {
    const handler = handlers[op.id as OperationId] as Handler<OperationId>;
    // Declared `throttle:`: the class's limits per client IP and per account.
    const throttle = throttleHookFor(op);
    app.route({
      method: op.method,
      url: fastifyPath(op.path),
      schema: schemaOf(op),
      config: { operationId: op.id },
      // Multipart uploads stream past the JSON body limit, up to the operation's declared
      // uploadLimit (default the campaign file's 20 MB; a flow's training file 200 MB); each
      // handler limits its own file within it (pictures 2 MB).
      ...(op.multipart ? { bodyLimit: uploadLimitOf(op) + 64 * 1024 } : {}),
      // Who may call is decided before the body is read or validated.
      onRequest: async (request) => {
        if (op.access === 'public' && !op.sandbox) return;
        request.session = await callerOf(deps, request);
        // An API key works on the operations that declare it (the sending API), nowhere else.
        if (request.session?.credentialId && !(op.credentials as readonly string[]).includes('apiKey')) throw fail('99982', 'API keys work on the sending API only (POST /v1/messages, GET /v1/messages/{id}, POST /v1/events/{key}/fire); sign in to the console for the rest.');
        // Sandbox operations (demo mode only) are public for the machine itself, not for the network.
        if (op.sandbox) openSandboxDoor(request, request.session, op.id !== 'system.outbox' || deps.sandboxOutboxOpen === true);
        authorize(op, request.session, request.params, request.query);
      },
      ...(throttle ? { preValidation: throttle } : {}),
      handler: async (request, reply) => {
        const result = await handler({
          params: request.params as never,
          query: request.query as never,
          body: request.body as never,
          session: request.session,
          deps,
          request,
          reply,
        });
        if (op.produces === 'binary') {
          const file = result as unknown as BinaryResult;
          return reply
            .header('content-type', file.contentType)
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', "default-src 'none'")
            .header('cache-control', `private, max-age=${file.cacheSeconds ?? 0}`)
            .send(file.bytes instanceof Uint8Array ? Buffer.from(file.bytes) : file.bytes);
        }
        return result;
      },
    });
  }
}
