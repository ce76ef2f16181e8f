// Geography from DANE DIVIPOLA: Colombia, its 33 departments (with Bogotá D.C.) and 1,123
// municipalities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await createHarness({ demo: false }); });
afterAll(async () => { await h.close(); });

describe('geography', () => {
  it('lists Colombia', async () => {
    const res = await h.op('geography.countries');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ code: 'CO', name: 'Colombia' }]);
  });

  it('lists 33 regions, Bogotá D.C. among them with code 11', async () => {
    const regions = (await h.op('geography.regions', { params: { country: 'CO' } })).json() as { code: string; name: string }[];
    expect(regions).toHaveLength(33);
    expect(regions).toContainEqual({ code: '11', name: 'Bogotá D.C.' });
    expect(regions).toContainEqual({ code: '05', name: 'Antioquia' });
    expect((await h.op('geography.regions', { params: { country: 'co' } })).json()).toHaveLength(33);
  });

  it('holds 1,123 municipalities in all', async () => {
    expect(await h.count('cities')).toBe(1123);
    const regions = (await h.op('geography.regions', { params: { country: 'CO' } })).json() as { code: string }[];
    let total = 0;
    for (const r of regions) total += (await h.op('geography.cities', { params: { country: 'CO', region: r.code } })).json().length;
    expect(total).toBe(1123);
  });

  it.each([
    ['11', 1],
    ['05', 125],
    ['5', 125],
    ['25', 116],
    ['91', 11],
  ])('region %s has %i cities', async (region, count) => {
    const res = await h.op('geography.cities', { params: { country: 'CO', region } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(count);
  });

  it('Bogotá region 11 has the one city 11001', async () => {
    expect((await h.op('geography.cities', { params: { country: 'CO', region: '11' } })).json()).toEqual([{ code: '11001', name: 'Bogotá D.C.' }]);
  });

  it.each([
    ['geography.regions', { country: 'PE' }, '99959'],
    ['geography.regions', { country: 'COL' }, '99931'],
    ['geography.cities', { country: 'CO', region: '02' }, '99959'],
    ['geography.cities', { country: 'CO', region: '123' }, '99931'],
    ['geography.cities', { country: 'CO', region: "1'" }, '99931'],
  ] as const)('%s %j answers %s', async (id, params, code) => {
    expect((await h.op(id, { params })).json().code).toBe(code);
  });
});
