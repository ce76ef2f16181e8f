// The Idempotency-Key of the public sending API (POST /v1/messages, POST /v1/events/{key}/fire),
// as Stripe and Twilio do it: for 24 hours a request that repeats a key with the same body sends
// nothing again and answers the first request's messages (with their current status); the same
// key with another request is refused with 99931. The header's form (1–255 printable ASCII
// characters) is declared once, schemas/entities/idempotency-key.yaml, and checked by the router
// from the operation's `headers` before a handler runs. Keys live per company in
// idempotency_keys (migration 0330_events) with the operation that used them (scope), a digest
// of the request and the ids of the messages it created.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Transaction } from 'kysely';
import type { Database } from '../../engine/database.ts';
import { failFields, fieldError } from '../errors/api-error.ts';

/** How long an Idempotency-Key is remembered (Stripe's and Twilio's 24 hours). */
export const IDEMPOTENCY_HOURS = 24;
/** The answer header of a replayed request. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** One request that presented a key: whose, which key, which operation, and what it asked. */
export interface IdempotentRequest {
  companyId: number;
  key: string;
  scope: string;
  hash: string;
}

/** The same JSON for the same request, whatever the order of its keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The request's key, or null when it has none. `scope` names the operation (a key used for one
 * operation is refused on another) and `what` is everything the request asks (its body, and for
 * a fire the event), digested so a retry can be told from another request.
 */
export function idempotentRequest(request: FastifyRequest, companyId: number, scope: string, what: unknown): IdempotentRequest | null {
  // The router checked the key's form only if the operation declares the header.
  const declared = (request.routeOptions.schema?.headers as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  if (!('idempotency-key' in declared)) throw new Error(`${scope} reads Idempotency-Key but does not declare it under headers in schemas/api`);
  const raw = request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined) return null;
  return { companyId, key, scope, hash: createHash('sha256').update(canonical(what)).digest('hex') };
}

/**
 * Claims the key inside the request's transaction. Answers the message ids of an earlier request
 * with the same key (a retry), or null when this request goes ahead. A concurrent request with
 * the same key waits on the primary key until the first one commits, then reads its answer.
 */
async function claim(trx: Transaction<Database>, r: IdempotentRequest, now: Date): Promise<number[] | null> {
  const since = new Date(now.getTime() - IDEMPOTENCY_HOURS * 3_600_000);
  // The company's expired keys go now (their created_at index finds them), so the table keeps one day.
  await sql`delete from idempotency_keys where created_at < ${since} and company_id = ${r.companyId}`.execute(trx);
  const claimed = await sql`
    insert into idempotency_keys (company_id, key, scope, request_hash, message_ids, created_at)
    values (${r.companyId}, ${r.key}, ${r.scope}, ${r.hash}, '[]'::jsonb, ${now}) on conflict do nothing returning key`.execute(trx);
  if (claimed.rows.length) return null;
  const earlier = await sql<{ scope: string; request_hash: string; message_ids: unknown }>`
    select scope, request_hash, message_ids from idempotency_keys where company_id = ${r.companyId} and key = ${r.key}`.execute(trx);
  const row = earlier.rows[0];
  if (!row || row.scope !== r.scope || row.request_hash !== r.hash) {
    throw failFields([fieldError('Idempotency-Key', '99931', 'already used for another request')]);
  }
  const ids = typeof row.message_ids === 'string' ? (JSON.parse(row.message_ids) as unknown[]) : (row.message_ids as unknown[]);
  return ids.map(Number);
}

/**
 * Runs `create` (which enqueues in `trx` and answers the ids of the messages it created) once
 * per key: without a key it simply runs; with a new key it runs and the key remembers its ids in
 * the same transaction; with a known key it does not run and the first request's ids come back.
 */
export async function once(
  trx: Transaction<Database>, request: IdempotentRequest | null, now: Date, create: () => Promise<number[]>,
): Promise<{ ids: number[]; replayed: boolean }> {
  if (request) {
    const earlier = await claim(trx, request, now);
    if (earlier) return { ids: earlier, replayed: true };
  }
  const ids = await create();
  if (request) {
    await sql`update idempotency_keys set message_ids = ${JSON.stringify(ids)}::jsonb where company_id = ${request.companyId} and key = ${request.key}`.execute(trx);
  }
  return { ids, replayed: false };
}

/** After the transaction: a replay says so in its answer; new messages wake the dispatcher. */
export function settle(outcome: { replayed: boolean }, reply: FastifyReply, wake: () => void): void {
  if (outcome.replayed) reply.header(REPLAYED_HEADER, 'true');
  else wake();
}
