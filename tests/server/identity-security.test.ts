// The identity rules of spec 5 and 7 over time: captcha after repeated failures, lockout,
// password expiry, no reuse of recent passwords, code expiry and attempt limits, token expiry.
// Time moves with the harness clock, never with sleeps.
import { beforeEach, describe, expect, it } from 'vitest';
import { constants } from '../../src/generated/constants.gen.ts';
import { fileHarness } from './file-harness.ts';
import { TEST_PASSWORD } from './harness.ts';

const { captchaAfterFailures, maxFailedLogins, lockMinutes, passwordMaxAgeDays, tokenTtlHours, otpTtlSeconds, otpMaxAttempts, recoveryTtlSeconds } = constants.security;

const h = fileHarness();
beforeEach(() => { h.clock.now = new Date(); });

const signin = (email: string, password: string, captchaToken?: string) =>
  h.op('clientAuth.signin', { body: { email, password, ...(captchaToken ? { captchaToken } : {}) } });
const userRow = (email: string) => h.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();

describe('failed sign-ins', () => {
  it('a wrong password and an unknown e-mail get the same answer', async () => {
    const wrong = await signin('analista@demo.colibri.co', 'Incorrecta#1');
    const unknown = await signin('nadie@empresa-ficticia.co', 'Incorrecta#1');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe('99996');
    await signin('analista@demo.colibri.co', TEST_PASSWORD); // resets the count
  });

  it('an unknown e-mail answers every wrong try exactly as a real account does: captcha, then lock', async () => {
    const tries = async (email: string) => {
      const answers: string[] = [];
      for (let i = 0; i < maxFailedLogins + 2; i++) {
        const res = await signin(email, 'Incorrecta#1', i >= captchaAfterFailures + 1 ? 'sandbox-ok' : undefined);
        answers.push(`${res.statusCode} ${JSON.stringify(res.json())}`);
      }
      return answers;
    };
    const real = await tries('admin@demo.colibri.co');
    const unknown = await tries('Nadie.Existe@Empresa-Ficticia.co');
    expect(unknown).toEqual(real);
    // The sequence the issue names: 99996, then the captcha (99998), then the lock (99948).
    expect(real.map((a) => JSON.parse(a.slice(4)).code)).toEqual(expect.arrayContaining(['99996', '99998', '99948']));
    // The lock of the unknown e-mail runs out as an account's does; a normalised spelling is the same e-mail.
    expect((await signin('nadie.existe@empresa-ficticia.co', 'Incorrecta#1', 'sandbox-ok')).json().code).toBe('99948');
    h.clock.advance(lockMinutes * 60_000 + 1000);
    // The lock is over; the account-wide count still asks for the captcha, as an account's does.
    expect((await signin('nadie.existe@empresa-ficticia.co', 'Incorrecta#1')).json().code).toBe('99998');
    expect((await signin('nadie.existe@empresa-ficticia.co', 'Incorrecta#1', 'sandbox-ok')).json().code).toBe('99996');
  });

  it(`asks for the captcha after ${captchaAfterFailures} failures (99998), and a good one lets the user in`, async () => {
    const email = 'ops@demo.colibri.co';
    for (let i = 0; i < captchaAfterFailures; i++) expect((await signin(email, 'Incorrecta#1')).json().code).toBe('99996');
    expect((await h.op('clientAuth.validate', { body: { email } })).json().captchaRequired).toBe(true);
    expect((await signin(email, TEST_PASSWORD)).json().code).toBe('99998');
    expect((await signin(email, TEST_PASSWORD, 'robot')).json().code).toBe('99998');
    const ok = await signin(email, TEST_PASSWORD, 'sandbox-ok');
    expect(ok.statusCode).toBe(200);
    expect((await userRow(email)).failed_logins).toBe(0);
    expect((await h.op('clientAuth.validate', { body: { email } })).json().captchaRequired).toBe(false);
  });

  it(`locks the account out of the failing address after ${maxFailedLogins} failures for ${lockMinutes} minutes with the contract message`, async () => {
    const email = 'develop@demo.colibri.co';
    for (let i = 1; i < maxFailedLogins; i++) {
      expect((await signin(email, 'Incorrecta#1', 'sandbox-ok')).json().code).toBe('99996');
    }
    const locked = await signin(email, 'Incorrecta#1', 'sandbox-ok');
    expect(locked.statusCode).toBe(423);
    expect(locked.json()).toEqual({ code: '99948', message: 'Account blocked. Too many login attempts' });
    // Even the right password is refused while the lock lasts.
    const still = await signin(email, TEST_PASSWORD, 'sandbox-ok');
    expect(still.json().code).toBe('99948');
    h.clock.advance(lockMinutes * 60_000 - 1000);
    expect((await signin(email, TEST_PASSWORD, 'sandbox-ok')).json().code).toBe('99948');
    h.clock.advance(2000);
    // The failures still count for the account: the captcha, and then the user is in.
    expect((await signin(email, TEST_PASSWORD)).json().code).toBe('99998');
    const after = await signin(email, TEST_PASSWORD, 'sandbox-ok');
    expect(after.statusCode).toBe(200);
    const row = await userRow(email);
    expect(row.failed_logins).toBe(0);
    expect(row.locked_until).toBeNull();
  });

  it('a password recovery clears the lock at once', async () => {
    const email = 'manager@demo.colibri.co';
    for (let i = 0; i < maxFailedLogins; i++) await signin(email, 'Incorrecta#1', 'sandbox-ok');
    expect((await signin(email, TEST_PASSWORD, 'sandbox-ok')).json().code).toBe('99948');
    await h.op('clientAuth.recoverPassword', { body: { email } });
    const code = await h.lastCode(email);
    const res = await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Nueva#Clave2025' } });
    expect(res.json()).toEqual({ sent: false, changed: true });
    expect((await signin(email, 'Nueva#Clave2025')).statusCode).toBe(200);
  });
});

