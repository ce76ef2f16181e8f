// Access levels and permissions, decided from the declarations and the caller's roles only.
import { describe, expect, it } from 'vitest';
import { can } from '../../src/core/permissions.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();

const sampleParams = { id: 1, userId: 1, country: 'CO', region: '11' };
const guarded = serverOperations.filter((o) => o.access !== 'public').map((o) => o.id as OperationId);

describe('without a valid token', () => {
  it.each(guarded)('%s answers 99953 (401)', async (id) => {
    for (const token of [undefined, 'no-such-token']) {
      const res = await h.op(id, { params: sampleParams, token, body: id === 'notifications.markRead' ? { userId: 1, notificationIds: 'all' } : undefined });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('99953');
    }
  });
});

describe('active level', () => {
  it('a user who has not verified their e-mail and phone (pending) gets 99951 on active-level operations, but session ones work', async () => {
    const { token, session } = await h.as('pending');
    const refused = await h.op('account.list', { token });
    expect([refused.statusCode, refused.json().code]).toEqual([400, '99951']);
    expect((await h.op('account.paymentsSummary', { token })).json().code).toBe('99951');
    expect((await h.op('notifications.list', { params: { userId: session.idUser }, token })).statusCode).toBe(200);
    expect((await h.op('clients.get', { params: { id: session.idUser }, token })).statusCode).toBe(200);
  });

  it('an active user of a company still in validation gets 99982 too', async () => {
    const { companyId } = await h.addCompany('En Validación S.A.S.', [{ email: 'nuevo@en-validacion.co', roles: ['superadmin'] }]);
    await h.db.updateTable('companies').set({ state: 'validation' }).where('id', '=', companyId).execute();
    const { token, session } = await h.signin('nuevo@en-validacion.co');
    expect(session.company?.state).toBe('validation');
    expect((await h.op('account.list', { token })).json().code).toBe('99982');
    expect((await h.op('clients.usersList', { token })).json().code).toBe('99982');
  });

  it('a disabled user is refused everywhere but their own session', async () => {
    const { token, session } = await h.as('disabled');
    expect((await h.op('account.list', { token })).json().code).toBe('99982');
    expect((await h.op('clients.get', { params: { id: session.idUser }, token })).statusCode).toBe(200);
    expect((await h.op('clientAuth.signout', { token })).statusCode).toBe(200);
  });
});

describe('permissions from roles', () => {
  it('the session payload carries the union of the role grants', async () => {
    const { session } = await h.as('develop'); // roles develop + colibriSms
    expect(session.roles).toEqual(['develop', 'colibriSms']);
    expect(can(session.permissions.menu, 4011, 'view').can).toBe(true); // call center: {product}Sms flag
    expect(can(session.permissions.menu, 4005, 'view').can).toBe(true); // mt reports: develop
    expect(can(session.permissions.menu, 10, 'view').can).toBe(false); // dashboard: not for develop
  });

  it('each role gets the default module its menu opens on: a page that works, not a group', async () => {
    expect((await h.as('superadmin')).session.permissions.defaultModule).toBe('/User');
    expect((await h.as('analista')).session.permissions.defaultModule).toBe('/User');
    // Without the home, the Campaigns group opens its first working entry, the campaign list
    // (the group itself has no screen: it once answered "not available yet").
    for (const role of ['ops', 'develop', 'platform']) expect((await h.as(role)).session.permissions.defaultModule).toBe('/Campaigns/campaigns');
  });

  it('roles.list answers the system roles with their grants', async () => {
    const { token } = await h.as('superadmin');
    const res = await h.op('roles.list', { token });
    expect(res.statusCode).toBe(200);
    const roles = res.json() as { name: string; readOnly: boolean; permissions: { id: number; actions: string[] }[] }[];
    // The system roles (read-only), then the demo company's own role.
    expect(roles.map((r) => r.name)).toEqual(['superadmin', 'admin', 'analista', 'manager', 'ops', 'develop', 'platform', 'colibriSms', 'Coordinador']);
    expect(roles.map((r) => r.readOnly)).toEqual([true, true, true, true, true, true, true, true, false]);
    const analista = roles.find((r) => r.name === 'analista')!;
    expect(analista.permissions.some((g) => g.id === 6002)).toBe(false);
    expect(roles.find((r) => r.name === 'manager')!.permissions.find((g) => g.id === 6002)?.actions).toEqual(['view', 'create', 'edit', 'delete']);
  });

  it('a user without any role is refused by permission-guarded operations: 99982', async () => {
    await h.addCompany('Sin Roles S.A.S.', [{ email: 'nadie@sin-roles.co', roles: [] }]);
    const { token, session } = await h.signin('nadie@sin-roles.co');
    expect(session.permissions.menu).toEqual([]);
    expect(session.permissions.defaultModule).toBe('/');
    expect((await h.op('roles.list', { token })).json().code).toBe('99982');
    expect((await h.op('clients.usersList', { token })).json().code).toBe('99982');
    expect((await h.op('account.list', { token })).statusCode).toBe(200); // active level, no permission
  });

  it('the component headers never grant anything; they are only recorded', async () => {
    const { token } = await h.as('analista');
    const seen: unknown[] = [];
    // A probe on the same database: the recorded headers as the request carries them.
    const { buildServer } = await import('../../src/server/app.ts');
    const probe = await buildServer({ db: h.db, sandbox: true });
    probe.addHook('onResponse', async (request) => { seen.push(request.component); });
    const res = await probe.inject({
      method: 'GET', url: '/v1/clients/users/list',
      headers: { 'x-auth-token': token, 'x-component-id': '6002', 'x-component-name': 'settings.users', 'x-component-action': 'view', 'x-role': 'superadmin' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
    expect(seen).toEqual([{ id: '6002', name: 'settings.users', action: 'view' }]);
    await probe.close();
  });
});
