// Reserved system roles: a manager's grants equal a superadmin's, yet only a superadmin may make
// another superadmin, and only provider staff may hand out platform/develop. Refusals change nothing.
import { describe, expect, it } from 'vitest';
import { fileHarness } from './file-harness.ts';
import { memberBody, roleIdByName } from './team-helpers.ts';

const h = fileHarness();

describe('reserved system roles', () => {
  it.each(['superadmin', 'platform', 'develop'])('a manager may not create a %s', async (role) => {
    const manager = (await h.as('manager')).token;
    const before = await h.snapshot();
    const res = await h.op('team.create', { token: manager, body: memberBody({ roleIds: [await roleIdByName(h, role)], email: `nuevo.${role}@demo.colibri.co`, phone: '3159990101' }) });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
    expect(await h.snapshot()).toEqual(before);
  });

  it('a superadmin may create another superadmin', async () => {
    const owner = (await h.as('superadmin')).token;
    const res = await h.op('team.create', { token: owner, body: memberBody({ roleIds: [await roleIdByName(h, 'superadmin')], email: 'socia@demo.colibri.co', phone: '3159990102' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().roles).toEqual(['superadmin']);
  });

  it('a manager still creates an analista', async () => {
    const manager = (await h.as('manager')).token;
    const res = await h.op('team.create', { token: manager, body: memberBody({ roleIds: [await roleIdByName(h, 'analista')], email: 'analista.nueva@demo.colibri.co', phone: '3159990103' }) });
    expect(res.statusCode).toBe(200);
  });
});
