// Areas (component 6001): the paged list, renaming and deleting, unique names per company (99930);
// permission denied (99982), another company's ids (99959), bad input with nothing changed.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart, PNG_1x1 } from './harness.ts';
import { addMember, asOther } from './team-helpers.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'analista');
let bogota: number;
beforeAll(async () => {
  bogota = (await h.db.selectFrom('areas').select('id').where('name', '=', 'Sede principal Bogotá').executeTakeFirstOrThrow()).id;
});

describe('account.page (list convention)', () => {
  it("pages, sorts and searches the company's areas", async () => {
    const page = (await h.op('account.page', { token: tokens.manager })).json();
    expect(page).toEqual({ items: [{ id: bogota, name: 'Sede principal Bogotá' }, { id: expect.any(Number), name: 'Sucursal Medellín' }], total: 2, page: 1, pageSize: 50, next: null });
    expect((await h.op('account.page', { token: tokens.manager, query: { sort: 'name', order: 'desc', pageSize: 1 } })).json()).toMatchObject({ items: [{ name: 'Sucursal Medellín' }], total: 2, pageSize: 1 });
    expect((await h.op('account.page', { token: tokens.manager, query: { q: 'medellín' } })).json().total).toBe(1);
    expect((await h.op('account.page', { token: tokens.manager, query: { sort: 'id' } })).json().code).toBe('99931');
  });

  it('an analista may not page the areas: 99982 (the full list for the area selector stays open)', async () => {
    expect((await h.op('account.page', { token: tokens.analista })).json().code).toBe('99982');
    expect((await h.op('account.list', { token: tokens.analista })).statusCode).toBe(200);
  });

  it("another company pages only its own areas", async () => {
    const { token } = await asOther(h, 'superadmin');
    expect((await h.op('account.page', { token })).json().items.map((a: { name: string }) => a.name)).toEqual(['Centro de distribución Cali']);
  });
});

describe('account.create and account.update', () => {
  it('names are unique within the company, case-insensitively: 99930 on name', async () => {
    const before = await h.count('areas');
    const res = await h.op('account.create', { token: tokens.manager, body: { name: 'SEDE PRINCIPAL BOGOTÁ' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: '99930', errors: [{ field: 'name', code: '99930' }] });
    expect(await h.count('areas')).toBe(before);
    // Another company may use a name Demo S.A.S. has.
    const { token } = await asOther(h, 'superadmin');
    expect((await h.op('account.create', { token, body: { name: 'Sucursal Medellín' } })).statusCode).toBe(200);
  });

  it('renames an area', async () => {
    const area = (await h.op('account.create', { token: tokens.manager, body: { name: 'Sucursal Cali' } })).json();
    const res = await h.op('account.update', { params: { id: area.id }, token: tokens.manager, body: { name: ' Sucursal Cali Norte ' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: area.id, name: 'Sucursal Cali Norte' });
    // Its own name in another case is no clash.
    expect((await h.op('account.update', { params: { id: area.id }, token: tokens.manager, body: { name: 'SUCURSAL CALI NORTE' } })).statusCode).toBe(200);
  });

  it("refuses a taken name (99930), bad names (99931/99999), unknown and another company's ids (99959), an analista (99982)", async () => {
    const { token: other } = await asOther(h, 'superadmin');
    const theirs = (await h.op('account.page', { token: other })).json().items[0].id;
    const before = await h.snapshot();
    const put = (id: number | string, body: unknown, token = tokens.manager) => h.op('account.update', { params: { id }, token, body });
    expect((await put(bogota, { name: 'sucursal medellín' })).json().code).toBe('99930');
    expect((await put(bogota, { name: '' })).json().code).toBe('99931');
    expect((await put(bogota, { name: 'x'.repeat(81) })).json().code).toBe('99931');
    expect((await put(bogota, { name: '<b>' })).json().code).toBe('99931');
    expect((await put(bogota, {})).json().code).toBe('99999');
    expect((await put('abc', { name: 'Nueva' })).json().code).toBe('99931');
    expect((await put(999999, { name: 'Nueva' })).json().code).toBe('99959');
    const foreign = await put(theirs, { name: 'Tomada' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('99959');
    expect((await put(bogota, { name: 'Nueva' }, tokens.analista)).json().code).toBe('99982');
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('account.delete', () => {
  it('deletes an area and its picture; its members keep working with no area', async () => {
    const area = (await h.op('account.create', { token: tokens.manager, body: { name: 'Sucursal Pereira' } })).json();
    await h.op('account.uploadPicture', { query: { id: area.id }, token: tokens.manager, ...multipart('file', 'sede.png', 'image/png', PNG_1x1) });
    const member = await addMember(h, tokens.manager, ['analista'], { areaId: area.id });
    const files = await h.count('files');
    const res = await h.op('account.delete', { params: { id: area.id }, token: tokens.manager });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await h.count('files')).toBe(files - 1);
    expect((await h.op('team.get', { params: { id: member.id }, token: tokens.manager })).json()).toMatchObject({ areaId: null, areaName: null });
    expect((await h.op('account.delete', { params: { id: area.id }, token: tokens.manager })).json().code).toBe('99959');
  });

  it("refuses an analista (99982) and another company's area (99959), nothing deleted", async () => {
    const { token: other } = await asOther(h, 'superadmin');
    const theirs = (await h.op('account.page', { token: other })).json().items[0].id;
    const before = await h.snapshot();
    expect((await h.op('account.delete', { params: { id: bogota }, token: tokens.analista })).json().code).toBe('99982');
    expect((await h.op('account.delete', { params: { id: theirs }, token: tokens.manager })).json().code).toBe('99959');
    expect((await h.op('account.delete', { params: { id: 0 }, token: tokens.manager })).json().code).toBe('99931');
    expect(await h.snapshot()).toEqual(before);
  });
});
