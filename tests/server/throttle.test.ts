// Abuse throttling: per client IP and per account on the operations that
// declare `throttle:` (sign-in, register, password recovery, one-time codes), a global limit per
// IP on everything, 429 with the catalogue's 99933 in the usual error shape and Retry-After, and
// counters shared by every API process on one database.
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { buildServer } from '../../src/server/app.ts';
import { DEFAULT_THROTTLE, throttleSettings, type ClassLimit, type ThrottleSettings } from '../../src/server/security/throttle-settings.ts';
import { trustProxySetting, type TrustProxy } from '../../src/server/http/trust-proxy.ts';
import { createHarness, testThrottle, type Harness } from './harness.ts';

// One database for the file; each test builds its own API process(es) on it with its limits, and
// uses addresses and accounts of its own (the database store's counters outlive a process).
let h: Harness;
beforeAll(async () => { h = await createHarness(); }, 180_000);
afterAll(async () => { await h?.close(); });
const built: FastifyInstance[] = [];
afterEach(async () => { await Promise.all(built.splice(0).map((a) => a.close())); });

const limit = (perIp: number, perAccount: number): ClassLimit => ({ perIp, perAccount, windowMs: 60_000 });
const NONE = limit(1_000_000, 1_000_000);
const kind = process.env.DATABASE_URL ? 'postgres' : 'memory';
/** The sign-in counter of an account at one client address. */
const accountKey = (email: string, address: string) => `signin:account-ip:${createHash('sha256').update(email).digest('hex')}:${address}`;
const hitsOf = async (email: string, address: string) => (await h.db.selectFrom('throttle_counters').select('hits').where('key', '=', accountKey(email, address)).executeTakeFirst())?.hits;

/** An API process on the file's database with these limits (the store `npm start` would pick, unless told). */
async function api(throttle: Partial<ThrottleSettings>, trustProxy?: TrustProxy): Promise<Api> {
  const app = await buildServer({ db: h.db, sandbox: true, throttle: testThrottle(kind, throttle), trustProxy });
  built.push(app);
  return {
    app,
    op: (id, args) => {
      const spec = serverOperations.find((o) => o.id === id)!;
      return app.inject({ method: spec.method as 'GET', url: spec.path, ...(args.body ? { payload: args.body } : {}), remoteAddress: args.remoteAddress });
    },
  };
}
interface Api { app: FastifyInstance; op(id: OperationId, args: { body?: object; remoteAddress: string }): Promise<LightMyRequestResponse> }

const signin = (a: Api, email: string, remoteAddress: string) =>
  a.op('clientAuth.signin', { body: { email, password: 'Incorrecta#1' }, remoteAddress });

function expectThrottled(res: LightMyRequestResponse, windowSeconds = 60) {
  expect(res.statusCode).toBe(429);
  // The same shape as every other error answer: { code, message }, the catalogue's code.
  expect(res.json()).toEqual({ code: '99933', message: expect.any(String) });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('sign-in', { timeout: 120_000 }, () => {
  it('guesses spread over many accounts from one address are slowed; other addresses are not', async () => {
    const a = await api({ classes: { signin: limit(5, 1000), register: NONE, recovery: NONE, otp: NONE } });
    for (let i = 0; i < 5; i++) expect((await signin(a, `persona${i}@empresa-ficticia.co`, '203.0.113.7')).statusCode).toBe(401);
    expectThrottled(await signin(a, 'persona5@empresa-ficticia.co', '203.0.113.7'));
    // validate is of the sign-in class too: it tells whether sign-in will ask for a captcha.
    expectThrottled(await a.op('clientAuth.validate', { body: { email: 'persona6@empresa-ficticia.co' }, remoteAddress: '203.0.113.7' }));
    expect((await signin(a, 'persona5@empresa-ficticia.co', '198.51.100.20')).statusCode).toBe(401);
  });

  it('guesses at one account from one address are refused; from many addresses they must pass the captcha; other accounts are not touched', async () => {
    const a = await api({ classes: { signin: limit(1000, 3), register: NONE, recovery: NONE, otp: NONE } });
    // The account is the normalised e-mail: case does not make a new one.
    const spellings = ['analista@demo.colibri.co', 'ANALISTA@demo.colibri.co', 'Analista@Demo.Colibri.co'];
    for (const email of spellings) expect((await signin(a, email, '203.0.113.1')).statusCode).toBe(401);
    expectThrottled(await signin(a, 'analista@demo.colibri.co', '203.0.113.1'));
    // Past the account's limit another address is not refused (that would lock the owner out): it is asked for the captcha.
    const elsewhere = await signin(a, 'analista@demo.colibri.co', '203.0.113.99');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().code).toBe('99998');
    expect((await signin(a, 'admin@demo.colibri.co', '203.0.113.99')).json().code).toBe('99996');
  });

  it('an account unknown to the product is throttled exactly as a real one: the answers do not tell them apart', async () => {
    const a = await api({ classes: { signin: limit(1000, 2), register: NONE, recovery: NONE, otp: NONE } });
    const answers = async (email: string, net: number) => {
      const all: string[] = [];
      // Four tries from one address, then two from others.
      for (const host of [1, 1, 1, 1, 2, 3]) {
        const res = await signin(a, email, `192.0.${net}.${host}`);
        all.push(`${res.statusCode} ${res.json().code} ${res.headers['retry-after'] ? 'retry-after' : ''}`);
      }
      return all;
    };
    const unknown = await answers('nadie@empresa-ficticia.co', 2);
    expect(unknown).toEqual(await answers('manager@demo.colibri.co', 3));
    expect(unknown.slice(2)).toEqual(['429 99933 retry-after', '429 99933 retry-after', '400 99998 ', '400 99998 ']);
  });
});

