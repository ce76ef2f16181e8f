// Abuse throttling, with @fastify/rate-limit: a generous global limit per client IP on
// every request, and on the operations that declare `throttle:` (sign-in, register, password
// recovery, one-time codes) more limits of their class: per client IP, so guesses spread over
// many accounts from one address are slowed, and per account, so guesses at one account from many
// addresses are too. Past a limit the answer is 429 with the catalogue's 99933 in the usual error
// shape, and Retry-After in seconds. The counters live in memory (embedded PGlite, one process),
// in the database (DATABASE_URL: shared by every API process) or in Redis (REDIS_URL). While that
// store is away the global limit lets requests through; the classes' limits refuse with 99945.
//
// The sign-in class (validate, signin) must never let a guesser lock the owner out: a refusal
// counted per account from every address would answer the owner 429 too. There the per-account
// limit refuses per (account, client IP), and the account-wide count past the same limit only
// asks for the captcha (captchaDemanded): a script guessing from many addresses meets a captcha
// on every try, while the owner with the right password and the captcha signs in.
import { createHash } from 'node:crypto';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Database } from '../../engine/database.ts';
import type { ServerOperation } from '../../generated/server-operations.gen.ts';
import { ApiError } from '../errors/api-error.ts';
import type { ThrottleSettings } from './throttle-settings.ts';
import { databaseStore } from './throttle-store.ts';

export type ThrottleHookFor = (op: ServerOperation) => preValidationAsyncHookHandler | null;

const tooMany = () => new ApiError('99933');

/** The classes whose account-wide count asks for the captcha instead of refusing. */
const CAPTCHA_CLASSES: ReadonlySet<string> = new Set(['signin']);

/** The client's address as every counter keys it (an IPv6 client by its /64, as the library does). */
export const clientAddress = (request: FastifyRequest) => normalizeIP(request.ip);

const demanded = new WeakSet<FastifyRequest>();

/** Whether the account this request names has been tried more than its limit allows, from any address: sign-in must ask for the captcha. */
export const captchaDemanded = (request: FastifyRequest) => demanded.has(request);

/** The account a body names, normalised and digested: addresses people mistype are not kept. */
const accountKey = (value: unknown) => (typeof value === 'string' ? createHash('sha256').update(value.trim().toLowerCase()).digest('hex') : null);

async function storeOptions(app: FastifyInstance, db: Kysely<Database>, store: ThrottleSettings['store']) {
  if (store === 'memory') return {};
  if (store === 'database') {
    const shared = databaseStore(db);
    // @fastify/rate-limit builds its store with `new`; a function returning an object answers that.
    return { store: function DatabaseStore() { return shared; } as never };
  }
  // The library's advice: fail fast rather than queue requests while Redis is away. Without the
  // offline queue a command fails at once while the connection is down, instead of holding every
  // request for the reconnection's back-off.
  const redis = new Redis(store.redisUrl, { connectTimeout: 5000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  // ioredis reconnects by itself; an outage is logged, not thrown.
  redis.on('error', (error) => app.log.warn({ err: error }, 'throttling: Redis unreachable, requests go unthrottled and sign-in answers 99945'));
  app.addHook('onClose', async () => { await redis.quit().catch(() => redis.disconnect()); });
  // Ready before the first request is counted (a reachable Redis answers within milliseconds); an
  // unreachable one does not hold the start: its requests meet the outage rules above.
  await new Promise<void>((resolve) => {
    const done = () => { clearTimeout(timer); redis.off('ready', done); redis.off('error', done); resolve(); };
    const timer = setTimeout(done, 2000);
    redis.once('ready', done);
    redis.once('error', done);
  });
  // A Redis outage lets requests through (skipOnError) rather than failing every one of them.
  return { redis, nameSpace: 'colibri-throttle-', skipOnError: true };
}

/**
 * A route's own limit in place of the global one: its options' `config.rateLimit` (the library's
 * per-route override), counted under its own key. The short-link redirect declares it.
 */
export function redirectRateLimit(settings: ThrottleSettings) {
  return {
    max: settings.redirect.perIp,
    timeWindow: settings.redirect.windowMs,
    keyGenerator: (request: FastifyRequest) => `redirect:${normalizeIP(request.ip)}`,
  };
}

/** Registers the global limit; answers, for each operation, the hook of its class's limits (or null). */
export async function registerThrottle(app: FastifyInstance, db: Kysely<Database>, settings: ThrottleSettings): Promise<ThrottleHookFor> {
  await app.register(rateLimit, {
    ...(await storeOptions(app, db, settings.store)),
    global: true,
    hook: 'onRequest',
    max: settings.global.perIp,
    timeWindow: settings.global.windowMs,
    keyGenerator: (request) => `all:${normalizeIP(request.ip)}`,
    // Health probes come from the platform, often all from one address.
    allowList: (request) => request.url === '/health',
    errorResponseBuilder: tooMany,
  });

  // One limiter per class and field, shared by the class's operations (validate and signin count
  // together): the memory store keeps a limiter's counters to itself.
  const limiters = new Map<string, ReturnType<typeof app.createRateLimit>>();
  // These limits fail closed: while their counters' store (Redis, the database) cannot be reached
  // the operation answers 503 with 99945 (cache error) instead of letting guesses through
  // uncounted; knocking the store over must not open sign-in to unlimited guessing.
  const limiterOf = (key: string, max: number, windowMs: number, keyOf: (request: FastifyRequest) => string) => {
    if (!limiters.has(key)) limiters.set(key, app.createRateLimit({ max, timeWindow: windowMs, allowList: () => false, keyGenerator: keyOf, skipOnError: false }));
    const limiter = limiters.get(key)!;
    return async (request: FastifyRequest) => {
      try {
        return await limiter(request);
      } catch (error) {
        request.log.error({ err: error }, 'throttling: the counters could not be read or written');
        throw new ApiError('99945');
      }
    };
  };

  return (op) => {
    if (!op.throttle) return null;
    const cls = op.throttle.class;
    const limit = settings.classes[cls];
    const field = op.throttle.account;
    const accountOf = (request: FastifyRequest) => accountKey((request.body as Record<string, unknown> | null)?.[field]);
    const ip = limiterOf(`${cls}:ip`, limit.perIp, limit.windowMs, (request) => `${cls}:ip:${clientAddress(request)}`);
    const account = limiterOf(`${cls}:account:${field}`, limit.perAccount, limit.windowMs, (request) => `${cls}:account:${accountOf(request)}`);
    const accountAtIp = limiterOf(`${cls}:account-ip:${field}`, limit.perAccount, limit.windowMs, (request) => `${cls}:account-ip:${accountOf(request)}:${clientAddress(request)}`);
    const captchaInstead = CAPTCHA_CLASSES.has(cls);
    // After the body is read (the account is in it), before it is validated or handled.
    return async (request, reply) => {
      const refuseIfExceeded = (result: Awaited<ReturnType<typeof account>>) => {
        if (!result.isAllowed && result.isExceeded) {
          reply.header('retry-after', result.ttlInSeconds);
          throw tooMany();
        }
      };
      refuseIfExceeded(await ip(request));
      // A body without the field is refused by validation next; it counts against the IP only.
      if (accountOf(request) === null) return;
      if (!captchaInstead) return refuseIfExceeded(await account(request));
      refuseIfExceeded(await accountAtIp(request));
      const wide = await account(request);
      if (!wide.isAllowed && wide.isExceeded) demanded.add(request);
    };
  };
}
