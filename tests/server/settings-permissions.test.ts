// Settings changes stay with the managers (menu manageRoles); channels follow their menu node's
// roles on top of component 60 (permission.node). Refusals change nothing.
import { describe, expect, it } from 'vitest';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();

const channel = (name: string) => ({ name, platform: 'sms', type: 'MT', sender: '3005550101' });

describe('settings permissions by role', () => {
  it('an analista sees channels but may not create one; a manager may', async () => {
    const analista = (await h.as('analista')).token;
    const manager = (await h.as('manager')).token;
    expect((await h.op('channels.list', { token: analista })).statusCode).toBe(200);
    const before = await h.count('channels' as never);
    const refused = await h.op('channels.create', { token: analista, body: channel('Analista SMS') });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('99982');
    expect(await h.count('channels' as never)).toBe(before);
    const created = await h.op('channels.create', { token: manager, body: channel('Gerencia SMS') });
    expect(created.statusCode).toBe(200);
  });

  it('ops may not even list channels (not in the channels node roles)', async () => {
    const ops = (await h.as('ops')).token;
    const res = await h.op('channels.list', { token: ops });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });

  it('an analista may read the company but not change it, nor create roles', async () => {
    const analista = (await h.as('analista')).token;
    expect((await h.op('company.get', { token: analista })).statusCode).toBe(200);
    const before = await h.snapshot();
    const patch = await h.op('company.patch', { token: analista, body: { name: 'Otra S.A.S.' } });
    expect(patch.json().code).toBe('99982');
    const role = await h.op('rolesV3.create', { token: analista, body: { name: 'Nuevo', scope: 'onlyMe', permissions: [{ id: 10, actions: ['view'] }] } });
    expect(role.json().code).toBe('99982');
    expect(await h.snapshot()).toEqual(before);
  });
});
