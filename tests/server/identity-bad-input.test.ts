// Bad input for every identity endpoint: missing fields, wrong types, huge bodies, malformed
// JSON, SQL and HTML in strings. Each answer carries the catalogue code with the catalogue's
// HTTP status, and nothing in the database changes (row counts and the users', codes' and
// tokens' mutable columns are compared before and after).
import { beforeAll, describe, expect, it } from 'vitest';
import { serverErrors } from '../../src/generated/errors.gen.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { fileHarness } from './file-harness.ts';
import { type OpArgs } from './harness.ts';

const h = fileHarness();
beforeAll(async () => {
  // A live code for the demo superadmin, so validateOtp cases meet a real row they must not touch.
  await h.op('clientAuth.saveOtp', { body: { email: 'superadmin@demo.colibri.co' } });
});

type Case = [string, OperationId, OpArgs, string];

const SQL = "' OR '1'='1'; DROP TABLE users; --";
const HTML = '<script>alert(1)</script>';
const HUGE = 'x'.repeat(1024 * 1024 + 10);

const validBodies = {
  'clientAuth.validate': { email: 'superadmin@demo.colibri.co' },
  'clientAuth.signin': { email: 'nadie@empresa-ficticia.co', password: 'Cualquiera#1' },
  'clientAuth.register': {
    fullName: 'Ana Pérez', email: 'ana@empresa-nueva.co', password: 'Segura#2025a', companyName: 'Empresa Nueva',
    nit: '900111222-3', phone: '3001112233', acceptTerms: true, captchaToken: 'sandbox-ok', sendEmail: true,
  },
  'clientAuth.recoverPassword': { email: 'superadmin@demo.colibri.co' },
  'clientAuth.saveOtp': { email: 'superadmin@demo.colibri.co' },
  'clientAuth.validateOtp': { email: 'superadmin@demo.colibri.co', code: '000000' },
} as const;
type BodyOp = keyof typeof validBodies;
const bodyOps = Object.keys(validBodies) as BodyOp[];
const requiredOf: Record<BodyOp, string[]> = {
  'clientAuth.validate': ['email'],
  'clientAuth.signin': ['email', 'password'],
  'clientAuth.register': ['fullName', 'email', 'password', 'companyName', 'nit', 'phone', 'acceptTerms', 'captchaToken'],
  'clientAuth.recoverPassword': ['email'],
  'clientAuth.saveOtp': ['email'],
  'clientAuth.validateOtp': ['email', 'code'],
};
const without = (body: object, field: string) => Object.fromEntries(Object.entries(body).filter(([k]) => k !== field));
const json = (payload: string): OpArgs => ({ payload, headers: { 'content-type': 'application/json' } });

const shapeCases: Case[] = bodyOps.flatMap((id): Case[] => [
  [`${id}: no body`, id, {}, '99999'],
  [`${id}: empty object`, id, { body: {} }, '99999'],
  [`${id}: JSON null`, id, json('null'), '99999'],
  [`${id}: an array`, id, { body: [validBodies[id]] }, '99931'],
  [`${id}: a string`, id, { body: 'email=a@b.co' }, '99931'],
  [`${id}: malformed JSON`, id, json('{"email": "a@b.co",'), '99931'],
  [`${id}: text/plain`, id, { payload: 'email=a@b.co', headers: { 'content-type': 'text/plain' } }, '99931'],
  [`${id}: unknown field`, id, { body: { ...validBodies[id], isAdmin: true } }, '99931'],
  [`${id}: __proto__ pollution`, id, json(`{"__proto__": {"isAdmin": true}, ${JSON.stringify(validBodies[id]).slice(1)}`), '99931'],
  [`${id}: constructor.prototype pollution`, id, json(`{"constructor": {"prototype": {"isAdmin": true}}, ${JSON.stringify(validBodies[id]).slice(1)}`), '99931'],
  [`${id}: body over 1 MiB`, id, { body: { ...validBodies[id], email: HUGE } }, '99937'],
  ...requiredOf[id].map((field): Case => [`${id}: missing ${field}`, id, { body: without(validBodies[id], field) }, '99999']),
]);

