// Roles: GET /v1/roles and the /v3/roles CRUD (schemas/api/roles-v3.yaml): the permission tree
// checked against config/menu.yaml, system roles read-only (99943), unique names (99942), a role
// with users kept (99944), no escalation, company isolation, and disabled pages dropped from grants.
import { describe, expect, it } from 'vitest';
import { can } from '../../src/core/permissions.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { disabledComponentIds, unionGrants } from '../../src/server/auth/grants.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { activate, asOther, memberBody, roleIdByName } from './team-helpers.ts';

const h = fileHarness();
const tokens = signedIn(h, 'superadmin', 'manager', 'analista');

const ventas = { name: 'Ventas', scope: 'meAndDependents', permissions: [{ id: 6002, actions: ['edit', 'view'] }, { id: 10, actions: ['view'] }] };

/** A member whose only role grants the dashboard: refused by every roles operation. */
async function userWithoutRoles(): Promise<string> {
  const role = (await h.op('rolesV3.create', { token: tokens.superadmin, body: { name: `Solo tablero ${Date.now()}`, scope: 'onlyMe', permissions: [{ id: 10, actions: ['view'] }] } })).json();
  const body = memberBody({ roleIds: [role.id] });
  expect((await h.op('team.create', { token: tokens.superadmin, body })).statusCode).toBe(200);
  return (await activate(h, body.email)).token;
}

describe('GET /v1/roles', () => {
  it('answers the system roles and the company roles with their scope', async () => {
    const roles = (await h.op('roles.list', { token: tokens.manager })).json() as { name: string; scope: string }[];
    expect(roles.find((r) => r.name === 'manager')?.scope).toBe('all');
    expect(roles.find((r) => r.name === 'analista')?.scope).toBe('onlyMe');
    expect(roles.find((r) => r.name === 'Coordinador')?.scope).toBe('meAndDependents');
  });
});

describe('GET /v3/roles (list convention)', () => {
  it('pages system and company roles with their users count in the caller company', async () => {
    const page = (await h.op('rolesV3.list', { token: tokens.manager })).json();
    expect(page).toMatchObject({ total: 9, page: 1, pageSize: 50 });
    const superadminRole = page.items.find((r: { name: string }) => r.name === 'superadmin');
    // superadmin + the five state users of Demo S.A.S.; Andina's superadmin is not counted.
    expect(superadminRole).toMatchObject({ readOnly: true, system: true, scope: 'all', usersCount: 6 });
    expect(page.items.find((r: { name: string }) => r.name === 'Coordinador')).toMatchObject({ readOnly: false, system: false, usersCount: 1 });
  });

  it('filters system / company roles and scope, searches and sorts', async () => {
    const list = async (query: Record<string, string | number>) => (await h.op('rolesV3.list', { token: tokens.manager, query })).json();
    expect((await list({ system: 'true' })).total).toBe(8);
    expect((await list({ system: 'false' })).items.map((r: { name: string }) => r.name)).toEqual(['Coordinador']);
    expect((await list({ scope: 'onlyMe' })).items.map((r: { name: string }) => r.name).sort()).toEqual(['analista', 'colibriSms', 'ops']);
    expect((await list({ q: 'COORD' })).total).toBe(1);
    const byName = (await list({ sort: 'name', order: 'desc', pageSize: 2 })).items;
    expect(byName).toHaveLength(2);
    expect((await list({ sort: 'secret' })).code).toBe('99931');
  });

  it("another company sees the system roles and its own, never Demo's", async () => {
    const { token } = await asOther(h, 'superadmin');
    const page = (await h.op('rolesV3.list', { token })).json();
    expect(page.items.map((r: { name: string }) => r.name)).not.toContain('Coordinador');
    const coordinador = await roleIdByName(h, 'Coordinador', (await h.db.selectFrom('companies').select('id').where('name', '=', 'Demo S.A.S.').executeTakeFirstOrThrow()).id);
    const res = await h.op('rolesV3.get', { params: { id: coordinador }, token });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('99959');
  });
});

