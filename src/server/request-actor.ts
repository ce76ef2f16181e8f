// Who a request acted as, when the handler knows it and the request has no session: a sign-in
// names the account it tried. The audit log's recorder (audit/hook.ts) reads it instead of looking
// the account up again by e-mail.
import type { FastifyRequest } from 'fastify';

export interface RequestActor { companyId: number; userId: number; email: string }

const ACTOR = Symbol('request actor');
type Noted = FastifyRequest & { [ACTOR]?: RequestActor };

/** Notes the account a sign-in tried. */
export function noteSigninAccount(request: FastifyRequest, user: { id: number; company_id: number; email: string }): void {
  (request as Noted)[ACTOR] = { companyId: user.company_id, userId: user.id, email: user.email };
}

/** The account a handler noted, if any. */
export const notedActor = (request: FastifyRequest): RequestActor | undefined => (request as Noted)[ACTOR];