// Wrong JSON types: the field's own x-errorCode when it declares one, else 99931.
const typeCases: Case[] = [
  ['validate: email is a number', 'clientAuth.validate', { body: { email: 12345 } }, '99931'],
  ['validate: email is an object', 'clientAuth.validate', { body: { email: { $ne: null } } }, '99931'],
  ['signin: password is a number', 'clientAuth.signin', { body: { email: 'a@empresa.co', password: 12345678 } }, '99931'],
  ['signin: password is an array', 'clientAuth.signin', { body: { email: 'a@empresa.co', password: ['x'] } }, '99931'],
  ['signin: captchaToken is a boolean', 'clientAuth.signin', { body: { email: 'a@empresa.co', password: 'x', captchaToken: true } }, '99931'],
  ['signin: empty password', 'clientAuth.signin', { body: { email: 'a@empresa.co', password: '' } }, '99931'],
  ['register: fullName is a number', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], fullName: 5 } }, '99931'],
  ['register: email is a number', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], email: 5 } }, '99947'],
  ['register: password is a number', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], password: 12345678 } }, '99938'],
  ['register: nit is a number', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], nit: 900111222 } }, '99931'],
  ['register: phone is a number', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], phone: 3001112233 } }, '99931'],
  ['register: acceptTerms is "true"', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], acceptTerms: 'true' } }, '99934'],
  ['register: acceptTerms is false', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], acceptTerms: false } }, '99934'],
  ['register: sendEmail is "yes"', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], sendEmail: 'yes' } }, '99931'],
  ['register: captchaToken is an object', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], captchaToken: {} } }, '99931'],
  ['recoverPassword: code is a number', 'clientAuth.recoverPassword', { body: { email: 'a@empresa.co', code: 123456, password: 'Segura#2025a' } }, '99931'],
  ['saveOtp: method is "fax"', 'clientAuth.saveOtp', { body: { email: 'a@empresa.co', method: 'fax' } }, '99931'],
  ['validateOtp: code is a number', 'clientAuth.validateOtp', { body: { email: 'a@empresa.co', code: 123456 } }, '99941'],
  ['validateOtp: code has 5 digits', 'clientAuth.validateOtp', { body: { email: 'a@empresa.co', code: '12345' } }, '99941'],
];

// Values the rules refuse: public e-mail domains, the password policy, bad phones and NITs.
const ruleCases: Case[] = [
  ['register: public e-mail domain', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], email: 'ana@gmail.com' } }, '99947'],
  ['register: weak password', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], password: 'password' } }, '99938'],
  ['register: password of 257 characters', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], password: `Aa1#${'x'.repeat(253)}` } }, '99938'],
  ['register: phone not Colombian', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], phone: '+1 202 555 0100' } }, '99931'],
  ['register: NIT with letters', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], nit: '90A111222' } }, '99931'],
  ['register: captcha refused', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], captchaToken: 'robot' } }, '99998'],
  ['register: fullName of 121 characters', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], fullName: 'a'.repeat(121) } }, '99931'],
  ['recoverPassword: code without password', 'clientAuth.recoverPassword', { body: { email: 'superadmin@demo.colibri.co', code: '123456' } }, '99999'],
  ['recoverPassword: password without code', 'clientAuth.recoverPassword', { body: { email: 'superadmin@demo.colibri.co', password: 'Segura#2025a' } }, '99999'],
  ['recoverPassword: weak new password', 'clientAuth.recoverPassword', { body: { email: 'superadmin@demo.colibri.co', code: '123456', password: 'abc' } }, '99938'],
  ['saveOtp: unknown e-mail', 'clientAuth.saveOtp', { body: { email: 'nadie@empresa-ficticia.co' } }, '99997'],
  ['validate: unknown e-mail', 'clientAuth.validate', { body: { email: 'nadie@empresa-ficticia.co' } }, '99997'],
  ['validateOtp: unknown e-mail', 'clientAuth.validateOtp', { body: { email: 'nadie@empresa-ficticia.co', code: '123456' } }, '99997'],
  ['signin: unknown e-mail', 'clientAuth.signin', { body: { email: 'nadie@empresa-ficticia.co', password: 'Segura#2025a' } }, '99996'],
];

