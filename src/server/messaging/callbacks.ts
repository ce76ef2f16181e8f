// Status callbacks to the company's URL (messaging settings): the receipt sink queues a row per
// status change of an API message (src/engine/receipts.ts); this deliverer claims the due rows
// (FOR UPDATE SKIP LOCKED, so several server processes share the queue without sending one
// twice at the same time), POSTs each payload with
//   X-Colibri-Signature: sha256=<hex HMAC-SHA256(callback secret, exact body bytes)>
//   X-Colibri-Timestamp: <unix seconds of this attempt>
//   X-Colibri-Delivery: <callback id, the same on every retry: receivers drop repeats by it>
// and marks it delivered on 2xx. Anything else (an error status, a redirect, a timeout, a refused
// connection) is retried with exponential back-off — 1 min doubling up to 6 h, 12 attempts, about
// 20 hours in all — and the reason kept in last_error. The secret is never logged or stored open.
// A callback goes only where the outbound policy lets it (outbound-guard.ts: public addresses; in
// the sandbox its allowed targets; never this server itself), to the address checked.
import { createHmac } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../engine/database.ts';
import type { SecretBox } from '../security/secrets.ts';
import { requestCompanyUrl, requestFailure } from './company-url-request.ts';
import { OutboundPolicy } from '../security/outbound-guard.ts';
import { callbackSecretContext } from '../security/sealing-contexts.ts';

export const SIGNATURE_HEADER = 'x-colibri-signature';
export const TIMESTAMP_HEADER = 'x-colibri-timestamp';
export const DELIVERY_HEADER = 'x-colibri-delivery';


/** `sha256=<hex>` over the exact bytes sent. */
export const signCallback = (secret: string, body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export interface CallbackDelivererOptions {
  db: Kysely<Database>;
  secrets: SecretBox;
  log?: (message: string, detail?: unknown) => void;
  now?: () => Date;
  /** How often due rows are looked for; default 1 s. */
  pollMs?: number;
  batchSize?: number;
  /** Requests in flight at once; default 8. */
  concurrency?: number;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  maxAttempts?: number;
  /** First retry delay, doubled per attempt up to maxDelayMs; default 1 min and 6 h. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Where callbacks may go (outbound-guard.ts); default public addresses only. */
  outbound?: OutboundPolicy;
}

export interface CallbackDeliverer {
  /** One round now (tests and wake-ups); resolves when its requests are answered and recorded. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

interface Claimed { id: number | string; company_id: number; payload: unknown; attempts: number }

/** Delay before attempt `attempts + 1`, after `attempts` failures. */
export function retryDelayMs(attempts: number, baseMs = 60_000, maxMs = 6 * 3_600_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

export function startCallbackDeliverer(options: CallbackDelivererOptions): CallbackDeliverer {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => {});
  const pollMs = options.pollMs ?? 1000;
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 8;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxAttempts = options.maxAttempts ?? 12;
  const baseDelayMs = options.baseDelayMs ?? 60_000;
  const maxDelayMs = options.maxDelayMs ?? 6 * 3_600_000;
  const outbound = options.outbound ?? new OutboundPolicy({ sandbox: false });
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<number> | null = null;

  /** Claims due rows; their next attempt moves past the request's deadline (a lease). */
  async function claim(at: Date): Promise<Claimed[]> {
    const lease = new Date(at.getTime() + timeoutMs + 30_000);
    const result = await sql<Claimed>`
      update status_callbacks c set next_attempt_at = ${lease}, attempts = c.attempts + 1
      where c.id in (select id from status_callbacks where delivered_at is null and next_attempt_at <= ${at} and attempts < ${maxAttempts}
                     order by next_attempt_at, id limit ${batchSize} for update skip locked)
      returning c.id, c.company_id, c.payload, c.attempts`.execute(db);
    return result.rows;
  }

  /** The company's current URL and opened secret (the URL may have been fixed since the row was queued). */
  async function targets(companyIds: number[]) {
    const rows = await db.selectFrom('messaging_settings').select(['company_id', 'callback_url', 'callback_secret']).where('company_id', 'in', companyIds).execute();
    const map = new Map<number, { url: string | null; secret: string | null }>();
    for (const r of rows) {
      let secret: string | null;
      try {
        secret = r.callback_secret ? options.secrets.open(r.callback_secret, callbackSecretContext(r.company_id)) : null;
      } catch {
        secret = null; // sealed under another key: treated as missing, never printed
      }
      map.set(r.company_id, { url: r.callback_url, secret });
    }
    return map;
  }

  async function post(url: string, secret: string, id: string, body: string): Promise<string | null> {
    try {
      const { status } = await requestCompanyUrl({
        method: 'POST', url: new URL(url), body, timeoutMs, policy: outbound, maxBytes: 0,
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signCallback(secret, body),
          [TIMESTAMP_HEADER]: String(Math.floor(now().getTime() / 1000)),
          [DELIVERY_HEADER]: id,
        },
      });
      // Redirects are not followed: a 3xx is a failure like any other non-2xx.
      return status >= 200 && status < 300 ? null : `HTTP ${status}`;
    } catch (error) {
      return requestFailure(error, timeoutMs);
    }
  }

  async function settle(row: Claimed, error: string | null) {
    const at = now();
    if (error === null) {
      await db.updateTable('status_callbacks').set({ delivered_at: at, last_error: null }).where('id', '=', row.id as number).execute();
      return;
    }
    const final = row.attempts >= maxAttempts;
    await db.updateTable('status_callbacks')
      .set({ last_error: final ? `gave up after ${row.attempts} attempts: ${error}` : error, next_attempt_at: new Date(at.getTime() + retryDelayMs(row.attempts, baseDelayMs, maxDelayMs)) })
      .where('id', '=', row.id as number).execute();
    if (final) log(`status callback ${row.id}: gave up after ${row.attempts} attempts (${error})`);
  }

  async function runRound(): Promise<number> {
    const rows = await claim(now());
    if (!rows.length) return 0;
    const byCompany = await targets([...new Set(rows.map((r) => r.company_id))]);
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++];
        const target = byCompany.get(row.company_id);
        let error: string | null;
        if (!target?.url) error = 'no callback URL configured';
        else if (!target.secret) error = 'no callback secret configured';
        else error = await post(target.url, target.secret, String(row.id), JSON.stringify(row.payload));
        await settle(row, error).catch((e) => log(`status callback ${row.id}: could not record the attempt`, (e as Error).message));
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
    return rows.length;
  }

  const runOnce = (): Promise<number> => {
    // One round at a time in this process; a full batch asks for another at once.
    round ??= runRound().finally(() => { round = null; });
    return round;
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = null;
      runOnce().then((n) => schedule(n >= batchSize ? 0 : pollMs), (error) => {
        log('status callbacks: round failed', (error as Error).message);
        schedule(pollMs);
      });
    }, ms);
  };
  schedule(pollMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await round?.catch(() => 0);
    },
  };
}
