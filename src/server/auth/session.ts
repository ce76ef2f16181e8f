// The caller as every handler and access rule sees it, once a token or an API key is proven
// (auth/session-store.ts, auth/api-keys.ts).
import type { Grant } from '../../core/permissions.ts';
import type { UserScope } from '../../generated/types.gen.ts';

/** The caller, resolved from a valid token. */
export interface Session {
  /** 0 when the caller authenticated with an API key (there is no session token to revoke). */
  tokenId: number;
  /** The API credential used, when the caller authenticated with X-Api-Key. */
  credentialId?: string;
  userId: number;
  companyId: number;
  /** The user's e-mail as it is now (the audit log records it with every change they make). */
  email: string;
  state: string;
  companyState: string;
  roles: string[];
  grants: Grant[];
  /** The widest user scope among the caller's roles (auth/user-scope.ts); absent = onlyMe. */
  scope?: UserScope;
  expiresAt: Date;
}