describe('every throttled operation', { timeout: 120_000 }, () => {
  const throttled = serverOperations.filter((o) => o.throttle);
  const bodies: Partial<Record<OperationId, object>> = {
    'clientAuth.recoverPassword': { code: '123456', password: 'Otra#Clave2025' },
    'clientAuth.validateOtp': { code: '123456' },
  };

  it('sign-in, register, both steps of password recovery, sending and checking codes declare their class', () => {
    expect(Object.fromEntries(throttled.map((o) => [o.id, o.throttle]))).toEqual({
      'clientAuth.validate': { class: 'signin', account: 'email' },
      'clientAuth.signin': { class: 'signin', account: 'email' },
      'clientAuth.register': { class: 'register', account: 'email' },
      'clientAuth.recoverPassword': { class: 'recovery', account: 'email' },
      'clientAuth.saveOtp': { class: 'otp', account: 'email' },
      'clientAuth.validateOtp': { class: 'otp', account: 'email' },
    });
  });

  it.each(throttled.map((o, n) => [o.id as OperationId, n]))('%s: per IP and per account, counted even when the body is refused', async (id, n) => {
    const cls = throttled.find((o) => o.id === id)!.throttle!.class;
    const a = await api({ classes: { signin: NONE, register: NONE, recovery: NONE, otp: NONE, [cls]: limit(2, 2) } });
    const body = (email: string) => ({ ...bodies[id], email });
    // Per IP: two accounts, then a third is refused (a register body this short is refused by validation: still counted).
    for (const k of [1, 2]) expect((await a.op(id, { body: body(`ip${k}.${n}@empresa-ficticia.co`), remoteAddress: `203.0.114.${n}` })).statusCode).not.toBe(429);
    expectThrottled(await a.op(id, { body: body(`ip3.${n}@empresa-ficticia.co`), remoteAddress: `203.0.114.${n}` }));
    // Per account: two tries, then a third is refused; for sign-in only from the same address (from
    // another the captcha is asked instead, sign-in-lockout.test.ts), for the rest from any.
    const third = cls === 'signin' ? 1 : 3;
    for (const k of [1, 2]) expect((await a.op(id, { body: body(`cuenta.${n}@empresa-ficticia.co`), remoteAddress: `198.51.${n}.${cls === 'signin' ? 1 : k}` })).statusCode).not.toBe(429);
    expectThrottled(await a.op(id, { body: body(`cuenta.${n}@empresa-ficticia.co`), remoteAddress: `198.51.${n}.${third}` }));
  });
});

