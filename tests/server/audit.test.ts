// The audit log: what is recorded (every non-GET operation, sign-in and sign-out, with the user,
// IP, operation, component headers and outcome; never bodies or secrets), and GET /v1/audit
// (component 4014): list convention, filters, the "up to today" date rule (99958, 99962), scope
// and company isolation.
import { describe, expect, it } from 'vitest';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { fileHarness, signedInUsers } from './file-harness.ts';
import { TEST_PASSWORD } from './harness.ts';
import { activate, asOther, memberBody, roleIdByName } from './team-helpers.ts';

const h = fileHarness();
const users = signedInUsers(h, 'manager');
const component = { 'x-component-id': '6002', 'x-component-name': 'Gestión de equipo', 'x-component-action': 'create' };

type Entry = { userId: number | null; userEmail: string | null; ip: string | null; method: string; path: string; operationId: string | null; componentId: number | null; componentName: string | null; componentAction: string | null; status: number; createdAt: string };

async function entries(token: string, query: Record<string, string | number> = {}): Promise<{ items: Entry[]; total: number }> {
  await h.app.auditSettled();
  const res = await h.op('audit.list', { token, query });
  if (res.statusCode !== 200) throw new Error(`audit.list: ${res.statusCode} ${res.body}`);
  return res.json();
}


describe('what is recorded', () => {
  it('a change, with the user, IP, operation, path, component headers and outcome; never the body', async () => {
    const body = memberBody({ roleIds: [await roleIdByName(h, 'analista')], name: 'Secreto Interno' });
    const res = await h.op('team.create', { token: users.manager.token, body, headers: component });
    expect(res.statusCode).toBe(200);
    const [entry] = (await entries(users.manager.token, { operationId: 'team.create' })).items;
    expect(entry).toMatchObject({
      userId: users.manager.id, userEmail: demoEmail('manager'), ip: '127.0.0.1', method: 'POST', path: '/v1/team', operationId: 'team.create',
      componentId: 6002, componentName: 'Gestión de equipo', componentAction: 'create', status: 200,
    });
    const stored = JSON.stringify(await h.db.selectFrom('audit_log').selectAll().execute());
    expect(stored).not.toContain('Secreto Interno');
    expect(stored).not.toContain(body.email);
  });

  it('sign-in and sign-out as login and logout (component 70); a failed sign-in is recorded with its status; passwords never', async () => {
    const { token } = await h.as('ops');
    await h.op('clientAuth.signout', { token });
    await h.op('clientAuth.signin', { body: { email: demoEmail('ops'), password: 'Equivocada#2025' } });
    const opsId = (await h.db.selectFrom('users').select('id').where('email', '=', demoEmail('ops')).executeTakeFirstOrThrow()).id;
    const mine = (await entries(users.manager.token, { userId: opsId, sort: 'createdAt' })).items;
    expect(mine.map((e) => [e.operationId, e.componentId, e.componentAction, e.status])).toEqual([
      ['clientAuth.signin', 70, 'login', 200],
      ['clientAuth.signout', 70, 'logout', 200],
      ['clientAuth.signin', 70, 'login', 401],
    ]);
    const stored = JSON.stringify(await h.db.selectFrom('audit_log').selectAll().execute());
    for (const secret of [TEST_PASSWORD, 'Equivocada#2025', token]) expect(stored).not.toContain(secret);
  });

  it('refused requests are recorded with their status; reads and anonymous calls are not', async () => {
    const { token } = await h.as('analista');
    await h.op('team.create', { token, body: memberBody() });
    await h.op('team.list', { token: users.manager.token });
    await h.op('clientAuth.validate', { body: { email: demoEmail('analista') } });
    await h.op('clientAuth.signin', { body: { email: 'nadie@desconocida.co', password: 'x' } });
    const analistaId = (await h.db.selectFrom('users').select('id').where('email', '=', demoEmail('analista')).executeTakeFirstOrThrow()).id;
    const theirs = (await entries(users.manager.token, { userId: analistaId })).items;
    expect(theirs.find((e) => e.operationId === 'team.create')?.status).toBe(403);
    expect((await entries(users.manager.token, { operationId: 'team.list' })).total).toBe(0);
    expect((await entries(users.manager.token, { operationId: 'clientAuth.validate' })).total).toBe(0);
    expect(JSON.stringify(await h.db.selectFrom('audit_log').selectAll().execute())).not.toContain('desconocida');
  });

  it.each([
    [{ 'x-component-id': 'abc', 'x-component-name': '<img src=x onerror=alert(1)>', 'x-component-action': 'drop table' }],
    [{ 'x-component-id': '-5', 'x-component-name': 'x'.repeat(81), 'x-component-action': 'x'.repeat(21) }],
    [{ 'x-component-id': '99999999999', 'x-component-name': 'línea\tcon tabulador', 'x-component-action': '' }],
  ])('component headers that are not an integer id and short plain text are recorded as null: %j', async (headers) => {
    const area = await h.op('account.create', { token: (await h.as('superadmin')).token, body: { name: `Área ${Math.random()}` }, headers });
    expect(area.statusCode).toBe(200);
    const [entry] = (await entries(users.manager.token, { operationId: 'account.create' })).items;
    expect(entry).toMatchObject({ componentId: null, componentName: null, componentAction: null });
  });
});