describe('password expiry', () => {
  it(`an active user whose password is older than ${passwordMaxAgeDays} days signs in as ExpiredPassword`, async () => {
    const email = 'platform@demo.colibri.co';
    h.clock.advance((passwordMaxAgeDays + 1) * 86_400_000);
    const { session } = await h.signin(email);
    expect(session.state).toBe('ExpiredPassword');
    expect((await userRow(email)).state).toBe('ExpiredPassword');
    // Renewing the password (here by recovery) makes the user active again.
    await h.op('clientAuth.recoverPassword', { body: { email } });
    const code = await h.lastCode(email);
    const res = await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Renovada#2025' } });
    expect(res.json().changed).toBe(true);
    const again = await h.signin(email, 'Renovada#2025');
    expect(again.session.state).toBe('active');
  });

  it('the demo ExpiredPassword and needsNewPassword users sign in and get their state back', async () => {
    expect((await h.as('ExpiredPassword')).session.state).toBe('ExpiredPassword');
    expect((await h.as('needsNewPassword')).session.state).toBe('needsNewPassword');
    expect((await h.as('disabled')).session.state).toBe('disabled');
    expect((await h.as('validation')).session.state).toBe('validation');
  });
});

describe('password recovery', () => {
  const email = 'needsNewPassword@demo.colibri.co';

  it('refuses a recent password with 99939 and the contract message, without spending the code', async () => {
    const sent = await h.op('clientAuth.recoverPassword', { body: { email } });
    expect(sent.json()).toEqual({ sent: true, changed: false });
    const mail = (await h.outbox(email.toLowerCase()))[0];
    expect(mail.channel).toBe('email');
    const code = await h.lastCode(email.toLowerCase());
    const reused = await h.op('clientAuth.recoverPassword', { body: { email, code, password: TEST_PASSWORD } });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ code: '99939', message: 'The new password has been used recently' });
    const ok = await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Distinta#2025' } });
    expect(ok.json()).toEqual({ sent: false, changed: true });
    expect((await userRow(email)).state).toBe('active');
    expect((await signin(email, TEST_PASSWORD)).json().code).toBe('99996');
  });

  it('ends every session of the user when the password is recovered', async () => {
    const { token } = await h.signin(email, 'Distinta#2025');
    await h.op('clientAuth.recoverPassword', { body: { email } });
    const code = await h.lastCode(email.toLowerCase());
    await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Tercera#2025' } });
    expect((await h.op('clientAuth.signout', { token })).json().code).toBe('99953');
  });

  it(`a wrong code answers 99941; a code older than ${recoveryTtlSeconds} s answers 99940`, async () => {
    await h.op('clientAuth.recoverPassword', { body: { email } });
    const code = await h.lastCode(email.toLowerCase());
    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await h.op('clientAuth.recoverPassword', { body: { email, code: wrong, password: 'Cuarta#2025x' } });
    expect(bad.json()).toEqual({ code: '99941', message: 'Invalid OTP code' });
    h.clock.advance(recoveryTtlSeconds * 1000 + 1000);
    const late = await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Cuarta#2025x' } });
    expect(late.json().code).toBe('99940');
    expect((await signin(email, 'Tercera#2025')).statusCode).toBe(200);
  });
});