describe('the global limit per address', { timeout: 120_000 }, () => {
  it('covers every request, unknown paths too, answers 429 in the usual shape, and never throttles /health', async () => {
    const a = await api({ global: { perIp: 3, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await a.op('geography.countries', { remoteAddress: '203.0.113.80' })).statusCode).toBe(200);
    expectThrottled(await a.op('geography.countries', { remoteAddress: '203.0.113.80' }));
    expectThrottled(await a.app.inject({ method: 'GET', url: '/no/such/path', remoteAddress: '203.0.113.80' }));
    for (let i = 0; i < 5; i++) expect((await a.op('system.health', { remoteAddress: '203.0.113.80' })).statusCode).toBe(200);
    expect((await a.op('geography.countries', { remoteAddress: '203.0.113.81' })).statusCode).toBe(200);
  });
});

describe('a counters store that cannot be reached', { timeout: 120_000 }, () => {
  it('the guessing-sensitive operations refuse with 503 and 99945 instead of counting nothing; the rest of the API answers', async () => {
    // A Redis that is not there (nothing listens on port 1): every counter read fails.
    const a = await api({ store: { redisUrl: 'redis://127.0.0.1:1' }, classes: { signin: limit(5, 5), register: NONE, recovery: NONE, otp: NONE } });
    for (let i = 0; i < 3; i++) {
      const res = await a.op('clientAuth.signin', { body: { email: 'ana@empresa-ficticia.co', password: 'Incorrecta#1' }, remoteAddress: '203.0.113.90' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: '99945', message: expect.any(String) });
    }
    expect((await a.op('geography.countries', { remoteAddress: '203.0.113.90' })).statusCode).toBe(200);
  });
});

describe('the short-link redirect', { timeout: 120_000 }, () => {
  it('counts against its own, higher limit per address: clicks from one carrier address are not refused by the global one', async () => {
    // An address no other test here uses: with DATABASE_URL the counters outlive the process.
    const a = await api({ global: { perIp: 3, windowMs: 60_000 }, redirect: { perIp: 5, windowMs: 60_000 } });
    const click = () => a.app.inject({ method: 'GET', url: '/s/Zq8xK2', remoteAddress: '203.0.113.95' });
    // An unknown code answers 404, a known one 302: either way not 429 within the redirect's limit.
    for (let i = 0; i < 5; i++) expect((await click()).statusCode).toBe(404);
    expectThrottled(await click());
    // The clicks did not spend the address's global allowance.
    for (let i = 0; i < 3; i++) expect((await a.op('geography.countries', { remoteAddress: '203.0.113.95' })).statusCode).toBe(200);
    expectThrottled(await a.op('geography.countries', { remoteAddress: '203.0.113.95' }));
  });
});

describe('two API processes on one database', { timeout: 120_000 }, () => {
  const classes = (perAccount: number) => ({ signin: limit(1000, perAccount), register: NONE, recovery: NONE, otp: NONE });

  it('count into the same counters: guesses spread over both meet one limit', async () => {
    const apps = [await api({ classes: classes(4), store: 'database' }), await api({ classes: classes(4), store: 'database' })];
    const email = 'compartida@empresa-ficticia.co';
    for (let i = 0; i < 4; i++) expect((await signin(apps[i % 2], email, '203.0.115.10')).statusCode).not.toBe(429);
    for (const a of apps) expectThrottled(await signin(a, email, '203.0.115.10'));
    expect(await hitsOf(email, '203.0.115.10')).toBe(6);
    // Past the account's limit, counted over both processes, another address meets the captcha in either.
    for (const a of apps) expect((await signin(a, email, '203.0.115.11')).json().code).toBe('99998');
    // The account is kept as a digest, never as the address.
    expect(await h.db.selectFrom('throttle_counters').select('key').where('key', 'like', '%compartida%').execute()).toEqual([]);
  });

  it('a window that ended starts again at one', async () => {
    const a = await api({ classes: classes(2), store: 'database' });
    const email = 'ventana@empresa-ficticia.co';
    for (let i = 0; i < 2; i++) await signin(a, email, '203.0.116.40');
    expectThrottled(await signin(a, email, '203.0.116.40'));
    expect(await hitsOf(email, '203.0.116.40')).toBe(3);
    // Move the windows' ends (at this address, and the account's) into the past, as the database clock would after a minute.
    await h.db.updateTable('throttle_counters').set({ window_ends: new Date(Date.now() - 1000) }).where('key', 'like', `%${createHash('sha256').update(email).digest('hex')}%`).execute();
    expect((await signin(a, email, '203.0.116.40')).statusCode).toBe(401);
    expect(await hitsOf(email, '203.0.116.40')).toBe(1);
  });
});

describe('settings', { timeout: 120_000 }, () => {
  it('defaults are realistic, the environment overrides them, and the store follows REDIS_URL / DATABASE_URL', () => {
    expect(throttleSettings({})).toEqual({ ...DEFAULT_THROTTLE, store: 'memory' });
    const s = throttleSettings({ THROTTLE_GLOBAL: '100/30', THROTTLE_REDIRECT: '5000/60', THROTTLE_OTP: '4/2/120', DATABASE_URL: 'postgres://x/y' });
    expect(s.global).toEqual({ perIp: 100, windowMs: 30_000 });
    expect(s.redirect).toEqual({ perIp: 5000, windowMs: 60_000 });
    expect(DEFAULT_THROTTLE.redirect.perIp).toBeGreaterThan(DEFAULT_THROTTLE.global.perIp * 10);
    expect(s.classes.otp).toEqual({ perIp: 4, perAccount: 2, windowMs: 120_000 });
    expect(s.classes.signin).toEqual(DEFAULT_THROTTLE.classes.signin);
    expect(s.store).toBe('database');
    expect(throttleSettings({ REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: 'postgres://x/y' }).store).toEqual({ redisUrl: 'redis://127.0.0.1:6379' });
    expect(() => throttleSettings({ THROTTLE_SIGNIN: '30/10' })).toThrow(/THROTTLE_SIGNIN/);
    expect(() => throttleSettings({ THROTTLE_GLOBAL: '0/60' })).toThrow(/THROTTLE_GLOBAL/);
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', { timeout: 120_000 }, () => {
  const countries = (a: Api, peer: string, client?: string) =>
    a.app.inject({ method: 'GET', url: '/v1/countries', remoteAddress: peer, headers: client ? { 'x-forwarded-for': client } : {} });

  it('untrusted, every client behind the proxy shares its address: one count for all', async () => {
    const a = await api({ global: { perIp: 2, windowMs: 60_000 } });
    expect((await countries(a, '10.0.0.5', '198.51.100.1')).statusCode).toBe(200);
    expect((await countries(a, '10.0.0.5', '198.51.100.2')).statusCode).toBe(200);
    expectThrottled(await countries(a, '10.0.0.5', '198.51.100.3'));
  });

  it('trusted, each client is counted by the address the proxy saw; a peer that is not the proxy cannot choose its address', async () => {
    const a = await api({ global: { perIp: 2, windowMs: 60_000 } }, ['10.0.0.6']);
    for (const client of ['198.51.100.11', '198.51.100.12', '198.51.100.13']) {
      expect((await countries(a, '10.0.0.6', client)).statusCode).toBe(200);
      expect((await countries(a, '10.0.0.6', client)).statusCode).toBe(200);
    }
    expectThrottled(await countries(a, '10.0.0.6', '198.51.100.11'));
    // A client reaching the server directly, forging the header each time, is still one address.
    expect((await countries(a, '203.0.113.90', '198.51.100.21')).statusCode).toBe(200);
    expect((await countries(a, '203.0.113.90', '198.51.100.22')).statusCode).toBe(200);
    expectThrottled(await countries(a, '203.0.113.90', '198.51.100.23'));
  });

  it('a hop count trusts that many proxies in front, whatever their address', async () => {
    const a = await api({ global: { perIp: 1, windowMs: 60_000 } }, 1);
    expect((await countries(a, '10.0.0.8', '198.51.100.41')).statusCode).toBe(200);
    expect((await countries(a, '10.0.0.9', '198.51.100.42')).statusCode).toBe(200);
    // The client forged an address before the proxy appended the one it saw: the proxy's wins.
    expectThrottled(await countries(a, '10.0.0.8', '203.0.113.1, 198.51.100.41'));
  });

  it('the setting names the proxies or a hop count, never any peer', () => {
    expect(trustProxySetting({})).toBe(false);
    expect(trustProxySetting({ TRUST_PROXY: '10.0.0.5, 10.0.1.0/24' })).toEqual(['10.0.0.5', '10.0.1.0/24']);
    expect(trustProxySetting({ TRUST_PROXY: '1' })).toBe(1);
    expect(() => trustProxySetting({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => trustProxySetting({ TRUST_PROXY: 'proxy.local' })).toThrow(/TRUST_PROXY/);
    expect(() => trustProxySetting({ TRUST_PROXY: '0' })).toThrow(/TRUST_PROXY/);
  });
});
