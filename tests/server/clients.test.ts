// Users (schemas/api/clients.yaml): reading and editing, own record without the permission,
// password change, profile pictures, hierarchy, list; company scoping throughout.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, signedInUsers } from './file-harness.ts';
import { multipart, PNG_1x1, TEST_PASSWORD } from './harness.ts';

const h = fileHarness();
const users = signedInUsers(h, 'superadmin', 'analista');
let adminId: number;
beforeAll(async () => {
  adminId = (await h.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.colibri.co').executeTakeFirstOrThrow()).id;
});

describe('clients.get and clients.usersList', () => {
  it('a user reads their own record without the users permission (self)', async () => {
    const res = await h.op('clients.get', { params: { id: users.analista.id }, token: users.analista.token });
    expect(res.statusCode).toBe(200);
    const user = res.json();
    expect(user).toMatchObject({ id: users.analista.id, email: 'analista@demo.colibri.co', state: 'active', roles: ['analista'], phone: expect.stringMatching(/^\+57/) });
    for (const secret of ['password', 'password_hash', 'passwordHash', 'failed_logins', 'locked_until', 'companyId']) expect(user).not.toHaveProperty(secret);
  });

  it('an analista may not read another user (component 6002): 99982', async () => {
    const res = await h.op('clients.get', { params: { id: users.superadmin.id }, token: users.analista.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
    expect(res.body).not.toContain('superadmin@demo.colibri.co');
  });

  it('an analista may not list the users: 99982', async () => {
    const res = await h.op('clients.usersList', { token: users.analista.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });

  it('a superadmin reads others and lists the company users with their roles', async () => {
    const one = await h.op('clients.get', { params: { id: adminId }, token: users.superadmin.token });
    expect(one.json()).toMatchObject({ id: adminId, roles: ['admin'], parentId: users.superadmin.id });
    const list = await h.op('clients.usersList', { token: users.superadmin.token });
    expect(list.statusCode).toBe(200);
    const listed = list.json() as { email: string; roles: string[] }[];
    expect(listed).toHaveLength(18); // 12 role and state users + the demo team
    expect(listed.find((u) => u.email === 'develop@demo.colibri.co')?.roles).toEqual(['develop', 'colibriSms']);
  });

  it('an unknown id answers 99959; a malformed id 99931', async () => {
    expect((await h.op('clients.get', { params: { id: 999999 }, token: users.superadmin.token })).json().code).toBe('99959');
    expect((await h.op('clients.get', { params: { id: 'abc' }, token: users.superadmin.token })).json().code).toBe('99931');
    expect((await h.op('clients.get', { params: { id: 0 }, token: users.superadmin.token })).json().code).toBe('99931');
  });

  it('a user who is not active reads only their own record', async () => {
    const { token, session } = await h.as('pending'); // holds the superadmin role, but is pending
    expect((await h.op('clients.get', { params: { id: session.idUser }, token })).statusCode).toBe(200);
    // Not verified yet (pending): told to verify their e-mail and phone.
    expect((await h.op('clients.get', { params: { id: adminId }, token })).json().code).toBe('99951');
  });
});

describe('company scoping', () => {
  let other: { token: string; id: number };
  beforeAll(async () => {
    const b = await h.addCompany('Otra Empresa S.A.S.', [{ email: 'jefe@otra-empresa.co', roles: ['superadmin'] }, { email: 'ana@otra-empresa.co', roles: ['analista'] }]);
    const s = await h.signin('jefe@otra-empresa.co');
    other = { token: s.token, id: b.userIds[0] };
  });

  it("a superadmin of company B cannot read company A's user, and sees none of its data", async () => {
    for (const id of ['clients.get', 'clients.getProfilePic', 'clients.hierarchy'] as const) {
      const res = await h.op(id, { params: { id: users.superadmin.id }, token: other.token });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('99959');
      expect(res.body).not.toContain('demo.colibri.co');
    }
  });

  it("cannot edit or upload to company A's user", async () => {
    const before = await h.snapshot();
    expect((await h.op('clients.patch', { params: { id: adminId }, body: { fullName: 'Hackeado' }, token: other.token })).json().code).toBe('99959');
    const upload = multipart('file', 'a.png', 'image/png', PNG_1x1);
    expect((await h.op('clients.uploadProfilePic', { params: { id: adminId }, token: other.token, ...upload })).json().code).toBe('99959');
    expect(await h.snapshot()).toEqual(before);
  });

  it("lists only company B's users", async () => {
    const list = (await h.op('clients.usersList', { token: other.token })).json() as { email: string }[];
    expect(list.map((u) => u.email).sort()).toEqual(['ana@otra-empresa.co', 'jefe@otra-empresa.co']);
  });
});

describe('clients.patch', () => {
  it('a user edits their own profile fields; the phone is stored in E.164', async () => {
    const res = await h.op('clients.patch', {
      params: { id: users.analista.id },
      token: users.analista.token,
      body: { fullName: 'Andrea Analista', phone: '310 555 7788', documentType: 'CE', documentId: '123456', address: 'Cra 7 # 71-21', otpMethod: 'sms' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ fullName: 'Andrea Analista', phone: '+573105557788', documentType: 'CE', documentId: '123456', address: 'Cra 7 # 71-21', otpMethod: 'sms' });
  });

  it('an analista may not edit another user: 99982, nothing changes', async () => {
    const before = await h.snapshot();
    const res = await h.op('clients.patch', { params: { id: adminId }, token: users.analista.token, body: { fullName: 'Otro' } });
    expect(res.json().code).toBe('99982');
    expect(await h.snapshot()).toEqual(before);
  });

  it('a superadmin edits another user of the company', async () => {
    const res = await h.op('clients.patch', { params: { id: adminId }, token: users.superadmin.token, body: { address: 'Calle 26 # 59-51' } });
    expect(res.json().address).toBe('Calle 26 # 59-51');
  });

  it.each([
    ['an empty body', {}, '99931'],
    ['an unknown field', { email: 'nuevo@demo.colibri.co' }, '99931'],
    ['HTML in the name', { fullName: '<b>x</b>' }, '99931'],
    ['a bad phone', { phone: '12345' }, '99931'],
    ['a document id with letters', { documentId: '12AB' }, '99931'],
    ['a weak new password', { currentPassword: TEST_PASSWORD, password: 'abc' }, '99938'],
    ['a new password without the current one', { password: 'Segura#2025b' }, '99999'],
    ['the current password without a new one', { currentPassword: TEST_PASSWORD }, '99999'],
    ['a wrong current password', { currentPassword: 'Incorrecta#1', password: 'Segura#2025b' }, '99935'],
    ['the current password as the new one', { currentPassword: TEST_PASSWORD, password: TEST_PASSWORD }, '99939'],
  ])('refuses %s with %s and changes nothing', async (_name, body, code) => {
    const before = await h.snapshot();
    const res = await h.op('clients.patch', { params: { id: users.superadmin.id }, token: users.superadmin.token, body });
    expect(res.json().code).toBe(code);
    expect(await h.snapshot()).toEqual(before);
  });

  it("a password may only be changed on one's own record", async () => {
    const res = await h.op('clients.patch', { params: { id: adminId }, token: users.superadmin.token, body: { currentPassword: TEST_PASSWORD, password: 'Segura#2025b' } });
    expect(res.json().code).toBe('99982');
  });

  it('changes the password: the old one stops working, other sessions end, this one stays', async () => {
    const second = await h.as('superadmin');
    const res = await h.op('clients.patch', { params: { id: users.superadmin.id }, token: users.superadmin.token, body: { currentPassword: TEST_PASSWORD, password: 'Cambiada#2025' } });
    expect(res.statusCode).toBe(200);
    expect((await h.op('clientAuth.signin', { body: { email: 'superadmin@demo.colibri.co', password: TEST_PASSWORD } })).json().code).toBe('99996');
    expect((await h.op('clients.get', { params: { id: users.superadmin.id }, token: second.token })).json().code).toBe('99953');
    expect((await h.op('clients.get', { params: { id: users.superadmin.id }, token: users.superadmin.token })).statusCode).toBe(200);
  });

  it('no reuse of the last five passwords; the sixth back is allowed again', async () => {
    const { token, session } = await h.as('ops');
    const change = (currentPassword: string, password: string) => h.op('clients.patch', { params: { id: session.idUser }, token, body: { currentPassword, password } });
    const sequence = ['Primera#2025', 'Segunda#2025', 'Tercera#2025', 'Cuarta#2025', 'Quinta#2025'];
    let current = TEST_PASSWORD;
    for (const next of sequence) {
      expect((await change(current, next)).statusCode).toBe(200);
      current = next;
    }
    const recent = await change(current, 'Segunda#2025');
    expect(recent.json()).toEqual({ code: '99939', message: 'The new password has been used recently' });
    expect((await change(current, TEST_PASSWORD)).statusCode).toBe(200); // six changes ago
  });

  it('a needsNewPassword user changes their own password and becomes active', async () => {
    const { token, session } = await h.as('needsNewPassword');
    const res = await h.op('clients.patch', { params: { id: session.idUser }, token, body: { currentPassword: TEST_PASSWORD, password: 'Renovada#2025' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().state).toBe('active');
  });
});

describe('profile pictures', () => {
  it('answers an empty url when the user has none (the console shows the default icon)', async () => {
    const res = await h.op('clients.getProfilePic', { params: { id: users.analista.id }, token: users.analista.token });
    expect(res.json()).toEqual({ url: '' });
  });

  it('stores a real PNG and serves it back with its type and nosniff', async () => {
    const upload = multipart('file', 'yo.png', 'image/png', PNG_1x1);
    const res = await h.op('clients.uploadProfilePic', { params: { id: users.analista.id }, token: users.analista.token, ...upload });
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(/^\/v1\/files\/[A-Za-z0-9_-]{32}$/);
    expect((await h.op('clients.getProfilePic', { params: { id: users.analista.id }, token: users.analista.token })).json()).toEqual({ url });
    const file = await h.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.rawPayload, PNG_1x1)).toBe(0);
    // The session payload carries it too.
    expect((await h.as('analista')).session.profilePic).toBe(url);
  });

  it('a new picture replaces the old one, which is deleted', async () => {
    const old = (await h.op('clients.getProfilePic', { params: { id: users.analista.id }, token: users.analista.token })).json().url;
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(20)]);
    const res = await h.op('clients.uploadProfilePic', { params: { id: users.analista.id }, token: users.analista.token, ...multipart('file', 'yo.gif', 'image/gif', gif) });
    expect(res.statusCode).toBe(200);
    expect((await h.op('system.file', { params: { id: old.split('/').pop() } })).json().code).toBe('99936');
    const served = await h.app.inject({ method: 'GET', url: res.json().url });
    expect(served.headers['content-type']).toBe('image/gif');
  });

  it.each([
    ['text named .png', multipart('file', 'x.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>'))],
    ['an SVG (scriptable)', multipart('file', 'x.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))],
    ['a PDF', multipart('file', 'x.png', 'image/png', Buffer.from('%PDF-1.7\n...'))],
    ['the wrong field name', multipart('picture', 'x.png', 'image/png', PNG_1x1)],
    ['JSON instead of a form', { payload: JSON.stringify({ file: 'x' }), headers: { 'content-type': 'application/json' } }],
  ])('refuses %s with 99932 and stores nothing', async (_name, upload) => {
    const before = await h.snapshot();
    const res = await h.op('clients.uploadProfilePic', { params: { id: users.analista.id }, token: users.analista.token, ...upload });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('99932');
    expect(await h.snapshot()).toEqual(before);
  });

  it('refuses a picture over 2 MiB as too large (99937, the one upload intake) and stores nothing', async () => {
    const before = await h.snapshot();
    const res = await h.op('clients.uploadProfilePic', { params: { id: users.analista.id }, token: users.analista.token, ...multipart('file', 'big.png', 'image/png', Buffer.concat([PNG_1x1, Buffer.alloc(2 * 1024 * 1024)])) });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('99937');
    expect(await h.snapshot()).toEqual(before);
  });

  it("an analista may not change another user's picture: 99982", async () => {
    const res = await h.op('clients.uploadProfilePic', { params: { id: adminId }, token: users.analista.token, ...multipart('file', 'a.png', 'image/png', PNG_1x1) });
    expect(res.json().code).toBe('99982');
  });
});

describe('clients.hierarchy', () => {
  it("the superadmin's tree holds the users who report to them", async () => {
    const res = await h.op('clients.hierarchy', { params: { id: users.superadmin.id }, token: users.superadmin.token });
    expect(res.statusCode).toBe(200);
    const tree = res.json();
    expect(tree).toMatchObject({ id: users.superadmin.id, email: 'superadmin@demo.colibri.co' });
    expect(tree.children.map((c: { email: string }) => c.email)).toEqual(expect.arrayContaining(['admin@demo.colibri.co', 'analista@demo.colibri.co', 'pending@demo.colibri.co']));
  });

  it('an analista sees their own (leaf) node, not others', async () => {
    const own = await h.op('clients.hierarchy', { params: { id: users.analista.id }, token: users.analista.token });
    expect(own.json()).toMatchObject({ id: users.analista.id, children: [] });
    expect((await h.op('clients.hierarchy', { params: { id: users.superadmin.id }, token: users.analista.token })).json().code).toBe('99982');
  });
});
