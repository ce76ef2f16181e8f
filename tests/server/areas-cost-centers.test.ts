// Cost centers (/v1/costCenters, component 6001 like the areas): list convention, CRUD, codes
// unique per company (99930), permission denied (99982), another company's ids (99959), bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { addMember, asOther } from './team-helpers.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'analista');
let other: string;
let theirs: number;
beforeAll(async () => {
  other = (await asOther(h, 'superadmin')).token;
  theirs = (await h.op('costCenters.list', { token: other })).json().items[0].id;
});

describe('costCenters.list', () => {
  it('pages the company cost centers by name by default; every active user may read them (the team form picker)', async () => {
    const page = (await h.op('costCenters.list', { token: tokens.analista })).json();
    expect(page).toMatchObject({ total: 3, page: 1, pageSize: 50 });
    expect(page.items.map((c: { code: string }) => c.code)).toEqual(['MKT-100', 'OPS-200', 'VEN-300']);
    expect(page.items[0]).toEqual({ id: expect.any(Number), name: 'Mercadeo', code: 'MKT-100', createdAt: expect.any(String) });
  });

  it('filters by code (any case), searches and sorts', async () => {
    const list = async (query: Record<string, string | number>) => (await h.op('costCenters.list', { token: tokens.manager, query })).json();
    expect((await list({ code: 'ops-200' })).items.map((c: { name: string }) => c.name)).toEqual(['Operaciones']);
    expect((await list({ q: 'vent' })).total).toBe(1);
    expect((await list({ sort: 'code', order: 'desc' })).items[0].code).toBe('VEN-300');
    expect((await list({ pageSize: 500 })).code).toBe('99931');
  });

  it("another company lists only its own", async () => {
    expect((await h.op('costCenters.list', { token: other })).json().items.map((c: { code: string }) => c.code)).toEqual(['LOG-01']);
  });
});

describe('costCenters.get, create, update, delete', () => {
  it('creates, reads, updates and deletes a cost center', async () => {
    const created = await h.op('costCenters.create', { token: tokens.manager, body: { name: ' Tecnología ', code: 'TEC-400' } });
    expect(created.statusCode).toBe(200);
    const { id } = created.json();
    expect(created.json()).toMatchObject({ name: 'Tecnología', code: 'TEC-400' });
    expect((await h.op('costCenters.get', { params: { id }, token: tokens.manager })).json().code).toBe('TEC-400');
    const updated = await h.op('costCenters.update', { params: { id }, token: tokens.manager, body: { name: 'Tecnología e innovación', code: 'TEC-401' } });
    expect(updated.json()).toMatchObject({ id, name: 'Tecnología e innovación', code: 'TEC-401' });
    const member = await addMember(h, tokens.manager, ['analista'], { costCenterId: id });
    expect((await h.op('costCenters.delete', { params: { id }, token: tokens.manager })).json()).toEqual({ ok: true });
    expect((await h.op('costCenters.get', { params: { id }, token: tokens.manager })).json().code).toBe('99959');
    expect((await h.op('team.get', { params: { id: member.id }, token: tokens.manager })).json()).toMatchObject({ costCenterId: null, costCenterName: null });
  });

  it('codes are unique within the company, case-insensitively (99930); another company may reuse one', async () => {
    const before = await h.count('cost_centers');
    const res = await h.op('costCenters.create', { token: tokens.manager, body: { name: 'Otra', code: 'mkt-100' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: '99930', errors: [{ field: 'code' }] });
    const ops = (await h.op('costCenters.list', { token: tokens.manager, query: { code: 'OPS-200' } })).json().items[0].id;
    expect((await h.op('costCenters.update', { params: { id: ops }, token: tokens.manager, body: { name: 'Operaciones', code: 'VEN-300' } })).json().code).toBe('99930');
    expect(await h.count('cost_centers')).toBe(before);
    expect((await h.op('costCenters.create', { token: other, body: { name: 'Mercadeo', code: 'MKT-100' } })).statusCode).toBe(200);
  });

  it.each([
    [{ name: 'Sin código' }, '99999'],
    [{ code: 'X-1' }, '99999'],
    [{ name: '', code: 'X-1' }, '99931'],
    [{ name: 'Bien', code: 'con espacio' }, '99931'],
    [{ name: 'Bien', code: '-guion' }, '99931'],
    [{ name: 'Bien', code: 'X'.repeat(21) }, '99931'],
    [{ name: '<script>', code: 'X-1' }, '99931'],
    [{ name: 'Bien', code: 'X-1', extra: true }, '99931'],
  ])('refuses %j with %s, nothing created', async (body, code) => {
    const before = await h.count('cost_centers');
    expect((await h.op('costCenters.create', { token: tokens.manager, body })).json().code).toBe(code);
    expect(await h.count('cost_centers')).toBe(before);
  });

  it('an analista may read the list but not read one, create, edit or delete: 99982', async () => {
    const id = (await h.op('costCenters.list', { token: tokens.manager })).json().items[0].id;
    const before = await h.snapshot();
    const centers = await h.db.selectFrom('cost_centers').selectAll().orderBy('id').execute();
    expect((await h.op('costCenters.get', { params: { id }, token: tokens.analista })).json().code).toBe('99982');
    expect((await h.op('costCenters.create', { token: tokens.analista, body: { name: 'Nuevo', code: 'NEW-1' } })).json().code).toBe('99982');
    expect((await h.op('costCenters.update', { params: { id }, token: tokens.analista, body: { name: 'Nuevo', code: 'NEW-1' } })).json().code).toBe('99982');
    expect((await h.op('costCenters.delete', { params: { id }, token: tokens.analista })).json().code).toBe('99982');
    expect(await h.db.selectFrom('cost_centers').selectAll().orderBy('id').execute()).toEqual(centers);
    expect(await h.snapshot()).toEqual(before);
  });

  it("another company's cost center answers 99959 to every operation, nothing changed", async () => {
    const centers = await h.db.selectFrom('cost_centers').selectAll().orderBy('id').execute();
    for (const [op, args] of [
      ['costCenters.get', {}],
      ['costCenters.update', { body: { name: 'Tomado', code: 'TOM-1' } }],
      ['costCenters.delete', {}],
    ] as const) {
      const res = await h.op(op, { params: { id: theirs }, token: tokens.manager, ...args });
      expect(res.statusCode, op).toBe(404);
      expect(res.json().code).toBe('99959');
      expect(res.body).not.toContain('LOG-01');
    }
    expect(await h.db.selectFrom('cost_centers').selectAll().orderBy('id').execute()).toEqual(centers);
  });
});
