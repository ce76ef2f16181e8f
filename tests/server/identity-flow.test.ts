// The whole identity flow through the API: register -> OTP from the sandbox outbox ->
// validateOtp -> signin -> signout -> the token is refused.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { decodeSession } from '../../src/core/session-codec.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();

const form = {
  fullName: 'Laura Gómez',
  email: 'Laura.Gomez@Empresa-Flujo.co',
  password: 'Segura#2025a',
  companyName: 'Empresa Flujo S.A.S.',
  nit: '901234567-1',
  phone: '300 555 1234',
  acceptTerms: true,
  captchaToken: 'sandbox-ok',
  sendEmail: true,
};

describe('register, validate, sign in, sign out', () => {
  let idUser: number;
  let token: string;

  it('registers a company and its first user, pending, and e-mails a code', async () => {
    const res = await h.op('clientAuth.register', { body: form });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ idUser: expect.any(Number), state: 'pending', email: 'laura.gomez@empresa-flujo.co' });
    idUser = body.idUser;
    const company = await h.db.selectFrom('companies').innerJoin('users', 'users.company_id', 'companies.id').select(['companies.state', 'companies.plan_type', 'companies.nit', 'users.phone']).where('users.id', '=', idUser).executeTakeFirstOrThrow();
    expect(company).toEqual({ state: 'validation', plan_type: 'pilot', nit: '901234567-1', phone: '+573005551234' });
    const mail = await h.outbox('laura.gomez@empresa-flujo.co');
    expect(mail).toHaveLength(1);
    expect(mail[0].channel).toBe('email');
    expect(mail[0].body).toMatch(/\b\d{6}\b/);
  });

  it('stores the password as argon2id, never in clear', async () => {
    const row = await h.db.selectFrom('users').select('password_hash').where('id', '=', idUser).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(row.password_hash).not.toContain(form.password);
  });

  it('validate tells the state of the account', async () => {
    const res = await h.op('clientAuth.validate', { body: { email: form.email } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ exists: true, state: 'pending', captchaRequired: false });
  });

  it('a pending user may sign in and gets its state back (the console redirects)', async () => {
    const { session } = await h.signin(form.email, form.password);
    expect(session.state).toBe('pending');
    expect(session.roles).toEqual(['superadmin']);
    expect(session.company).toMatchObject({ name: 'Empresa Flujo S.A.S.', state: 'validation', planType: 'pilot' });
  });

  it('validateOtp with the e-mailed code turns the user active', async () => {
    const code = await h.lastCode(form.email.toLowerCase());
    const res = await h.op('clientAuth.validateOtp', { body: { email: form.email, code } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ valid: true, state: 'active' });
    const again = await h.op('clientAuth.validateOtp', { body: { email: form.email, code } });
    expect(again.json().code).toBe('99941'); // a code works once
  });

  it('signin answers the base64 session payload of spec 7', async () => {
    const res = await h.op('clientAuth.signin', { body: { email: form.email, password: form.password } });
    expect(res.statusCode).toBe(200);
    const session = decodeSession(res.json().clientToken)!;
    expect(session).toMatchObject({
      idUser,
      state: 'active',
      roles: ['superadmin'],
      associations: [],
      fullName: 'Laura Gómez',
      email: 'laura.gomez@empresa-flujo.co',
      profilePic: '',
      company: { id: expect.any(Number), name: 'Empresa Flujo S.A.S.', nit: '901234567-1', state: 'validation', planType: 'pilot' },
    });
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.permissions.defaultModule).toBe('/User');
    expect(session.permissions.menu.find((g) => g.id === 6002)?.actions).toEqual(expect.arrayContaining(['view', 'edit']));
    expect(new Date(session.expiresAt!).getTime()).toBeGreaterThan(Date.now());
    token = session.token;
    // Only the token's hash is stored.
    const stored = await h.db.selectFrom('tokens').select('token_hash').where('user_id', '=', idUser).execute();
    expect(stored.map((t) => t.token_hash)).not.toContain(token);
  });

  it('the token works in X-Auth-Token, X-Client-Token and Authorization: Bearer', async () => {
    const variants: Record<string, string>[] = [{ 'x-auth-token': token }, { 'x-client-token': token }, { authorization: `Bearer ${token}` }];
    for (const headers of variants) {
      const res = await h.op('clients.get', { params: { id: idUser }, headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().email).toBe('laura.gomez@empresa-flujo.co');
    }
  });

  it('signout revokes the token; it is refused afterwards with 99953', async () => {
    const out = await h.op('clientAuth.signout', { token });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    const after = await h.op('clients.get', { params: { id: idUser }, token });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ code: '99953', message: expect.any(String) });
    const twice = await h.op('clientAuth.signout', { token });
    expect(twice.json().code).toBe('99953');
  });

  it('a second registration with the same e-mail (any case) is answered as a new one, creates nothing and tells the owner', async () => {
    const users = await h.count('users');
    const res = await h.op('clientAuth.register', { body: { ...form, email: 'LAURA.GOMEZ@empresa-flujo.co', phone: '3015551234' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ idUser: expect.any(Number), state: 'pending', email: 'laura.gomez@empresa-flujo.co' });
    expect(res.json().idUser).not.toBe(idUser);
    expect(await h.count('users')).toBe(users);
    expect((await h.outbox('laura.gomez@empresa-flujo.co')).some((m) => /already has an account/.test(m.body))).toBe(true);
  });

  it('a registration the database cannot complete answers 99995 (registration not completed) and leaves nothing half-made', async () => {
    const before = await h.snapshot();
    // The last write of the registration's transaction fails: the company and the user written before it go too.
    await sql`alter table password_history rename to password_history_away`.execute(h.db);
    try {
      const res = await h.op('clientAuth.register', { body: { ...form, email: 'sin.cierre@empresa-flujo.co', phone: '3205550000', nit: '900555666-1', companyName: 'Sin Cierre S.A.S.' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('99995');
    } finally {
      await sql`alter table password_history_away rename to password_history`.execute(h.db);
    }
    expect(await h.snapshot()).toEqual(before);
  });

  it('a phone already linked to another user answers 99988', async () => {
    const before = await h.snapshot();
    const res = await h.op('clientAuth.register', { body: { ...form, email: 'otra@empresa-flujo.co', phone: '+57 300 555 1234' } });
    expect(res.json().code).toBe('99988');
    expect(await h.snapshot()).toEqual(before);
  });

  it('register without sendEmail sends nothing; saveOtp then sends the code by SMS or e-mail', async () => {
    const res = await h.op('clientAuth.register', { body: { ...form, email: 'sin.correo@empresa-flujo.co', phone: '3105550000', sendEmail: false } });
    expect(res.statusCode).toBe(200);
    expect(await h.outbox('sin.correo@empresa-flujo.co')).toHaveLength(0);
    const sms = await h.op('clientAuth.saveOtp', { body: { email: 'sin.correo@empresa-flujo.co', method: 'sms' } });
    expect(sms.statusCode).toBe(200);
    expect(sms.json()).toMatchObject({ sent: true, method: 'sms', to: '+57310***0000' });
    const texts = await h.outbox('+573105550000');
    expect(texts[0].channel).toBe('sms');
    const mail = await h.op('clientAuth.saveOtp', { body: { email: 'sin.correo@empresa-flujo.co' } });
    expect(mail.json()).toMatchObject({ sent: true, method: 'email', to: 's***@empresa-flujo.co' });
    expect(new Date(mail.json().expiresAt).getTime()).toBe(h.clock.now.getTime() + 300_000);
    // The newest code replaces the SMS one.
    const smsCode = /\b(\d{6})\b/.exec(texts[0].body)![1];
    const mailCode = await h.lastCode('sin.correo@empresa-flujo.co');
    if (smsCode !== mailCode) {
      const old = await h.op('clientAuth.validateOtp', { body: { email: 'sin.correo@empresa-flujo.co', code: smsCode } });
      expect(old.json().code).toBe('99941');
    }
    const ok = await h.op('clientAuth.validateOtp', { body: { email: 'sin.correo@empresa-flujo.co', code: mailCode } });
    expect(ok.json()).toEqual({ valid: true, state: 'active' });
  });
});
