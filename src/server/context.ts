// What handlers receive: the database, the clock, the outside-world providers, and the caller.
import type { Kysely } from 'kysely';
import type { Grant } from '../core/permissions.ts';
import type { CaptchaVerifier, MessageProvider } from '../sandbox/types.ts';
import type { UserScope } from './auth/user-scope.ts';
import type { Database } from './db/schema.ts';

export interface ServerDeps {
  db: Kysely<Database>;
  /** Every time rule (token, OTP, lock and password expiry) reads this clock, so tests can move it. */
  now: () => Date;
  messages: MessageProvider;
  captcha: CaptchaVerifier;
  /** Sandbox/demo mode: sandbox-only operations exist (system.outbox). */
  sandbox: boolean;
}

/** The caller, resolved from a valid token. */
export interface Session {
  tokenId: number;
  userId: number;
  companyId: number;
  state: string;
  companyState: string;
  roles: string[];
  grants: Grant[];
  /** The widest user scope among the caller's roles (src/server/auth/user-scope.ts); absent = onlyMe. */
  scope?: UserScope;
  expiresAt: Date;
}

/** The component headers the console sends; recorded for the audit log, never used to authorise. */
export interface ComponentHeaders { id: string | null; name: string | null; action: string | null }

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    component: ComponentHeaders;
  }
}
