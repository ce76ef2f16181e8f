// The audit log's recorder: an onResponse hook that writes one row for every declared operation
// that changes something (any method but GET) and for every sign-in and sign-out (action login /
// logout), whatever the outcome (the answer's status is recorded). It records who (user, the
// e-mail they had), where from (IP), what (method, path without the query string, operation id,
// the console's component headers) and when; never bodies, tokens or passwords. A request with no
// known company (an anonymous call, a sign-in with an unknown e-mail) is not recorded: every row
// belongs to a company. Writing runs after the answer is sent, and a failure is logged, never
// turned into the caller's error; writes still under way are awaited when the server closes, and
// app.auditSettled() awaits them on demand (tests read the log right after an answer).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerDeps } from '../context.ts';
import { unstorableReason } from '../../core/storable-text.ts';
import { findUserByEmail } from '../modules/clientAuth/users.ts';
import { cleanComponent } from './headers.ts';
import { notedActor, type RequestActor } from '../request-actor.ts';

const SIGNIN = 'clientAuth.signin';
const SIGNOUT = 'clientAuth.signout';
/** Security (component 70) declares the login and logout actions in config/menu.yaml. */
const SECURITY_COMPONENT = 70;
const PATH_MAX = 300;

const operationOf = (request: FastifyRequest) => (request.routeOptions.config as { operationId?: string } | undefined)?.operationId;

async function actor(deps: ServerDeps, request: FastifyRequest, operationId: string): Promise<RequestActor | null> {
  if (request.session) return { companyId: request.session.companyId, userId: request.session.userId, email: request.session.email };
  // A sign-in noted the account it tried (request-actor.ts): no second look-up by e-mail.
  const noted = notedActor(request);
  if (noted) return noted;
  if (operationId === SIGNIN) {
    // Only the e-mail is read from the body, to know whose sign-in (or failed try) this was.
    const email = (request.body as { email?: unknown } | undefined)?.email;
    // A sign-in refused for an e-mail the database cannot hold (a NUL in it) names nobody: looking
    // it up would only fail in the database.
    const user = typeof email === 'string' && !unstorableReason(email) ? await findUserByEmail(deps.db, email) : undefined;
    if (user) return { companyId: user.company_id, userId: user.id, email: user.email };
  }
  return null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once every audit row of the answers sent so far is written. */
    auditSettled(): Promise<void>;
  }
}

export function registerAuditLog(app: FastifyInstance, deps: ServerDeps): void {
  const pending = new Set<Promise<void>>();
  const settled = async () => { while (pending.size) await Promise.all(pending); };
  app.decorate('auditSettled', settled);
  app.addHook('onClose', settled);
  app.addHook('onResponse', async (request, reply) => {
    const operationId = operationOf(request);
    if (!operationId || (request.method === 'GET' && operationId !== SIGNOUT) || request.method === 'HEAD') return;
    const write = record(deps, request, reply.statusCode, operationId);
    pending.add(write);
    void write.finally(() => pending.delete(write));
  });
}

async function record(deps: ServerDeps, request: FastifyRequest, status: number, operationId: string): Promise<void> {
  try {
    const who = await actor(deps, request, operationId);
    if (!who) return;
    const component = cleanComponent(request.component);
    const login = operationId === SIGNIN ? 'login' : operationId === SIGNOUT ? 'logout' : null;
    await deps.db
      .insertInto('audit_log')
      .values({
        company_id: who.companyId,
        user_id: who.userId,
        user_email: who.email,
        ip: request.ip ?? null,
        method: request.method,
        path: request.url.split('?')[0].slice(0, PATH_MAX),
        operation_id: operationId,
        component_id: component.id ?? (login ? SECURITY_COMPONENT : null),
        component_name: component.name,
        component_action: login ?? component.action,
        status,
        created_at: deps.now(),
      })
      .execute();
  } catch (error) {
    request.log.error({ err: error, operationId }, 'audit log write failed');
  }
}
