// The Redis store of abuse throttling: with REDIS_URL, two API processes count into the
// same Redis counters. Collected only when REDIS_URL names a Redis server (vitest.config.ts, as the
// PostgreSQL-only files are): the PGlite and PostgreSQL suites test the memory and database stores.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.ts';
import { fileHarness } from './file-harness.ts';
import { testThrottle } from './harness.ts';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) throw new Error('throttle.redis.test.ts needs REDIS_URL');
const h = fileHarness();

describe('two API processes on one Redis', { timeout: 120_000 }, () => {
  it('count into the same counters and answer 429 with 99933 and Retry-After', async () => {
    const limit = { perIp: 1000, perAccount: 3, windowMs: 60_000 };
    const settings = testThrottle('memory', { classes: { signin: limit, register: limit, recovery: limit, otp: limit }, store: { redisUrl: redisUrl! } });
    const apps = [await buildServer({ db: h.db, sandbox: true, throttle: settings }), await buildServer({ db: h.db, sandbox: true, throttle: settings })];
    try {
      // An account of its own per run: Redis keeps counters between runs for a minute.
      const email = `redis.${randomBytes(4).toString('hex')}@empresa-ficticia.co`;
      const signin = (i: number, host = 1) => apps[i % 2].inject({ method: 'POST', url: '/v1/clientAuth/signin', payload: { email, password: 'Incorrecta#1' }, remoteAddress: `203.0.117.${host}` });
      // From one address, over both processes: three tries, then 429.
      for (let i = 0; i < 3; i++) expect((await signin(i)).statusCode).toBe(401);
      for (const i of [3, 4]) {
        const res = await signin(i);
        expect(res.statusCode).toBe(429);
        expect(res.json()).toEqual({ code: '99933', message: expect.any(String) });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      // From other addresses the account, past its limit, asks for the captcha instead of refusing (the owner is never locked out).
      for (const i of [5, 6]) expect((await signin(i, 10 + i)).json().code).toBe('99998');
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