// SQL and HTML: refused by the declared formats, or (where the text is well-formed) harmless
// because every query is parameterised: the answer is the ordinary "not found" code.
const injectionCases: Case[] = [
  ['validate: SQL as e-mail', 'clientAuth.validate', { body: { email: SQL } }, '99931'],
  ['validate: SQL inside a well-formed e-mail', 'clientAuth.validate', { body: { email: "x'or'1'='1@empresa.co" } }, '99997'],
  ['validate: HTML as e-mail', 'clientAuth.validate', { body: { email: `${HTML}@empresa.co` } }, '99931'],
  ['signin: SQL as e-mail', 'clientAuth.signin', { body: { email: SQL, password: SQL } }, '99931'],
  ['signin: SQL inside a well-formed e-mail', 'clientAuth.signin', { body: { email: "admin'--@demo.colibri.co", password: 'x' } }, '99996'],
  ['signin: SQL as password of an unknown user', 'clientAuth.signin', { body: { email: 'nadie@empresa-ficticia.co', password: SQL } }, '99996'],
  ['signin: HTML as e-mail', 'clientAuth.signin', { body: { email: HTML, password: 'x' } }, '99931'],
  ['register: SQL as e-mail', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], email: SQL } }, '99947'],
  ['register: HTML as e-mail', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], email: `${HTML}@empresa.co` } }, '99947'],
  ['register: HTML as fullName', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], fullName: HTML } }, '99931'],
  ['register: HTML as companyName', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], companyName: `<img src=x onerror=alert(1)>` } }, '99931'],
  ['register: SQL as NIT', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], nit: "1' OR 1=1" } }, '99931'],
  ['register: SQL as phone', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], phone: "300'; DELETE FROM users;--" } }, '99931'],
  ['register: SQL as password', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], password: SQL } }, '99938'],
  ['register: HTML as captcha token', 'clientAuth.register', { body: { ...validBodies['clientAuth.register'], captchaToken: HTML } }, '99998'],
  ['recoverPassword: SQL as code', 'clientAuth.recoverPassword', { body: { email: 'superadmin@demo.colibri.co', code: SQL, password: 'Segura#2025a' } }, '99931'],
  ['recoverPassword: HTML as e-mail', 'clientAuth.recoverPassword', { body: { email: HTML } }, '99931'],
  ['saveOtp: SQL as e-mail', 'clientAuth.saveOtp', { body: { email: SQL } }, '99931'],
  ['saveOtp: SQL inside a well-formed e-mail', 'clientAuth.saveOtp', { body: { email: "x'or'1'='1@empresa.co" } }, '99997'],
  ['validateOtp: SQL as code', 'clientAuth.validateOtp', { body: { email: 'superadmin@demo.colibri.co', code: "1' OR '1'='1" } }, '99941'],
  ['validateOtp: HTML as code', 'clientAuth.validateOtp', { body: { email: 'superadmin@demo.colibri.co', code: HTML } }, '99941'],
];

// signout takes no body: its bad input is the token.
const signoutCases: Case[] = [
  ['signout: no token', 'clientAuth.signout', {}, '99953'],
  ['signout: random token', 'clientAuth.signout', { token: 'R'.repeat(43) }, '99953'],
  ['signout: SQL as token', 'clientAuth.signout', { token: SQL }, '99953'],
  ['signout: HTML as token', 'clientAuth.signout', { headers: { 'x-client-token': HTML } }, '99953'],
  ['signout: 8 KB token', 'clientAuth.signout', { headers: { authorization: `Bearer ${'a'.repeat(8000)}` } }, '99953'],
  ['signout: Basic instead of Bearer', 'clientAuth.signout', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }, '99953'],
  ['signout: token of an unknown user in the component headers only', 'clientAuth.signout', { headers: { 'x-component-id': '6002', 'x-component-action': 'edit' } }, '99953'],
];

describe.each([
  ['shape', shapeCases],
  ['types', typeCases],
  ['rules', ruleCases],
  ['SQL and HTML', injectionCases],
  ['signout', signoutCases],
])('identity bad input: %s', (_group, cases) => {
  it.each(cases)('%s -> %s', async (_name, id, args, want) => {
    const before = await h.snapshot();
    const res = await h.op(id, args);
    const body = res.json();
    expect(body.code).toBe(want);
    expect(res.statusCode).toBe(serverErrors[want as keyof typeof serverErrors].http);
    expect(typeof body.message).toBe('string');
    expect(Object.keys(body).every((k) => ['code', 'message', 'errors'].includes(k))).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/DROP TABLE|select |stack|at .*\.ts:/i);
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('validation answers name the fields', () => {
  it('lists every failing field with its own code', async () => {
    const res = await h.op('clientAuth.register', {
      body: { ...validBodies['clientAuth.register'], email: 'ana@hotmail.com', password: 'short', acceptTerms: false, phone: undefined },
    });
    const body = res.json();
    expect(body.code).toBe('99999'); // a missing field comes first
    expect(body.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'phone', code: '99999' }),
      expect.objectContaining({ field: 'email', code: '99947' }),
      expect.objectContaining({ field: 'password', code: '99938' }),
      expect.objectContaining({ field: 'acceptTerms', code: '99934' }),
    ]));
  });

  it('the tables are intact after the SQL cases', async () => {
    expect(await h.count('users')).toBe(20); // the demo seed: 18 in Demo S.A.S., 2 in Andina Logística
    expect(await h.count('companies')).toBe(2);
  });

  it('SQL metacharacters in a legitimate name are stored verbatim, not executed', async () => {
    const name = "O'Neill; DROP TABLE users; --";
    const res = await h.op('clientAuth.register', {
      body: { ...validBodies['clientAuth.register'], fullName: name, companyName: "Comercial D'Alessandro & Cía" },
    });
    expect(res.statusCode).toBe(200);
    const row = await h.db.selectFrom('users').select('full_name').where('id', '=', res.json().idUser).executeTakeFirstOrThrow();
    expect(row.full_name).toBe(name);
    expect(await h.count('users')).toBe(21);
  });
});
