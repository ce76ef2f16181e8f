// User scope (spec 6: all users, only me, me and dependents), enforced on the server for every
// team query: team.*, the users API (clients.*) and the widest scope winning for several roles.
import { beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { fileHarness } from './file-harness.ts';
import { activate, demoUserId, memberBody, roleIdByName } from './team-helpers.ts';

const h = fileHarness();
let coordinator: { token: string; id: number };
let ids: Record<string, number>;
let analistaRole: number;
beforeAll(async () => {
  const c = await h.signin(demoEmail('jorge.pardo'));
  coordinator = { token: c.token, id: c.session.idUser };
  ids = {};
  for (const name of ['superadmin', 'carolina.ruiz', 'andres.mejia', 'diana.lopez', 'felipe.cano']) ids[name] = await demoUserId(h, name);
  analistaRole = await roleIdByName(h, 'analista');
});

const emails = (page: { items: { email: string }[] }) => page.items.map((m) => m.email).sort();

describe('me and dependents (company role Coordinador)', () => {
  it('lists the caller and everyone below them, at any depth', async () => {
    const page = (await h.op('team.list', { token: coordinator.token })).json();
    expect(page.total).toBe(3);
    expect(emails(page)).toEqual([demoEmail('diana.lopez'), demoEmail('felipe.cano'), demoEmail('jorge.pardo')]);
    // Filters and search never reach past the scope.
    expect((await h.op('team.list', { token: coordinator.token, query: { q: 'Carolina' } })).json().total).toBe(0);
    expect((await h.op('team.list', { token: coordinator.token, query: { parentId: ids['carolina.ruiz'] } })).json().total).toBe(0);
  });

  it('reads and edits a dependent; anyone else answers 99959 as if they did not exist', async () => {
    expect((await h.op('team.get', { params: { id: ids['felipe.cano'] }, token: coordinator.token })).statusCode).toBe(200);
    expect((await h.op('team.update', { params: { id: ids['felipe.cano'] }, token: coordinator.token, body: { address: 'Calle 10 # 5-51, Medellín' } })).statusCode).toBe(200);
    const before = await h.snapshot();
    for (const id of [ids['carolina.ruiz'], ids['andres.mejia'], ids.superadmin]) {
      for (const [op, args] of [['team.get', {}], ['team.update', { body: { name: 'Fuera' } }], ['team.delete', {}]] as const) {
        const res = await h.op(op, { params: { id }, token: coordinator.token, ...args });
        expect(res.json().code, `${op} ${id}`).toBe('99959');
        expect(res.body).not.toContain('Carolina');
      }
    }
    expect(await h.snapshot()).toEqual(before);
  });

  it('adds members below themselves only (default responsible: the caller); a responsible outside the scope answers 99931', async () => {
    const created = await h.op('team.create', { token: coordinator.token, body: memberBody({ roleIds: [analistaRole] }) });
    expect(created.statusCode).toBe(200);
    expect(created.json().parentId).toBe(coordinator.id);
    const underDiana = await h.op('team.create', { token: coordinator.token, body: memberBody({ roleIds: [analistaRole], parentId: ids['diana.lopez'] }) });
    expect(underDiana.json().parentId).toBe(ids['diana.lopez']);
    expect((await h.op('team.list', { token: coordinator.token })).json().total).toBe(5);
    const before = await h.snapshot();
    const outside = await h.op('team.create', { token: coordinator.token, body: memberBody({ roleIds: [analistaRole], parentId: ids['andres.mejia'] }) });
    expect(outside.json()).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field: 'parentId' })] });
    // Moving a dependent under someone outside the scope is refused the same way.
    const move = await h.op('team.update', { params: { id: ids['felipe.cano'] }, token: coordinator.token, body: { parentId: ids['carolina.ruiz'] } });
    expect(move.json().code).toBe('99931');
    expect(await h.snapshot()).toEqual(before);
  });

  it('cannot hand out a wider scope than their own: the manager role (all users) answers 99982', async () => {
    const before = await h.snapshot();
    const res = await h.op('team.create', { token: coordinator.token, body: memberBody({ roleIds: [await roleIdByName(h, 'manager')] }) });
    expect(res.json().code).toBe('99982');
    expect(await h.snapshot()).toEqual(before);
  });

  it('the users API follows the same scope: list, get, hierarchy', async () => {
    const users = (await h.op('clients.usersList', { token: coordinator.token })).json() as { email: string }[];
    expect(users.map((u) => u.email)).toContain(demoEmail('felipe.cano'));
    expect(users.map((u) => u.email)).not.toContain(demoEmail('carolina.ruiz'));
    expect((await h.op('clients.get', { params: { id: ids['carolina.ruiz'] }, token: coordinator.token })).json().code).toBe('99959');
    expect((await h.op('clients.hierarchy', { params: { id: ids.superadmin }, token: coordinator.token })).json().code).toBe('99959');
    const diana = (await h.op('clients.hierarchy', { params: { id: ids['diana.lopez'] }, token: coordinator.token })).json();
    expect(diana.children.map((c: { fullName: string }) => c.fullName)).toContain('Felipe Cano');
  });
});

