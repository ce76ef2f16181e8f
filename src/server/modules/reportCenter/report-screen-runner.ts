// How a scheduled run asks a report screen's operation (report-screens.ts ScreenRunner): through
// this server's own routes, in process (Fastify's inject), with a session token of the schedule's
// author made for this one request (valid a few minutes, revoked after it). Authentication, the
// author's current permissions, the company scope, validation and the operation's refusals are the
// routes' own: a run never reads more than its author could on the screen today.
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { issueToken, revokeToken } from '../../auth/session-store.ts';
import type { ScreenRunner } from '../../../core/ports/screen-runner.ts';

const TOKEN_MS = 5 * 60_000;

export function injectedScreenRunner(app: FastifyInstance, deps: { db: Kysely<Database>; now: () => Date }): ScreenRunner {
  return async (call) => {
    const { token, tokenId } = await issueToken(deps.db, call.userId, deps.now(), TOKEN_MS);
    try {
      const get = call.method === 'GET';
      const query = get ? `?${new URLSearchParams(Object.entries(call.body).flatMap(([k, v]) => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map((x) => [k, String(x)]) : [[k, String(v)]])))}` : '';
      const answer = await app.inject({
        method: call.method as 'GET' | 'POST', url: `${call.path}${query}`,
        headers: { 'x-auth-token': token, 'accept-language': call.language, ...(get ? {} : { 'content-type': 'application/json' }) },
        ...(get ? {} : { payload: JSON.stringify(call.body) }),
      });
      let json: unknown = null;
      try { json = answer.json(); } catch { json = null; }
      return { status: answer.statusCode, json };
    } finally {
      await revokeToken(deps.db, tokenId, deps.now());
    }
  };
}
