// OAuth 2.0 access tokens for RBM from a Google service account: the JWT bearer grant
// (RFC 7523). We sign {iss: client_email, scope, aud: token URL, iat, exp} with the account's
// RSA key (RS256, node:crypto) and trade it at the token URL for a bearer token, cached until a
// minute before it expires. Concurrent callers share one exchange.
import { createSign } from 'node:crypto';

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const RBM_SCOPE = 'https://www.googleapis.com/auth/rcsbusinessmessaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const LIFETIME_S = 3600;
const EARLY_REFRESH_MS = 60_000;

/** Gives the current bearer token; `refresh` forces a new one (after a 401). */
export type AccessTokenProvider = (refresh?: boolean) => Promise<string>;

export interface ServiceAccount {
  /** client_email of the service-account key (the channel's clientEmail). */
  clientEmail: string;
  /** private_key of the key file, PEM (the channel's privateKey). */
  privateKey: string;
  tokenUrl?: string;
  scope?: string;
  timeoutMs?: number;
  now?: () => number;
}

export class TokenError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'TokenError';
  }
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function signServiceAccountJwt(account: ServiceAccount, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({ iss: account.clientEmail, scope: account.scope ?? RBM_SCOPE, aud: account.tokenUrl ?? GOOGLE_TOKEN_URL, iat, exp: iat + LIFETIME_S }));
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(account.privateKey);
  return `${header}.${claims}.${b64url(signature)}`;
}

export function serviceAccountTokenProvider(account: ServiceAccount): AccessTokenProvider {
  const now = account.now ?? Date.now;
  let cached: { token: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function exchange(): Promise<string> {
    const tokenUrl = account.tokenUrl ?? GOOGLE_TOKEN_URL;
    const body = new URLSearchParams({ grant_type: JWT_BEARER, assertion: signServiceAccountJwt(account, now()) });
    let response: Response;
    try {
      response = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, signal: AbortSignal.timeout(account.timeoutMs ?? 15_000) });
    } catch (error) {
      throw new TokenError(`cannot reach the token endpoint ${tokenUrl}: ${(error as Error).message}`);
    }
    const answer = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } | null;
    if (!response.ok || typeof answer?.access_token !== 'string') {
      // error/error_description are OAuth's codes ("invalid_grant"), safe to show; the assertion is not.
      throw new TokenError(`token endpoint answered ${response.status}${answer?.error ? ` ${String(answer.error)}` : ''}${answer?.error_description ? `: ${String(answer.error_description)}` : ''}`, response.status);
    }
    const lifetime = typeof answer.expires_in === 'number' ? answer.expires_in : LIFETIME_S;
    cached = { token: answer.access_token, expiresAt: now() + lifetime * 1000 - EARLY_REFRESH_MS };
    return cached.token;
  }

  return async (refresh = false) => {
    if (!refresh && cached && cached.expiresAt > now()) return cached.token;
    if (refresh) cached = null;
    pending ??= exchange().finally(() => { pending = null; });
    return pending;
  };
}