describe('only me (a company role with scope onlyMe)', () => {
  let me: { token: string; id: number };
  beforeAll(async () => {
    const superadmin = await h.as('superadmin');
    const role = await h.op('rolesV3.create', {
      token: superadmin.token,
      body: { name: 'Solo yo', scope: 'onlyMe', permissions: [{ id: 6002, actions: ['view', 'edit'] }, { id: 10, actions: ['view'] }] },
    });
    const body = memberBody({ roleIds: [role.json().id] });
    const member = (await h.op('team.create', { token: superadmin.token, body })).json();
    const s = await activate(h, body.email);
    me = { token: s.token, id: member.id };
  });

  it('sees only themselves in the team and the users list', async () => {
    const page = (await h.op('team.list', { token: me.token })).json();
    expect(page.total).toBe(1);
    expect(page.items[0].id).toBe(me.id);
    expect((await h.op('clients.usersList', { token: me.token })).json().map((u: { id: number }) => u.id)).toEqual([me.id]);
    expect((await h.op('team.update', { params: { id: me.id }, token: me.token, body: { address: 'Calle 1 # 2-3, Cali' } })).statusCode).toBe(200);
  });

  it('everyone else answers 99959', async () => {
    const before = await h.snapshot();
    expect((await h.op('team.get', { params: { id: ids.superadmin }, token: me.token })).json().code).toBe('99959');
    expect((await h.op('team.update', { params: { id: ids['felipe.cano'] }, token: me.token, body: { name: 'Otro' } })).json().code).toBe('99959');
    expect((await h.op('clients.get', { params: { id: ids.superadmin }, token: me.token })).json().code).toBe('99959');
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('several roles', () => {
  it('the widest scope wins, and a role change takes effect on the next request', async () => {
    const superadmin = await h.as('superadmin');
    const coordinatorRole = await roleIdByName(h, 'Coordinador', (await h.db.selectFrom('users').select('company_id').where('id', '=', coordinator.id).executeTakeFirstOrThrow()).company_id);
    // Jorge also gets the analista role (onlyMe): still me-and-dependents.
    await h.op('team.update', { params: { id: coordinator.id }, token: superadmin.token, body: { roleIds: [coordinatorRole, analistaRole] } });
    expect((await h.op('team.list', { token: coordinator.token })).json().total).toBe(5);
    // The company widens the Coordinador role to all users.
    const role = (await h.op('rolesV3.get', { params: { id: coordinatorRole }, token: superadmin.token })).json();
    const res = await h.op('rolesV3.update', { token: superadmin.token, body: { id: role.id, name: role.name, permissions: role.permissions, scope: 'all' } });
    expect(res.statusCode).toBe(200);
    expect((await h.op('team.list', { token: coordinator.token })).json().total).toBeGreaterThan(18);
  });
});
