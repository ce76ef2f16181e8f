// Password recovery (both steps) and registration answer an e-mail that has an account exactly as
// one that has none: the same status and body, so neither form tells who is a customer. What
// differs is only what reaches the mailbox's owner.
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { fileHarness } from './file-harness.ts';
import { TEST_PASSWORD } from './harness.ts';

const h = fileHarness();

const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.json() as unknown });

describe('password recovery', () => {
  it('asking for a code answers { sent: true } whether or not the e-mail has an account; only an account gets a code', async () => {
    const known = await h.op('clientAuth.recoverPassword', { body: { email: 'andres.mejia@demo.colibri.co' } });
    const unknown = await h.op('clientAuth.recoverPassword', { body: { email: 'nadie.aqui@empresa-ficticia.co' } });
    expect(answer(unknown)).toEqual(answer(known));
    expect(answer(known)).toEqual({ status: 200, body: { sent: true, changed: false } });
    expect(await h.outbox('andres.mejia@demo.colibri.co')).toHaveLength(1);
    expect(await h.outbox('nadie.aqui@empresa-ficticia.co')).toHaveLength(0);
  });

  it('asking again and again answers the same for both; past the codes a user may get, the newest one stays good', async () => {
    const email = 'paula.rios@demo.colibri.co';
    const asks = async (to: string) => {
      const all = [];
      for (let i = 0; i < 7; i++) all.push(answer(await h.op('clientAuth.recoverPassword', { body: { email: to } })));
      return all;
    };
    const known = await asks(email);
    expect(await asks('tampoco.existe@empresa-ficticia.co')).toEqual(known);
    expect(new Set(known.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify({ status: 200, body: { sent: true, changed: false } })]));
    const code = await h.lastCode(email);
    expect((await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Nueva#Clave2026' } })).json()).toEqual({ sent: false, changed: true });
  });

  it('setting a password with a code answers an unknown e-mail as a wrong code for an account (99941)', async () => {
    const email = 'diana.lopez@demo.colibri.co';
    const body = { code: '123456', password: 'Otra#Clave2026' };
    // An account with no code asked for, an account with a live code, and no account at all.
    const none = await h.op('clientAuth.recoverPassword', { body: { email, ...body } });
    await h.op('clientAuth.recoverPassword', { body: { email } });
    const live = await h.op('clientAuth.recoverPassword', { body: { email, ...body, code: (await h.lastCode(email)) === '123456' ? '654321' : '123456' } });
    const unknown = await h.op('clientAuth.recoverPassword', { body: { email: 'nadie.aqui@empresa-ficticia.co', ...body } });
    expect(answer(none)).toEqual(answer(unknown));
    expect(answer(live)).toEqual(answer(unknown));
    expect(answer(unknown)).toEqual({ status: 400, body: { code: '99941', message: 'Invalid OTP code' } });
  });

  it('a code that ran out is called expired only to whoever holds it', async () => {
    const email = 'felipe.cano@demo.colibri.co';
    await h.op('clientAuth.recoverPassword', { body: { email } });
    const code = await h.lastCode(email);
    h.clock.advance(24 * 3600_000);
    const wrong = code === '123456' ? '654321' : '123456';
    expect((await h.op('clientAuth.recoverPassword', { body: { email, code: wrong, password: 'Otra#Clave2026' } })).json().code).toBe('99941');
    expect((await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Otra#Clave2026' } })).json().code).toBe('99940');
  });

  it('a recent password is refused (99939) only to whoever holds the code: without it, no oracle for the account\'s passwords', async () => {
    const email = 'jorge.pardo@demo.colibri.co';
    const guess = await h.op('clientAuth.recoverPassword', { body: { email, code: '123456', password: TEST_PASSWORD } });
    expect(guess.json().code).toBe('99941');
    await h.op('clientAuth.recoverPassword', { body: { email } });
    const code = await h.lastCode(email);
    expect((await h.op('clientAuth.recoverPassword', { body: { email, code, password: TEST_PASSWORD } })).json().code).toBe('99939');
    // The refusal did not spend the code.
    expect((await h.op('clientAuth.recoverPassword', { body: { email, code, password: 'Distinta#2026' } })).json()).toEqual({ sent: false, changed: true });
  });
});

describe('registration', () => {
  const form = (email: string, phone: string) => ({
    fullName: 'Ana Pérez', email, password: 'Segura#2025a', companyName: 'Empresa Nueva', nit: '900111222-3',
    phone, acceptTerms: true, captchaToken: 'sandbox-ok', sendEmail: true,
  });
  /** The answer with its id and e-mail replaced by their types (they differ from call to call). */
  const shape = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: { ...res.json(), idUser: typeof res.json().idUser, email: typeof res.json().email } });

  it('an e-mail that has an account is answered as a new one; its owner is told, nothing is created', async () => {
    const counts = { users: await h.count('users'), companies: await h.count('companies') };
    const existing = await h.op('clientAuth.register', { body: form('Carolina.Ruiz@Demo.Colibri.co', '3007770001') });
    expect({ users: await h.count('users'), companies: await h.count('companies') }).toEqual(counts);
    const fresh = await h.op('clientAuth.register', { body: form('Ana.Perez@Empresa-Nueva.co', '3007770002') });
    expect(shape(existing)).toEqual(shape(fresh));
    expect(existing.json()).toEqual({ idUser: expect.any(Number), state: 'pending', email: 'carolina.ruiz@demo.colibri.co' });
    // Its id is one a new user would have had: the next real registration's comes after it.
    expect(fresh.json().idUser).toBeGreaterThan(existing.json().idUser);
    expect(await h.db.selectFrom('users').select('id').where('id', '=', existing.json().idUser).executeTakeFirst()).toBeUndefined();
    // The new registrant gets a code; the owner a notice without one.
    expect((await h.outbox('ana.perez@empresa-nueva.co'))[0].body).toMatch(/\b\d{6}\b/);
    const notice = await h.outbox('carolina.ruiz@demo.colibri.co');
    expect(notice).toHaveLength(1);
    expect(notice[0].body).toMatch(/already has an account/);
    expect(notice[0].body).not.toMatch(/\b\d{6}\b/);
    // The owner's account is untouched: the same password signs in.
    expect((await h.signin('carolina.ruiz@demo.colibri.co', TEST_PASSWORD)).session.state).toBe('active');
  });

  it('a phone already linked answers 99988 the same whether or not the e-mail has an account', async () => {
    const existing = await h.op('clientAuth.register', { body: form('carolina.ruiz@demo.colibri.co', '3007770002') });
    const fresh = await h.op('clientAuth.register', { body: form('otra.persona@empresa-nueva.co', '3007770002') });
    expect(answer(existing)).toEqual(answer(fresh));
    expect(existing.json().code).toBe('99988');
  });
});
