// config/app.yaml disabledPages made effective: with the roles page (6007) disabled, no role grants
// it any more, whatever its stored tree says: the server refuses the roles operations (99982) and
// the session's menu no longer carries the page.
import { describe, expect, it, vi } from 'vitest';
import { can } from '../../src/core/permissions.ts';
import { fileHarness } from './file-harness.ts';

vi.mock('../../src/generated/app.gen.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/generated/app.gen.ts')>();
  return { appSettings: { ...original.appSettings, disabledPages: [6007] } };
});

const h = fileHarness();

describe('a disabled page', () => {
  it('is missing from every session, even for a company role that stores it', async () => {
    const { session } = await h.as('superadmin');
    expect(can(session.permissions.menu, 6007, 'view').can).toBe(false);
    expect(can(session.permissions.menu, 6002, 'view').can).toBe(true);
    const stored = await h.db.selectFrom('roles').select('permissions').where('name', '=', 'Coordinador').executeTakeFirstOrThrow();
    await h.db.updateTable('roles').set({ permissions: JSON.stringify([...stored.permissions, { id: 6007, actions: ['view'] }]) }).where('name', '=', 'Coordinador').execute();
    const coordinator = await h.signin('jorge.pardo@demo.colibri.co');
    expect(can(coordinator.session.permissions.menu, 6007, 'view').can).toBe(false);
    expect((await h.op('rolesV3.list', { token: coordinator.token })).json().code).toBe('99982');
  });

  it('is refused by the server: 99982 on the roles operations', async () => {
    const { token } = await h.as('superadmin');
    for (const op of ['rolesV3.list', 'roles.list'] as const) {
      const res = await h.op(op, { token });
      expect(res.statusCode, op).toBe(403);
      expect(res.json().code).toBe('99982');
    }
    expect((await h.op('team.list', { token })).statusCode).toBe(200);
  });
});
