// A person's saved lists of numbers and ranges: read and expanded on the server, at most 10 a
// person, names unique per person, each person's own (another's list is not listed nor deleted).
import { describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'analista');
const create = (body: Record<string, unknown>, token = tokens.manager) => h.op('numberLists.create', { token, body });

describe('saved number lists', () => {
  it('saves numbers and ranges as written, expanded, and lists them by name', async () => {
    const res = await create({ name: 'Equipo de pruebas', ranges: '300 123 4500-300 123 4502\n+57 310 555 0000' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Equipo de pruebas', count: 4, numbers: '+573001234500\n+573001234501\n+573001234502\n+573105550000' });
    const list = (await h.op('numberLists.list', { token: tokens.manager })).json();
    expect(list.items.map((l: { name: string }) => l.name)).toEqual(['Equipo de pruebas']);
    // Another person's lists are their own.
    expect((await h.op('numberLists.list', { token: tokens.analista })).json().total).toBe(0);
    expect((await h.op('numberLists.delete', { token: tokens.analista, params: { id: res.json().id } })).json().code).toBe('99959');
  });

  it('names each entry it cannot read, refuses a repeated name, and keeps at most 10 lists', async () => {
    const bad = (await create({ name: 'Mala', ranges: '3001234599-3001234500, abc, 3001230000-3001239999' })).json();
    expect(bad.code).toBe('99931');
    expect(bad.errors.map((e: { message: string }) => e.message)).toEqual([
      expect.stringContaining('"3001234599-3001234500" is a range written backwards'),
      expect.stringContaining('"abc" is not a Colombian number'),
      expect.stringContaining('"3001230000-3001239999" takes the list past 1000 numbers'),
    ]);
    expect((await create({ name: 'equipo de PRUEBAS', ranges: '3001230000' })).json().errors[0]).toMatchObject({ field: 'name', code: '99931' });
    for (let i = 2; i <= 10; i++) expect((await create({ name: `Lista ${i}`, ranges: `30012300${String(i).padStart(2, '0')}` })).statusCode).toBe(200);
    const eleventh = (await create({ name: 'Lista 11', ranges: '3001230011' })).json();
    expect(eleventh.errors[0]).toMatchObject({ field: 'name', code: '99931', message: expect.stringContaining('at most 10 lists') });
    const first = (await h.op('numberLists.list', { token: tokens.manager, query: { q: 'Lista 2' } })).json().items[0];
    expect((await h.op('numberLists.delete', { token: tokens.manager, params: { id: first.id } })).json()).toEqual({ ok: true });
    expect((await create({ name: 'Lista 11', ranges: '3001230011' })).statusCode).toBe(200);
  });
});