describe('GET /v1/audit', () => {
  it('answers newest first by default, pages, sorts and searches', async () => {
    const all = await entries(users.manager.token);
    expect(all.total).toBeGreaterThan(5);
    const times = all.items.map((e) => e.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    const page = (await h.op('audit.list', { token: users.manager.token, query: { pageSize: 2, page: 2 } })).json();
    expect(page).toMatchObject({ page: 2, pageSize: 2, total: all.total });
    expect(page.items).toEqual(all.items.slice(2, 4));
    expect((await entries(users.manager.token, { q: 'GESTIÓN DE' })).items.every((e) => e.componentName === 'Gestión de equipo')).toBe(true);
    expect((await entries(users.manager.token, { sort: 'status', order: 'desc' })).items[0].status).toBeGreaterThanOrEqual(400);
    expect((await entries(users.manager.token, { status: 403 })).items.every((e) => e.status === 403)).toBe(true);
    expect((await entries(users.manager.token, { componentId: 6002 })).total).toBe(1);
  });

  it('filters by date range in Bogotá days, up to today', async () => {
    const bogota = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(d);
    const today = bogota(h.clock.now);
    const yesterday = bogota(new Date(h.clock.now.getTime() - 86_400_000));
    const all = (await entries(users.manager.token)).total;
    expect((await entries(users.manager.token, { dateStart: today, dateEnd: today })).total).toBe(all);
    expect((await entries(users.manager.token, { dateStart: yesterday, dateEnd: yesterday })).total).toBe(0);
    expect((await entries(users.manager.token, { dateEnd: yesterday })).total).toBe(0);
    expect((await entries(users.manager.token, { dateStart: yesterday })).total).toBe(all);
  });

  it.each([
    ['an end before the start', { dateStart: '2025-03-10', dateEnd: '2025-03-09' }, '99958'],
    ['a start after today', { dateStart: '2999-01-01' }, '99962'],
    ['an end after today', { dateStart: '2025-01-01', dateEnd: '2999-01-01' }, '99962'],
    ['a date that is not a date', { dateStart: '2025-02-30x' }, '99931'],
    ['a malformed operation id', { operationId: "x'; drop table audit_log;--" }, '99931'],
    ['an unknown sort', { sort: 'ip' }, '99931'],
  ])('refuses %s: %s', async (_what, query, code) => {
    const res = await h.op('audit.list', { token: users.manager.token, query });
    expect(res.json().code).toBe(code);
  });

  it('a role without component 4014 is refused: 99982', async () => {
    const role = (await h.op('rolesV3.create', { token: users.manager.token, body: { name: 'Sin bitácora', scope: 'all', permissions: [{ id: 10, actions: ['view'] }] } })).json();
    const body = memberBody({ roleIds: [role.id] });
    await h.op('team.create', { token: users.manager.token, body });
    const { token } = await activate(h, body.email);
    const res = await h.op('audit.list', { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });

  it("another company reads only its own log; Demo's users and entries never show", async () => {
    const { token } = await asOther(h, 'superadmin');
    await h.op('account.create', { token, body: { name: 'Bodega Yumbo' } });
    const theirs = await entries(token);
    expect(theirs.items.map((e) => e.operationId).sort()).toEqual(['account.create', 'clientAuth.signin']);
    expect(JSON.stringify(theirs)).not.toContain('@demo.colibri.co');
    expect((await entries(users.manager.token, { q: 'Bodega' })).total).toBe(0);
  });

  it('the scope applies: an analista (only me) reads only their own entries', async () => {
    const { token, session } = await h.as('analista');
    const mine = await entries(token);
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.items.every((e) => e.userId === session.idUser)).toBe(true);
  });
});
