// Abuse throttling (issue 13), with @fastify/rate-limit: a generous global limit per client IP on
// every request, and on the operations that declare `throttle:` (sign-in, register, password
// recovery, one-time codes) two more limits of their class: per client IP, so guesses spread over
// many accounts from one address are slowed, and per account, so guesses at one account from many
// addresses are too. Past a limit the answer is 429 with the catalogue's 99933 in the usual error
// shape, and Retry-After in seconds. The counters live in memory (embedded PGlite, one process),
// in the database (DATABASE_URL: shared by every API process) or in Redis (REDIS_URL).
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

/** The account a body names, normalised and digested: addresses people mistype are not kept. */
const accountKey = (value: unknown) => (typeof value === 'string' ? createHash('sha256').update(value.trim().toLowerCase()).digest('hex') : null);

function storeOptions(app: FastifyInstance, db: Kysely<Database>, store: ThrottleSettings['store']) {
  if (store === 'memory') return {};
  if (store === 'database') {
    const shared = databaseStore(db);
    // @fastify/rate-limit builds its store with `new`; a function returning an object answers that.
    return { store: function DatabaseStore() { return shared; } as never };
  }
  // The library's advice: fail fast rather than queue requests while Redis is away.
  const redis = new Redis(store.redisUrl, { connectTimeout: 5000, maxRetriesPerRequest: 1 });
  // ioredis reconnects by itself; an outage is logged, not thrown.
  redis.on('error', (error) => app.log.warn({ err: error }, 'throttling: Redis unreachable, requests go unthrottled'));
  app.addHook('onClose', async () => { await redis.quit().catch(() => redis.disconnect()); });
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
    ...storeOptions(app, db, settings.store),
    global: true,
    hook: 'onRequest',
    max: settings.global.perIp,
    timeWindow: settings.global.windowMs,
    keyGenerator: (request) => `all:${normalizeIP(request.ip)}`,
    // Health probes come from the platform, often all from one address.
    allowList: (request) => request.url === '/health',
    errorResponseBuilder: tooMany,
  });

  const limiters = new Map(Object.entries(settings.classes).map(([cls, limit]) => [cls, {
    ip: app.createRateLimit({ max: limit.perIp, timeWindow: limit.windowMs, allowList: () => false, keyGenerator: (request) => `${cls}:ip:${normalizeIP(request.ip)}` }),
    account: (field: string) => app.createRateLimit({
      max: limit.perAccount, timeWindow: limit.windowMs, allowList: () => false,
      keyGenerator: (request) => `${cls}:account:${accountKey((request.body as Record<string, unknown> | null)?.[field])}`,
    }),
  }]));

  return (op) => {
    if (!op.throttle) return null;
    const limiter = limiters.get(op.throttle.class)!;
    const field = op.throttle.account;
    const account = limiter.account(field);
    const checks = [
      limiter.ip,
      // A body without the field is refused by validation next; it counts against the IP only.
      async (request: FastifyRequest) => (accountKey((request.body as Record<string, unknown> | null)?.[field]) ? account(request) : { isAllowed: true as const, key: '' }),
    ];
    // After the body is read (the account is in it), before it is validated or handled.
    return async (request, reply) => {
      for (const check of checks) {
        const result = await check(request);
        if (!result.isAllowed && result.isExceeded) {
          reply.header('retry-after', result.ttlInSeconds);
          throw tooMany();
        }
      }
    };
  };
}