describe('POST /v3/roles', () => {
  it('creates a company role; actions are kept in menu order, once', async () => {
    const res = await h.op('rolesV3.create', { token: tokens.manager, body: { ...ventas, permissions: [{ id: 6002, actions: ['edit', 'view', 'edit'] }, { id: 10, actions: ['view'] }] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Ventas', scope: 'meAndDependents', readOnly: false, system: false, usersCount: 0,
      permissions: [{ id: 10, actions: ['view'] }, { id: 6002, actions: ['view', 'edit'] }],
    });
    expect((await h.op('rolesV3.get', { params: { id: res.json().id }, token: tokens.analista })).json().name).toBe('Ventas');
  });

  it.each([
    ['the same name in another case', { ...ventas, name: 'VENTAS' }, '99942'],
    ["a system role's name", { ...ventas, name: 'Superadmin' }, '99942'],
    ['an unknown component', { ...ventas, permissions: [{ id: 9999, actions: ['view'] }] }, '99931'],
    ['an action the component does not declare', { ...ventas, permissions: [{ id: 6003, actions: ['delete'] }] }, '99931'],
    ['an action outside the catalogue', { ...ventas, permissions: [{ id: 6002, actions: ['fly'] }] }, '99931'],
    ['a component twice', { ...ventas, permissions: [{ id: 10, actions: ['view'] }, { id: 10, actions: ['report'] }] }, '99931'],
    ['an unknown scope', { ...ventas, name: 'Otra', scope: 'everyone' }, '99931'],
    ['an empty name', { ...ventas, name: '' }, '99931'],
    ['markup in the name', { ...ventas, name: '<i>x</i>' }, '99931'],
    ['no permissions field', { name: 'Otra', scope: 'all' }, '99999'],
  ])('refuses %s: %s, nothing created', async (_what, body, code) => {
    const before = await h.count('roles');
    const res = await h.op('rolesV3.create', { token: tokens.manager, body });
    expect(res.json().code).toBe(code);
    expect(await h.count('roles')).toBe(before);
  });

  it('no escalation: a role may grant only what the caller holds (99982)', async () => {
    const before = await h.count('roles');
    // The analista holds no users permission; the manager holds no shortener (platform staff).
    expect((await h.op('rolesV3.create', { token: tokens.analista, body: { ...ventas, name: 'Atajo' } })).json().code).toBe('99982');
    expect((await h.op('rolesV3.create', { token: tokens.manager, body: { name: 'Atajo', scope: 'all', permissions: [{ id: 50, actions: ['view'] }] } })).json().code).toBe('99982');
    // The analista sees only themselves: a role that sees everyone is beyond them.
    expect((await h.op('rolesV3.create', { token: tokens.analista, body: { name: 'Atajo', scope: 'all', permissions: [{ id: 10, actions: ['view'] }] } })).json().code).toBe('99982');
    expect(await h.count('roles')).toBe(before);
  });

  it('two concurrent creations of one name: exactly one role', async () => {
    const body = { name: 'Carrera', scope: 'onlyMe', permissions: [{ id: 10, actions: ['view'] }] };
    const answers = await Promise.all([h.op('rolesV3.create', { token: tokens.manager, body }), h.op('rolesV3.create', { token: tokens.superadmin, body })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });
});

describe('PUT /v3/roles', () => {
  it('replaces a company role, and its holders get the new grants on their next request', async () => {
    const role = (await h.op('rolesV3.create', { token: tokens.superadmin, body: { name: 'Auditor', scope: 'onlyMe', permissions: [{ id: 10, actions: ['view'] }] } })).json();
    const body = memberBody({ roleIds: [role.id] });
    await h.op('team.create', { token: tokens.superadmin, body });
    const { token } = await activate(h, body.email);
    expect((await h.op('audit.list', { token })).json().code).toBe('99982');
    const res = await h.op('rolesV3.update', { token: tokens.superadmin, body: { id: role.id, name: 'Auditoría', scope: 'onlyMe', permissions: [{ id: 10, actions: ['view'] }, { id: 4014, actions: ['view'] }] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Auditoría', usersCount: 1 });
    expect((await h.op('audit.list', { token })).statusCode).toBe(200);
    // Keeping its own name in another case is not a clash with itself.
    expect((await h.op('rolesV3.update', { token: tokens.superadmin, body: { id: role.id, name: 'AUDITORÍA', scope: 'onlyMe', permissions: [] } })).statusCode).toBe(200);
  });

  it("refuses a system role (99943), another company's role and unknown ids (99959), a taken name (99942)", async () => {
    const { token: other } = await asOther(h, 'superadmin');
    const theirs = (await h.op('rolesV3.create', { token: other, body: { name: 'Bodega', scope: 'onlyMe', permissions: [] } })).json();
    const mine = (await h.op('rolesV3.create', { token: tokens.manager, body: { name: 'Temporal', scope: 'onlyMe', permissions: [] } })).json();
    const before = await h.snapshot();
    const rolesBefore = await h.db.selectFrom('roles').selectAll().orderBy('id').execute();
    const put = (id: number, name = 'Cambio') => h.op('rolesV3.update', { token: tokens.manager, body: { id, name, scope: 'onlyMe', permissions: [] } });
    const system = await put(await roleIdByName(h, 'analista'));
    expect(system.statusCode).toBe(403);
    expect(system.json().code).toBe('99943');
    expect((await put(theirs.id)).json().code).toBe('99959');
    expect((await put(999999)).json().code).toBe('99959');
    expect((await put(mine.id, 'coordinador')).json().code).toBe('99942');
    expect((await h.op('rolesV3.update', { token: tokens.manager, body: { name: 'Sin id', scope: 'onlyMe', permissions: [] } })).json().code).toBe('99999');
    expect(await h.db.selectFrom('roles').selectAll().orderBy('id').execute()).toEqual(rolesBefore);
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('DELETE /v3/roles/{id}', () => {
  it('deletes a role nobody holds', async () => {
    const role = (await h.op('rolesV3.create', { token: tokens.manager, body: { name: 'Efímero', scope: 'onlyMe', permissions: [] } })).json();
    const res = await h.op('rolesV3.delete', { params: { id: role.id }, token: tokens.manager });
    expect(res.json()).toEqual({ ok: true });
    expect((await h.op('rolesV3.get', { params: { id: role.id }, token: tokens.manager })).json().code).toBe('99959');
  });

  it("keeps a role with users (99944), a system role (99943), another company's (99959)", async () => {
    const { token: other } = await asOther(h, 'superadmin');
    const theirs = (await h.op('rolesV3.create', { token: other, body: { name: 'Ajeno', scope: 'onlyMe', permissions: [] } })).json();
    const coordinador = (await h.op('rolesV3.list', { token: tokens.manager, query: { q: 'Coordinador' } })).json().items[0].id;
    const before = await h.count('roles');
    const held = await h.op('rolesV3.delete', { params: { id: coordinador }, token: tokens.manager });
    expect(held.statusCode).toBe(409);
    expect(held.json().code).toBe('99944');
    expect((await h.op('rolesV3.delete', { params: { id: await roleIdByName(h, 'ops') }, token: tokens.manager })).json().code).toBe('99943');
    expect((await h.op('rolesV3.delete', { params: { id: theirs.id }, token: tokens.manager })).json().code).toBe('99959');
    expect((await h.op('rolesV3.delete', { params: { id: 999999 }, token: tokens.manager })).json().code).toBe('99959');
    expect(await h.count('roles')).toBe(before);
  });
});

describe('permission denied', () => {
  it('a user whose roles lack component 6007 is refused every roles operation: 99982', async () => {
    const token = await userWithoutRoles();
    const id = await roleIdByName(h, 'ops');
    const before = await h.count('roles');
    for (const [op, args] of [
      ['rolesV3.list', {}],
      ['rolesV3.get', { params: { id } }],
      ['rolesV3.create', { body: { name: 'Nuevo', scope: 'onlyMe', permissions: [] } }],
      ['rolesV3.update', { body: { id, name: 'Nuevo', scope: 'onlyMe', permissions: [] } }],
      ['rolesV3.delete', { params: { id } }],
      ['roles.list', {}],
    ] as const) {
      const res = await h.op(op, { token, ...args });
      expect(res.statusCode, op).toBe(403);
      expect(res.json().code).toBe('99982');
    }
    expect(await h.count('roles')).toBe(before);
  });
});

describe('disabled pages (config/app.yaml disabledPages)', () => {
  it('drop the listed components and everything below them from the grants', () => {
    const disabled = disabledComponentIds([60]);
    expect([...disabled].sort()).toEqual([60, 6001, 6002, 6003, 6004, 6005, 6006, 6007]);
    const grants = unionGrants([[{ id: 10, actions: ['view'] }, { id: 6002, actions: ['view'] }, { id: 60, actions: ['view'] }], [{ id: 2001, actions: ['deploy'] }]], disabled);
    expect(grants).toEqual([{ id: 10, actions: ['view'] }, { id: 2001, actions: ['deploy'] }]);
    expect(can(grants, 6002, 'view').can).toBe(false);
    // A campaign page takes its subtabs along.
    expect([...disabledComponentIds([2001])].sort()).toEqual([2001, 200101, 200102]);
    expect(disabledComponentIds([]).size).toBe(0);
  });

  it('with none configured, the session carries the role grants as stored', async () => {
    const { session } = await h.signin(demoEmail('manager'));
    expect(can(session.permissions.menu, 6007, 'create').can).toBe(true);
  });
});
