// Sign-in lockout must slow the guesser, never lock the owner out: wrong passwords from many
// addresses only make the account ask for the captcha, and the lock (99948) falls on the
// (account, address) that failed, never on the account. Addresses are the inject's remoteAddress,
// the socket peer the server counts by when no proxy is trusted.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { constants } from '../../src/generated/constants.gen.ts';
import { createHarness, TEST_PASSWORD, type Harness } from './harness.ts';

const { captchaAfterFailures, maxFailedLogins, lockMinutes } = constants.security;
const CAPTCHA = 'sandbox-ok';

const signinFrom = (h: Harness, remoteAddress: string, email: string, password: string, captchaToken?: string) =>
  h.op('clientAuth.signin', { body: { email, password, ...(captchaToken ? { captchaToken } : {}) }, remoteAddress });
const codeOf = async (res: Awaited<ReturnType<typeof signinFrom>>) => (res.statusCode === 200 ? '200' : `${res.statusCode} ${res.json().code}`);

describe('failures at one account from many addresses', { timeout: 120_000 }, () => {
  let h: Harness;
  beforeAll(async () => { h = await createHarness(); });
  afterAll(async () => { await h?.close(); });
  beforeEach(() => { h.clock.now = new Date(); });

  it('ten guessers with the captcha, each from its own address, do not lock the owner out of an eleventh', async () => {
    const email = 'andres.mejia@demo.colibri.co';
    const answers: string[] = [];
    for (let i = 1; i <= 10; i++) answers.push(await codeOf(await signinFrom(h, `203.0.113.${i}`, email, 'Incorrecta#1', CAPTCHA)));
    expect(answers).toEqual(Array(10).fill('401 99996'));
    // The account-wide count asks the owner for the captcha, and nothing more.
    expect(await codeOf(await signinFrom(h, '198.51.100.11', email, TEST_PASSWORD))).toBe('400 99998');
    expect((await h.op('clientAuth.validate', { body: { email }, remoteAddress: '198.51.100.11' })).json().captchaRequired).toBe(true);
    expect(await codeOf(await signinFrom(h, '198.51.100.11', email, TEST_PASSWORD, CAPTCHA))).toBe('200');
    // The owner's success resets the account-wide count: no captcha next time.
    expect(await codeOf(await signinFrom(h, '198.51.100.11', email, TEST_PASSWORD))).toBe('200');
  });

  it(`guessers without the captcha are stopped after ${captchaAfterFailures} failures of the account, whatever their address`, async () => {
    const email = 'paula.rios@demo.colibri.co';
    const answers: string[] = [];
    for (let i = 1; i <= 10; i++) answers.push(await codeOf(await signinFrom(h, `203.0.113.${20 + i}`, email, 'Incorrecta#1')));
    expect(answers).toEqual([...Array(captchaAfterFailures).fill('401 99996'), ...Array(10 - captchaAfterFailures).fill('400 99998')]);
    // Refused captchas counted no failure: no address was locked, the owner signs in with the captcha.
    expect(await codeOf(await signinFrom(h, '203.0.113.21', email, TEST_PASSWORD, CAPTCHA))).toBe('200');
  });

  it(`${maxFailedLogins} failures from one address lock that address out of that account only, for ${lockMinutes} minutes`, async () => {
    const email = 'diana.lopez@demo.colibri.co';
    const guesser = '203.0.113.50';
    const answers: string[] = [];
    for (let i = 1; i <= maxFailedLogins; i++) answers.push(await codeOf(await signinFrom(h, guesser, email, 'Incorrecta#1', CAPTCHA)));
    expect(answers).toEqual([...Array(maxFailedLogins - 1).fill('401 99996'), '423 99948']);
    const locked = await signinFrom(h, guesser, email, TEST_PASSWORD, CAPTCHA);
    expect(locked.json()).toEqual({ code: '99948', message: 'Account blocked. Too many login attempts' });
    // Another address, the owner's, is not locked: the right password and the captcha sign in.
    expect(await codeOf(await signinFrom(h, '198.51.100.60', email, TEST_PASSWORD, CAPTCHA))).toBe('200');
    // The owner's success does not lift the guesser's lock; the time does.
    expect(await codeOf(await signinFrom(h, guesser, email, TEST_PASSWORD, CAPTCHA))).toBe('423 99948');
    h.clock.advance(lockMinutes * 60_000 - 1000);
    expect(await codeOf(await signinFrom(h, guesser, email, TEST_PASSWORD, CAPTCHA))).toBe('423 99948');
    h.clock.advance(2000);
    expect(await codeOf(await signinFrom(h, guesser, email, TEST_PASSWORD))).toBe('200');
  });

  it('the lock of one address at one account does not lock that address out of another account', async () => {
    const guesser = '203.0.113.70';
    for (let i = 0; i < maxFailedLogins; i++) await signinFrom(h, guesser, 'felipe.cano@demo.colibri.co', 'Incorrecta#1', CAPTCHA);
    expect(await codeOf(await signinFrom(h, guesser, 'felipe.cano@demo.colibri.co', TEST_PASSWORD, CAPTCHA))).toBe('423 99948');
    expect(await codeOf(await signinFrom(h, guesser, 'ops@demo.colibri.co', TEST_PASSWORD))).toBe('200');
  });

  it('an e-mail without an account answers every step as an account does, from one address and from many', async () => {
    const tries = async (email: string, net: number) => {
      const all: string[] = [];
      for (let i = 1; i <= 6; i++) all.push(await codeOf(await signinFrom(h, `192.0.${net}.${i}`, email, 'Incorrecta#1', i > 4 ? CAPTCHA : undefined)));
      for (let i = 1; i <= maxFailedLogins + 1; i++) all.push(await codeOf(await signinFrom(h, `192.0.${net}.99`, email, 'Incorrecta#1', CAPTCHA)));
      return all;
    };
    const real = await tries('jorge.pardo@demo.colibri.co', 2);
    expect(await tries('Nadie.Aqui@Empresa-Ficticia.co', 3)).toEqual(real);
    expect(real).toEqual(expect.arrayContaining(['401 99996', '400 99998', '423 99948']));
  });

  it('a password recovery ends every address\'s lock on the account', async () => {
    const email = 'carolina.ruiz@demo.colibri.co';
    for (let i = 0; i < maxFailedLogins; i++) await signinFrom(h, '127.0.0.1', email, 'Incorrecta#1', CAPTCHA);
    expect(await codeOf(await signinFrom(h, '127.0.0.1', email, TEST_PASSWORD, CAPTCHA))).toBe('423 99948');
    await h.op('clientAuth.recoverPassword', { body: { email } });
    const code = await h.lastCode(email);
    expect((await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Nueva#Clave2026' } })).json()).toEqual({ sent: false, changed: true });
    expect(await codeOf(await signinFrom(h, '127.0.0.1', email, 'Nueva#Clave2026'))).toBe('200');
  });
});

describe('the sign-in throttle per account', { timeout: 120_000 }, () => {
  // Three tries an account per window: past it, from any address, the captcha; from one address, 429.
  const perAccount = 3;
  let h: Harness;
  beforeAll(async () => {
    const limit = { perIp: 1000, perAccount, windowMs: 60_000 };
    h = await createHarness({ throttle: { classes: { signin: limit, register: limit, recovery: limit, otp: limit } } });
  });
  afterAll(async () => { await h?.close(); });

  it('tries from many addresses past the limit ask for the captcha; they never refuse the owner', async () => {
    const email = 'admin@demo.colibri.co';
    const answers: string[] = [];
    for (let i = 1; i <= 10; i++) answers.push(await codeOf(await signinFrom(h, `203.0.113.${100 + i}`, email, 'Incorrecta#1', CAPTCHA)));
    // Every try got an answer on its merits (no 429): the per-account limit does not refuse across addresses.
    expect(answers).toEqual(Array(10).fill('401 99996'));
    expect(await codeOf(await signinFrom(h, '198.51.100.111', email, TEST_PASSWORD))).toBe('400 99998');
    expect(await codeOf(await signinFrom(h, '198.51.100.111', email, TEST_PASSWORD, CAPTCHA))).toBe('200');
  });

  it('the throttle alone asks for the captcha, before any failure is counted', async () => {
    const email = 'manager@demo.colibri.co';
    // Looking the account up (validate) from many addresses counts too, though no password was tried.
    for (let i = 1; i <= perAccount; i++) {
      expect((await h.op('clientAuth.validate', { body: { email }, remoteAddress: `203.0.113.${120 + i}` })).json().captchaRequired).toBe(false);
    }
    expect((await h.op('clientAuth.validate', { body: { email }, remoteAddress: '198.51.100.121' })).json().captchaRequired).toBe(true);
    expect(await codeOf(await signinFrom(h, '198.51.100.122', email, TEST_PASSWORD))).toBe('400 99998');
    expect(await codeOf(await signinFrom(h, '198.51.100.122', email, TEST_PASSWORD, CAPTCHA))).toBe('200');
  });

  it('tries at one account from one address past the limit are refused (429) for that address only', async () => {
    const email = 'superadmin@demo.colibri.co';
    for (let i = 0; i < perAccount; i++) expect((await signinFrom(h, '203.0.113.140', email, 'Incorrecta#1', CAPTCHA)).statusCode).toBe(401);
    const refused = await signinFrom(h, '203.0.113.140', email, TEST_PASSWORD, CAPTCHA);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('99933');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await codeOf(await signinFrom(h, '198.51.100.141', email, TEST_PASSWORD, CAPTCHA))).toBe('200');
  });
});