describe('one-time codes', () => {
  it(`a code expires after ${otpTtlSeconds} s (99940)`, async () => {
    const email = 'pending@demo.colibri.co';
    await h.op('clientAuth.saveOtp', { body: { email } });
    const code = await h.lastCode(email);
    h.clock.advance(otpTtlSeconds * 1000 + 1);
    const res = await h.op('clientAuth.validateOtp', { body: { email, code } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('99940');
    expect((await userRow(email)).state).toBe('pending');
  });

  it(`after ${otpMaxAttempts} wrong tries the code is refused even when right; a new code works`, async () => {
    const email = 'pending@demo.colibri.co';
    await h.op('clientAuth.saveOtp', { body: { email } });
    const code = await h.lastCode(email);
    const wrong = code === '999999' ? '888888' : '999999';
    for (let i = 0; i < otpMaxAttempts; i++) {
      expect((await h.op('clientAuth.validateOtp', { body: { email, code: wrong } })).json()).toEqual({ code: '99941', message: 'Invalid OTP code' });
    }
    expect((await h.op('clientAuth.validateOtp', { body: { email, code } })).json().code).toBe('99941');
    expect((await userRow(email)).state).toBe('pending');
    h.clock.advance(otpTtlSeconds * 1000); // leave the sending window of the earlier codes
    await h.op('clientAuth.saveOtp', { body: { email } });
    const fresh = await h.lastCode(email);
    const ok = await h.op('clientAuth.validateOtp', { body: { email, code: fresh } });
    expect(ok.json()).toEqual({ valid: true, state: 'active' });
  });

  it(`at most ${otpMaxAttempts} codes per ${otpTtlSeconds} s per user (99933), so nobody floods a phone`, async () => {
    const email = 'analista@demo.colibri.co';
    for (let i = 0; i < otpMaxAttempts; i++) expect((await h.op('clientAuth.saveOtp', { body: { email, method: 'sms' } })).statusCode).toBe(200);
    const before = await h.snapshot();
    const res = await h.op('clientAuth.saveOtp', { body: { email, method: 'sms' } });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('99933');
    expect(await h.snapshot()).toEqual(before);
    h.clock.advance(otpTtlSeconds * 1000 + 1000);
    expect((await h.op('clientAuth.saveOtp', { body: { email, method: 'sms' } })).statusCode).toBe(200);
  });

  it('a code is stored hashed, never in clear', async () => {
    const email = 'admin@demo.colibri.co';
    await h.op('clientAuth.saveOtp', { body: { email } });
    const code = await h.lastCode(email);
    const rows = await h.db.selectFrom('otps').innerJoin('users', 'users.id', 'otps.user_id').select('otps.code_hash').where('users.email', '=', email).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.code_hash).not.toContain(code);
  });
});

describe('tokens', () => {
  it(`expire after ${tokenTtlHours} hours (99953)`, async () => {
    const { token, session } = await h.as('superadmin');
    expect((await h.op('clients.get', { params: { id: session.idUser }, token })).statusCode).toBe(200);
    h.clock.advance(tokenTtlHours * 3600_000 + 1000);
    const res = await h.op('clients.get', { params: { id: session.idUser }, token });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('99953');
  });
});
