// Areas of the caller's company, the company/area pictures and the payments summary.
import { describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart, PNG_1x1 } from './harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'analista');

describe('areas', () => {
  it("lists the company's areas", async () => {
    const res = await h.op('account.list', { token: tokens.analista });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: expect.any(Number), name: 'Sede principal Bogotá' },
      { id: expect.any(Number), name: 'Sucursal Medellín' },
    ]);
  });

  it('a manager creates an area (component 6001 create)', async () => {
    const res = await h.op('account.create', { token: tokens.manager, body: { name: '  Sucursal Cali ' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: expect.any(Number), name: 'Sucursal Cali' });
    expect((await h.op('account.list', { token: tokens.analista })).json()).toHaveLength(3);
  });

  it('an analista may not create areas: 99982, nothing created', async () => {
    const before = await h.count('areas');
    const res = await h.op('account.create', { token: tokens.analista, body: { name: 'Sucursal Pasto' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
    expect(await h.count('areas')).toBe(before);
  });

  it.each([
    [{}, '99999'],
    [{ name: '' }, '99931'],
    [{ name: 'x'.repeat(81) }, '99931'],
    [{ name: '<script>alert(1)</script>' }, '99931'],
    [{ name: 7 }, '99931'],
  ])('refuses %j with %s', async (body, code) => {
    const before = await h.count('areas');
    expect((await h.op('account.create', { token: tokens.manager, body })).json().code).toBe(code);
    expect(await h.count('areas')).toBe(before);
  });

  it("another company's areas stay invisible", async () => {
    await h.addCompany('Ajena S.A.S.', [{ email: 'jefa@ajena.co', roles: ['manager'] }]);
    const { token } = await h.signin('jefa@ajena.co');
    expect((await h.op('account.list', { token })).json()).toEqual([]);
    const ours = (await h.op('account.list', { token: tokens.analista })).json()[0].id;
    expect((await h.op('account.getPicture', { query: { id: ours }, token })).json().code).toBe('99959');
  });
});

describe('pictures', () => {
  it('company and area pictures start empty and are stored by a manager', async () => {
    expect((await h.op('account.getPicture', { token: tokens.analista })).json()).toEqual({ url: '' });
    const company = await h.op('account.uploadPicture', { token: tokens.manager, ...multipart('file', 'logo.png', 'image/png', PNG_1x1) });
    expect(company.statusCode).toBe(200);
    expect((await h.op('account.getPicture', { token: tokens.analista })).json()).toEqual(company.json());

    const areaId = (await h.op('account.list', { token: tokens.analista })).json()[0].id;
    expect((await h.op('account.getPicture', { query: { id: areaId }, token: tokens.analista })).json()).toEqual({ url: '' });
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]);
    const area = await h.op('account.uploadPicture', { query: { id: areaId }, token: tokens.manager, ...multipart('file', 'sede.jpg', 'image/jpeg', jpeg) });
    expect(area.statusCode).toBe(200);
    const { url } = area.json();
    expect((await h.op('account.getPicture', { query: { id: areaId }, token: tokens.analista })).json()).toEqual({ url });
    expect((await h.op('account.list', { token: tokens.analista })).json()[0]).toEqual({ id: areaId, name: 'Sede principal Bogotá', urlPicture: url });
    const served = await h.op('system.file', { params: { id: url.split('/').pop() } });
    expect(served.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses a fake picture (99932), an unknown area (99959) and an analista (99982)', async () => {
    const before = await h.snapshot();
    expect((await h.op('account.uploadPicture', { token: tokens.manager, ...multipart('file', 'x.png', 'image/png', Buffer.from('not an image')) })).json().code).toBe('99932');
    expect((await h.op('account.uploadPicture', { query: { id: 999999 }, token: tokens.manager, ...multipart('file', 'x.png', 'image/png', PNG_1x1) })).json().code).toBe('99959');
    expect((await h.op('account.uploadPicture', { token: tokens.analista, ...multipart('file', 'x.png', 'image/png', PNG_1x1) })).json().code).toBe('99982');
    expect((await h.op('account.getPicture', { query: { id: 'abc' }, token: tokens.analista })).json().code).toBe('99931');
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('payments summary', () => {
  it("is the company's credits in integer COP, from its ledger (the demo's 1,000,000 granted)", async () => {
    const res = await h.op('account.paymentsSummary', { token: tokens.analista });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ balance: 1_000_000, reserved: 0, purchased: 1_000_000, spent: 0, purchasedThisMonth: expect.any(Number), spentThisMonth: 0, promotional: 0, movements: 1 });
  });
});
