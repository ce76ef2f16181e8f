// Team management (schemas/api/team.yaml): list convention, get, create with the e-mailed code,
// update, delete; permissions (99982), another company's ids (99959), bad input (catalogue code,
// nothing changed) and the no-escalation rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { demoEmail, demoTeam } from '../../src/server/db/demo-seed.ts';
import { fileHarness, signedInUsers } from './file-harness.ts';
import { TEST_PASSWORD } from './harness.ts';
import { activate, addMember, asOther, demoUserId, MEMBER_PASSWORD, memberBody, roleIdByName } from './team-helpers.ts';

const h = fileHarness();
const users = signedInUsers(h, 'manager', 'analista');
let analistaRole: number;
beforeAll(async () => {
  analistaRole = await roleIdByName(h, 'analista');
});

type Member = { id: number; name: string; email: string; state: string; roles: string[]; roleIds: number[]; areaId: number | null; areaName: string | null; costCenterName: string | null; parentId: number | null; parentName: string | null };

describe('team.list (list convention)', () => {
  it('answers the first page of the whole company with defaults page 1, pageSize 50', async () => {
    const res = await h.op('team.list', { token: users.manager.token });
    expect(res.statusCode).toBe(200);
    const page = res.json() as { items: Member[]; total: number; page: number; pageSize: number };
    expect(page).toMatchObject({ total: 18, page: 1, pageSize: 50 });
    expect(page.items).toHaveLength(18);
    expect(page.items.map((m) => m.email)).not.toContain('superadmin@andina.demo.colibri.co');
    const carolina = page.items.find((m) => m.email === demoEmail('carolina.ruiz'))!;
    expect(carolina).toMatchObject({ name: 'Carolina Ruiz', roles: ['manager'], state: 'active', areaName: 'Sede principal Bogotá', costCenterName: 'Ventas', parentName: 'Demo superadmin' });
    for (const secret of ['password', 'passwordHash', 'password_hash', 'failedLogins', 'companyId']) expect(carolina).not.toHaveProperty(secret);
  });

  it('pages, sorts both ways and never repeats a row across pages', async () => {
    const first = (await h.op('team.list', { token: users.manager.token, query: { pageSize: 5, sort: 'name' } })).json();
    const second = (await h.op('team.list', { token: users.manager.token, query: { pageSize: 5, page: 2, sort: 'name' } })).json();
    expect(first).toMatchObject({ total: 18, page: 1, pageSize: 5 });
    expect(second.page).toBe(2);
    const names = [...first.items, ...second.items].map((m: Member) => m.name);
    expect(new Set(names).size).toBe(10);
    // The order is the database's collation: the two directions mirror each other.
    const asc = (await h.op('team.list', { token: users.manager.token, query: { sort: 'name' } })).json().items.map((m: Member) => m.name);
    const desc = (await h.op('team.list', { token: users.manager.token, query: { sort: 'name', order: 'desc' } })).json().items.map((m: Member) => m.name);
    expect(names).toEqual(asc.slice(0, 10));
    expect(desc).toEqual([...asc].reverse());
    expect(desc[0]).toBe('Paula Ríos');
    const beyond = (await h.op('team.list', { token: users.manager.token, query: { page: 99 } })).json();
    expect(beyond).toMatchObject({ items: [], total: 18, page: 99 });
  });

  it('filters by state, role, area, cost center and responsible, and searches name, e-mail, document and phone', async () => {
    const list = async (query: Record<string, string | number>) => (await h.op('team.list', { token: users.manager.token, query })).json() as { items: Member[]; total: number };
    expect((await list({ state: 'disabled' })).items.map((m) => m.email)).toEqual([demoEmail('disabled')]);
    expect((await list({ roleId: analistaRole })).total).toBe(5); // analista + four in the demo team
    const carolinaId = await demoUserId(h, 'carolina.ruiz');
    expect((await list({ parentId: carolinaId, sort: 'name' })).items.map((m) => m.name)).toEqual(['Andrés Mejía', 'Paula Ríos']);
    const ventas = (await h.db.selectFrom('cost_centers').select('id').where('code', '=', 'VEN-300').executeTakeFirstOrThrow()).id;
    expect((await list({ costCenterId: ventas })).total).toBe(3);
    const medellin = (await h.db.selectFrom('areas').select('id').where('name', '=', 'Sucursal Medellín').executeTakeFirstOrThrow()).id;
    expect((await list({ areaId: medellin })).total).toBe(4);
    expect((await list({ q: 'mejía' })).items.map((m) => m.name)).toEqual(['Andrés Mejía']);
    expect((await list({ q: 'PAULA.RIOS@' })).total).toBe(1);
    expect((await list({ q: '%' })).total).toBe(0); // wildcards are searched literally
    expect((await list({ q: 'Carolina', state: 'disabled' })).total).toBe(0);
  });

  it.each([
    [{ pageSize: 201 }],
    [{ pageSize: 0 }],
    [{ page: 0 }],
    [{ sort: 'password_hash' }],
    [{ order: 'sideways' }],
    [{ q: 'x'.repeat(101) }],
    [{ state: 'sleeping' }],
    [{ roleId: 'abc' }],
  ])('refuses %j with 99931', async (query) => {
    const res = await h.op('team.list', { token: users.manager.token, query });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('99931');
  });

  it('an analista may not list the team: 99982', async () => {
    const res = await h.op('team.list', { token: users.analista.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });

  it("another company's superadmin sees only their own team", async () => {
    const { token } = await asOther(h, 'superadmin');
    const page = (await h.op('team.list', { token })).json();
    expect(page.total).toBe(2);
    expect(JSON.stringify(page)).not.toContain('@demo.colibri.co');
  });
});

describe('team.get', () => {
  it('a manager reads a member; a user reads their own record without the permission (self)', async () => {
    const id = await demoUserId(h, 'paula.rios');
    const res = await h.op('team.get', { params: { id }, token: users.manager.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, name: 'Paula Ríos', areaName: 'Sucursal Medellín', parentName: 'Carolina Ruiz' });
    expect((await h.op('team.get', { params: { id: users.analista.id }, token: users.analista.token })).statusCode).toBe(200);
  });

  it("an analista may not read someone else: 99982; unknown and another company's ids answer 99959", async () => {
    expect((await h.op('team.get', { params: { id: users.manager.id }, token: users.analista.token })).json().code).toBe('99982');
    expect((await h.op('team.get', { params: { id: 999999 }, token: users.manager.token })).json().code).toBe('99959');
    const { token, session } = await asOther(h, 'superadmin');
    const res = await h.op('team.get', { params: { id: users.manager.id }, token });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('99959');
    expect(res.body).not.toContain('demo.colibri.co');
    expect((await h.op('team.get', { params: { id: session.idUser }, token: users.manager.token })).json().code).toBe('99959');
  });
});

describe('team.create', () => {
  it('adds a member who needs a new password and gets a code by e-mail to set it; no password is chosen for them', async () => {
    const areaId = (await h.db.selectFrom('areas').select('id').where('name', '=', 'Sucursal Medellín').executeTakeFirstOrThrow()).id;
    const body = memberBody({ name: '  Lina Vargas ', roleIds: [analistaRole], areaId, phone: '315 555 0101' });
    const res = await h.op('team.create', { token: users.manager.token, body });
    expect(res.statusCode).toBe(200);
    const member = res.json();
    expect(member).toMatchObject({
      name: 'Lina Vargas', email: body.email, phone: '+573155550101', state: 'needsNewPassword', roles: ['analista'], roleIds: [analistaRole],
      areaId, areaName: 'Sucursal Medellín', costCenterId: null, parentId: users.manager.id, parentName: 'Demo manager', otpMethod: 'email',
    });
    const [mail] = await h.outbox(body.email);
    expect(mail.subject).toMatch(/contraseña|password/);
    expect(mail.body).not.toContain(TEST_PASSWORD);
    // Without their own password nobody can sign in as them; with the code they set one.
    expect((await h.op('clientAuth.signin', { body: { email: body.email, password: TEST_PASSWORD } })).json().code).toBe('99996');
    const { session } = await activate(h, body.email);
    expect(session.state).toBe('active');
    expect(session.roles).toEqual(['analista']);
  });

  it('answers a new e-mail or phone only once: 99989 (case-insensitive) and 99988', async () => {
    const before = await h.snapshot();
    const dupEmail = await h.op('team.create', { token: users.manager.token, body: memberBody({ roleIds: [analistaRole], email: 'ANALISTA@Demo.Colibri.co' }) });
    expect(dupEmail.statusCode).toBe(409);
    expect(dupEmail.json().code).toBe('99989');
    const phone = (await h.db.selectFrom('users').select('phone').where('email', '=', demoEmail('ops')).executeTakeFirstOrThrow()).phone!;
    expect((await h.op('team.create', { token: users.manager.token, body: memberBody({ roleIds: [analistaRole], phone: phone.slice(3) }) })).json().code).toBe('99988');
    // Another company's user is still somebody: e-mails are unique across companies.
    expect((await h.op('team.create', { token: users.manager.token, body: memberBody({ roleIds: [analistaRole], email: 'analista@andina.demo.colibri.co' }) })).json().code).toBe('99989');
    expect(await h.snapshot()).toEqual(before);
  });

  it.each([
    ['a name over 20 characters', { name: 'x'.repeat(21) }, '99931', 'name'],
    ['markup in the name', { name: '<b>Ana</b>' }, '99931', 'name'],
    ['an ID of 3 digits', { documentId: '123' }, '99931', 'documentId'],
    ['an ID of 11 digits', { documentId: '12345678901' }, '99931', 'documentId'],
    ['an ID with letters', { documentId: '12a45' }, '99931', 'documentId'],
    ['an unknown document type', { documentType: 'DNI' }, '99931', 'documentType'],
    ['a foreign phone', { phone: '+1 202 555 0100' }, '99931', 'phone'],
    ['no roles', { roleIds: [] }, '99931', 'roleIds'],
    ['a role twice', { roleIds: [3, 3] }, '99931', 'roleIds'],
    ['an unknown OTP method', { otpMethod: 'fax' }, '99931', 'otpMethod'],
    ['a password chosen by the admin', { password: 'Elegida#2025' }, '99931', 'password'],
    ['a bad e-mail', { email: 'no-es-correo' }, '99931', 'email'],
  ])('refuses %s: %s, nothing created', async (_what, overrides, code, field) => {
    const before = await h.snapshot();
    const res = await h.op('team.create', { token: users.manager.token, body: memberBody({ roleIds: [analistaRole], ...overrides }) });
    expect(res.json().code).toBe(code);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await h.snapshot()).toEqual(before);
  });

  it.each([['name'], ['documentType'], ['documentId'], ['email'], ['phone'], ['address'], ['roleIds'], ['otpMethod']])('requires %s: 99999', async (field) => {
    const body: Record<string, unknown> = memberBody({ roleIds: [analistaRole] });
    delete body[field];
    const res = await h.op('team.create', { token: users.manager.token, body });
    expect(res.json()).toMatchObject({ code: '99999', errors: [expect.objectContaining({ field })] });
  });

  it("refuses links to another company's area, cost center, role or user, and unknown ones: 99931 on the field", async () => {
    const other = (await h.db.selectFrom('companies').select('id').where('name', '=', 'Andina Logística S.A.S.').executeTakeFirstOrThrow()).id;
    const theirArea = (await h.db.selectFrom('areas').select('id').where('company_id', '=', other).executeTakeFirstOrThrow()).id;
    const theirCenter = (await h.db.selectFrom('cost_centers').select('id').where('company_id', '=', other).executeTakeFirstOrThrow()).id;
    const theirUser = (await h.db.selectFrom('users').select('id').where('company_id', '=', other).executeTakeFirstOrThrow()).id;
    const { token } = await asOther(h, 'superadmin');
    const theirRole = (await h.op('rolesV3.create', { token, body: { name: 'Despachador', permissions: [{ id: 10, actions: ['view'] }], scope: 'onlyMe' } })).json().id;
    const before = await h.snapshot();
    for (const [field, value] of [['areaId', theirArea], ['costCenterId', theirCenter], ['parentId', theirUser], ['roleIds', [theirRole]], ['areaId', 999999]] as const) {
      const res = await h.op('team.create', { token: users.manager.token, body: memberBody({ roleIds: [analistaRole], [field]: value }) });
      expect(res.json().code, field).toBe('99931');
      expect(res.json().errors[0].field).toBe(field);
    }
    expect(await h.snapshot()).toEqual(before);
  });

  it('no escalation: a manager may not hand out roles with grants they lack (platform, admin): 99982', async () => {
    const before = await h.snapshot();
    for (const role of ['platform', 'admin', 'develop']) {
      const res = await h.op('team.create', { token: users.manager.token, body: memberBody({ roleIds: [await roleIdByName(h, role)] }) });
      expect(res.statusCode, role).toBe(403);
      expect(res.json().code).toBe('99982');
    }
    expect(await h.snapshot()).toEqual(before);
  });

  it('an analista may not add members: 99982, nothing created', async () => {
    const before = await h.snapshot();
    const res = await h.op('team.create', { token: users.analista.token, body: memberBody({ roleIds: [analistaRole] }) });
    expect(res.json().code).toBe('99982');
    expect(await h.snapshot()).toEqual(before);
  });

  it('two concurrent requests for one e-mail: exactly one member is created', async () => {
    const body = memberBody({ roleIds: [analistaRole] });
    const answers = await Promise.all([
      h.op('team.create', { token: users.manager.token, body }),
      h.op('team.create', { token: users.manager.token, body: { ...body, phone: '3159990001' } }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await h.db.selectFrom('users').select('id').where('email', '=', body.email).execute()).length).toBe(1);
  });
});

describe('team.update', () => {
  it('changes only the fields sent, roles included', async () => {
    const member = await addMember(h, users.manager.token, ['analista']);
    const managerRole = await roleIdByName(h, 'manager');
    const costCenterId = (await h.db.selectFrom('cost_centers').select('id').where('code', '=', 'MKT-100').executeTakeFirstOrThrow()).id;
    const res = await h.op('team.update', { params: { id: member.id }, token: users.manager.token, body: { name: 'Nuevo Nombre', roleIds: [managerRole, analistaRole], costCenterId } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: member.id, name: 'Nuevo Nombre', email: member.email, roles: ['analista', 'manager'], costCenterName: 'Mercadeo' });
    const cleared = await h.op('team.update', { params: { id: member.id }, token: users.manager.token, body: { costCenterId: null, areaId: null } });
    expect(cleared.json()).toMatchObject({ costCenterId: null, areaId: null, name: 'Nuevo Nombre' });
  });

  it('moves a member under another responsible, but never below themselves (99931 on parentId)', async () => {
    const boss = await addMember(h, users.manager.token, ['analista']);
    const report = await addMember(h, users.manager.token, ['analista'], { parentId: boss.id });
    const deep = await addMember(h, users.manager.token, ['analista'], { parentId: report.id });
    const before = await h.snapshot();
    for (const parentId of [boss.id, report.id, deep.id]) {
      const res = await h.op('team.update', { params: { id: boss.id }, token: users.manager.token, body: { parentId } });
      expect(res.json()).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field: 'parentId' })] });
    }
    expect(await h.snapshot()).toEqual(before);
    expect((await h.op('team.update', { params: { id: deep.id }, token: users.manager.token, body: { parentId: boss.id } })).json().parentId).toBe(boss.id);
  });

  it("refuses a taken e-mail (99989), an empty body (99931), unknown and another company's ids (99959)", async () => {
    const member = await addMember(h, users.manager.token, ['analista']);
    const { token, session } = await asOther(h, 'superadmin');
    const before = await h.snapshot();
    expect((await h.op('team.update', { params: { id: member.id }, token: users.manager.token, body: { email: demoEmail('OPS') } })).json().code).toBe('99989');
    expect((await h.op('team.update', { params: { id: member.id }, token: users.manager.token, body: {} })).json().code).toBe('99931');
    expect((await h.op('team.update', { params: { id: member.id }, token: users.manager.token, body: { name: 'x'.repeat(21) } })).json().code).toBe('99931');
    expect((await h.op('team.update', { params: { id: 999999 }, token: users.manager.token, body: { name: 'Nadie' } })).json().code).toBe('99959');
    const res = await h.op('team.update', { params: { id: member.id }, token, body: { name: 'Intruso' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('99959');
    expect((await h.op('team.update', { params: { id: session.idUser }, token: users.manager.token, body: { name: 'Intruso' } })).json().code).toBe('99959');
    expect(await h.snapshot()).toEqual(before);
  });

  it('an analista may not edit (99982); a manager may not edit the platform user (roles beyond theirs): 99982', async () => {
    const member = await addMember(h, users.manager.token, ['analista']);
    const before = await h.snapshot();
    expect((await h.op('team.update', { params: { id: member.id }, token: users.analista.token, body: { name: 'Otro' } })).json().code).toBe('99982');
    const platform = await demoUserId(h, 'platform');
    expect((await h.op('team.update', { params: { id: platform }, token: users.manager.token, body: { name: 'Otro' } })).json().code).toBe('99982');
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('team.delete', () => {
  it('deletes a member: their sessions end, and their reports move up to their responsible', async () => {
    const member = await addMember(h, users.manager.token, ['analista']);
    const report = await addMember(h, users.manager.token, ['analista'], { parentId: member.id });
    const { token } = await activate(h, member.email);
    expect((await h.op('team.get', { params: { id: member.id }, token })).statusCode).toBe(200);
    const res = await h.op('team.delete', { params: { id: member.id }, token: users.manager.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await h.op('team.get', { params: { id: member.id }, token: users.manager.token })).json().code).toBe('99959');
    expect((await h.op('team.get', { params: { id: member.id }, token })).json().code).toBe('99953');
    expect(await h.db.selectFrom('tokens').select('id').where('user_id', '=', member.id).execute()).toEqual([]);
    expect((await h.op('team.get', { params: { id: report.id }, token: users.manager.token })).json().parentId).toBe(users.manager.id);
    expect((await h.op('clientAuth.signin', { body: { email: member.email, password: MEMBER_PASSWORD } })).json().code).toBe('99996');
  });

  it('a delete the database refuses (another record still refers to the member) answers 99981 and deletes nothing', async () => {
    const member = await addMember(h, users.manager.token, ['analista']);
    const { token } = await activate(h, member.email);
    // A record the delete does not move: a user of another company left pointing at this member.
    const other = await h.addCompany('Referencias S.A.S.', [{ email: 'colgado@referencias.co', roles: ['analista'] }]);
    await h.db.updateTable('users').set({ parent_id: member.id }).where('id', '=', other.userIds[0]).execute();
    const before = await h.snapshot();
    const res = await h.op('team.delete', { params: { id: member.id }, token: users.manager.token });
    expect([res.statusCode, res.json().code]).toEqual([500, '99981']);
    expect(await h.snapshot()).toEqual(before);
    expect((await h.op('team.get', { params: { id: member.id }, token })).statusCode).toBe(200);
    await h.db.updateTable('users').set({ parent_id: null }).where('id', '=', other.userIds[0]).execute();
  });

  it('a user cannot delete themselves: 99928, nothing changed', async () => {
    const before = await h.snapshot();
    const res = await h.op('team.delete', { params: { id: users.manager.id }, token: users.manager.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('99928');
    expect(await h.snapshot()).toEqual(before);
  });

  it("refuses an analista (99982), a user with more than the caller's roles (99982), unknown and another company's ids (99959)", async () => {
    const member = await addMember(h, users.manager.token, ['analista']);
    const { token } = await asOther(h, 'superadmin');
    const before = await h.snapshot();
    expect((await h.op('team.delete', { params: { id: member.id }, token: users.analista.token })).json().code).toBe('99982');
    expect((await h.op('team.delete', { params: { id: await demoUserId(h, 'develop') }, token: users.manager.token })).json().code).toBe('99982');
    expect((await h.op('team.delete', { params: { id: 999999 }, token: users.manager.token })).json().code).toBe('99959');
    expect((await h.op('team.delete', { params: { id: member.id }, token })).json().code).toBe('99959');
    expect((await h.op('team.delete', { params: { id: 'x' }, token: users.manager.token })).json().code).toBe('99931');
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('demo team', () => {
  it('is a hierarchy under the superadmin, with areas and cost centers', async () => {
    const { token, session } = await h.as('superadmin');
    const tree = (await h.op('clients.hierarchy', { params: { id: session.idUser }, token })).json();
    const names = (node: { fullName: string; children: unknown[] }): unknown => ({ [node.fullName]: node.children.map((c) => names(c as never)) });
    const shape = names(tree) as Record<string, Record<string, unknown>[]>;
    const kids = shape['Demo superadmin'];
    expect(kids).toEqual(expect.arrayContaining([
      { 'Carolina Ruiz': [{ 'Andrés Mejía': [] }, { 'Paula Ríos': [] }] },
      { 'Jorge Pardo': [{ 'Diana López': [{ 'Felipe Cano': [] }] }] },
    ]));
    expect(demoTeam).toHaveLength(6);
  });
});
