// The SMS platform calls of spec 7 (v1/{product}/plataformSms/...) and the quota screen, from
// the platform's own tables: accounts with quotas, campaigns, clients, responsibles, operators
// and states. Permissions per call (6002 lists, 6006 quota, reference lists for any active user)
// and company isolation.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_COMPANY } from '../../src/server/db/demo-seed.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { counts, demoCompanyId, otherCompany } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'admin', 'analista');
let ours: { id: number; name: string; clientId: number; responsibleId: number | null }[];
let foreign: { companyId: number; token: string; clientId: number; accountId: number };

beforeAll(async () => {
  ours = (await h.op('platformSms.quotaList', { token: tokens.admin, query: { sort: 'name' } })).json().items;
  // A second company with its own client and account.
  const other = await otherCompany(h);
  const client = await h.db.insertInto('platform_clients').values({ company_id: other.companyId, name: 'Cliente Ajeno', nit: '800111222-3' }).returning('id').executeTakeFirstOrThrow();
  const account = await h.db.insertInto('sms_accounts').values({
    company_id: other.companyId, platform_client_id: client.id, platform_responsible_id: null, name: 'Cuenta Ajena', state: 'active', quota: 5, used: 1, created_at: h.clock.now, updated_at: h.clock.now,
  }).returning('id').executeTakeFirstOrThrow();
  await h.db.insertInto('sms_campaigns').values({ company_id: other.companyId, account_id: account.id, name: 'Campaña ajena', created_at: h.clock.now }).execute();
  foreign = { ...other, clientId: client.id, accountId: account.id };
});

const byName = (name: string) => ours.find((a) => a.name === name)!;

describe('accounts and clients (6002)', () => {
  it('seeds the demo accounts with quotas on the demo clients', () => {
    expect(ours.map((a) => a.name)).toEqual(['Cuenta OTP', 'Cuenta Principal', 'Retail Promociones']);
  });

  it('getAccountsByNits: the accounts of the company clients with those NITs (check digit optional)', async () => {
    const nit = DEMO_COMPANY.nit.split('-')[0];
    const res = await h.op('platformSms.getAccountsByNits', { token: tokens.admin, params: { nits: `${nit},901234567-7,800111222-3` } });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((a: { name: string }) => a.name)).toEqual(['Cuenta OTP', 'Cuenta Principal', 'Retail Promociones']);
    expect(res.json()[1]).toMatchObject({ quota: 100000, used: 35210, available: 64790, state: 'active', clientName: DEMO_COMPANY.name });
    // Another company's NIT matches nothing.
    expect((await h.op('platformSms.getAccountsByNits', { token: tokens.admin, params: { nits: '800111222-3' } })).json()).toEqual([]);
    for (const nits of ['abc', '900123456-77', "1;drop table sms_accounts"]) {
      expect((await h.op('platformSms.getAccountsByNits', { token: tokens.admin, params: { nits } })).json().code).toBe('99931');
    }
  });

  it('getCampaignsByAccount: campaigns of the company accounts only', async () => {
    const ids = [byName('Cuenta Principal').id, foreign.accountId];
    const res = await h.op('platformSms.getCampaignsByAccount', { token: tokens.admin, body: { ids } });
    expect(res.json()).toEqual([
      { id: expect.any(Number), accountId: ids[0], name: 'Cuenta Principal: bienvenida', createdAt: expect.any(String) },
      { id: expect.any(Number), accountId: ids[0], name: 'Cuenta Principal: recordatorio', createdAt: expect.any(String) },
    ]);
    expect((await h.op('platformSms.getCampaignsByAccount', { token: tokens.admin, body: { ids: [] } })).json().code).toBe('99931');
    expect((await h.op('platformSms.getCampaignsByAccount', { token: tokens.admin, body: {} })).json().code).toBe('99999');
    expect((await h.op('platformSms.getCampaignsByAccount', { token: tokens.admin, body: { ids: ['1'] } })).json().code).toBe('99931');
  });

  it('clientsSms, getListAccount and getAllDataClients answer the company clients', async () => {
    const clients = (await h.op('platformSms.clientsSms', { token: tokens.admin })).json();
    expect(clients.map((c: { name: string }) => c.name).sort()).toEqual([DEMO_COMPANY.name, 'Demo Retail'].sort());
    const main = clients.find((c: { name: string }) => c.name === DEMO_COMPANY.name);
    const all = (await h.op('platformSms.getListAccount', { token: tokens.admin, params: { clientId: main.id, responsibleId: 0 } })).json();
    expect(all.map((a: { name: string }) => a.name)).toEqual(['Cuenta OTP', 'Cuenta Principal']);
    const principal = byName('Cuenta Principal');
    const one = (await h.op('platformSms.getListAccount', { token: tokens.admin, params: { clientId: main.id, responsibleId: principal.responsibleId! } })).json();
    expect(one.map((a: { name: string }) => a.name)).toEqual(['Cuenta Principal']);
    const data = (await h.op('platformSms.getAllDataClients', { token: tokens.admin, params: { id: main.id } })).json();
    expect(data.client).toEqual(main);
    expect(data.responsibles.map((r: { name: string }) => r.name)).toEqual(['Mercadeo Digital', 'Servicio al Cliente']);
    expect(data.accounts.map((a: { name: string }) => a.name)).toEqual(['Cuenta OTP', 'Cuenta Principal']);
  });

  it('getAllDataClientsByUserId: the clients the caller is associated with', async () => {
    const { token } = await h.as('superadmin');
    const mine = (await h.op('platformSms.getAllDataClientsByUserId', { token })).json();
    expect(mine.map((d: { client: { name: string } }) => d.client.name)).toEqual([DEMO_COMPANY.name]);
    expect(mine[0].accounts).toHaveLength(2);
    expect((await h.op('platformSms.getAllDataClientsByUserId', { token: tokens.analista })).json()).toEqual([]);
  });

  it("another company's client or account is not found (99959)", async () => {
    expect((await h.op('platformSms.getListAccount', { token: tokens.admin, params: { clientId: foreign.clientId, responsibleId: 0 } })).json().code).toBe('99959');
    expect((await h.op('platformSms.getAllDataClients', { token: tokens.admin, params: { id: foreign.clientId } })).json().code).toBe('99959');
    expect((await h.op('platformSms.clientsSms', { token: foreign.token })).json()).toEqual([{ id: foreign.clientId, name: 'Cliente Ajeno', nit: '800111222-3' }]);
    expect((await h.op('platformSms.getAllDataClients', { token: tokens.admin, params: { id: 0 } })).json().code).toBe('99931');
  });
});

describe('reference lists (any active user)', () => {
  it('getStates: the SMS status codes of the spec', async () => {
    const states = (await h.op('platformSms.getStates', { token: tokens.analista })).json();
    expect(states).toHaveLength(28);
    expect(states[0]).toEqual({ id: 1, name: 'Scheduled / valid' });
    expect(states.find((s: { id: number }) => s.id === 5)).toEqual({ id: 5, name: 'Blacklisted' });
    expect(states.map((s: { id: number }) => s.id)).toEqual(expect.arrayContaining([71, 76, 81, 89, 96, 99]));
  });

  it('operators: network and virtual operators', async () => {
    const ops = (await h.op('platformSms.operators', { token: tokens.analista })).json();
    expect(ops.filter((o: { kind: string }) => o.kind === 'mno').map((o: { name: string }) => o.name)).toEqual(['Claro', 'Movistar', 'Tigo', 'WOM']);
    expect(ops.filter((o: { kind: string }) => o.kind === 'mvno').length).toBeGreaterThan(0);
  });

  it('need a signed-in active user (99953 without a token)', async () => {
    expect((await h.op('platformSms.getStates')).json().code).toBe('99953');
    expect((await h.op('platformSms.operators')).json().code).toBe('99953');
  });
});

describe('quota (6006)', () => {
  it('GetQuotaByAccount and its CSV file', async () => {
    const principal = byName('Cuenta Principal');
    const res = await h.op('platformSms.getQuotaByAccount', { token: tokens.admin, params: { id: principal.id }, query: { clientId: principal.clientId } });
    expect(res.json()).toMatchObject({ id: principal.id, quota: 100000, used: 35210, available: 64790 });
    expect((await h.op('platformSms.getQuotaByAccount', { token: tokens.admin, params: { id: principal.id }, query: { clientId: foreign.clientId } })).json().code).toBe('99959');
    expect((await h.op('platformSms.getQuotaByAccount', { token: tokens.admin, params: { id: principal.id }, query: { responsibleId: 999999 } })).json().code).toBe('99959');
    const file = await h.op('platformSms.getQuotaFileByAccount', { token: tokens.admin, params: { id: principal.id }, query: { clientId: principal.clientId } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="cupo-cuenta-${principal.id}.csv"`);
    expect(file.body).toBe(`\ufeffcuenta,cliente,responsable,estado,cupo,usado,disponible\r\nCuenta Principal,${DEMO_COMPANY.name},Mercadeo Digital,active,100000,35210,64790\r\n`);
  });

  it('a formula-looking account name is written as text in the CSV', async () => {
    const companyId = await demoCompanyId(h);
    const row = await h.db.insertInto('sms_accounts').values({
      company_id: companyId, platform_client_id: byName('Cuenta OTP').clientId, platform_responsible_id: null, name: '=HYPERLINK("http://x","y")', state: 'active', quota: 1, used: 0, created_at: h.clock.now, updated_at: h.clock.now,
    }).returning('id').executeTakeFirstOrThrow();
    const file = await h.op('platformSms.getQuotaFileByAccount', { token: tokens.admin, params: { id: row.id } });
    expect(file.body.split('\r\n')[1].startsWith(`"'=HYPERLINK(""http://x"",""y"")"`)).toBe(true);
    await h.db.deleteFrom('sms_accounts').where('id', '=', row.id).execute();
  });

  it('the quota list pages, sorts, filters and searches', async () => {
    const byAvailable = (await h.op('platformSms.quotaList', { token: tokens.admin, query: { sort: 'available', order: 'desc' } })).json();
    expect(byAvailable.items.map((a: { name: string }) => a.name)).toEqual(['Cuenta Principal', 'Retail Promociones', 'Cuenta OTP']);
    expect(byAvailable).toMatchObject({ total: 3, page: 1, pageSize: 50 });
    expect((await h.op('platformSms.quotaList', { token: tokens.admin, query: { state: 'inactive' } })).json().items.map((a: { name: string }) => a.name)).toEqual(['Retail Promociones']);
    expect((await h.op('platformSms.quotaList', { token: tokens.admin, query: { q: 'RETAIL' } })).json().total).toBe(1);
    expect((await h.op('platformSms.quotaList', { token: tokens.admin, query: { clientId: byName('Cuenta OTP').clientId, pageSize: 1, page: 2 } })).json()).toMatchObject({ total: 2, items: [{ name: 'Cuenta Principal' }] });
    expect((await h.op('platformSms.quotaList', { token: foreign.token })).json().code).toBe('99982');
    for (const query of [{ sort: 'quota; drop table x' }, { state: 'deleted' }, { clientId: 'x' }] as Record<string, string>[]) {
      expect((await h.op('platformSms.quotaList', { token: tokens.admin, query })).json().code).toBe('99931');
    }
  });

  it('sets a quota (integer from 0) and answers the account', async () => {
    const otp = byName('Cuenta OTP');
    const res = await h.op('platformSms.setQuota', { token: tokens.admin, params: { accountId: otp.id }, body: { quota: 60000 } });
    expect(res.json()).toMatchObject({ id: otp.id, quota: 60000, used: 49990, available: 10010 });
    const zero = await h.op('platformSms.setQuota', { token: (await h.as('develop')).token, params: { accountId: otp.id }, body: { quota: 0 } });
    expect(zero.json()).toMatchObject({ quota: 0, available: 0 });
  });

  it.each([
    [{ quota: -1 }, '99931'], [{ quota: 1.5 }, '99931'], [{ quota: '10' }, '99931'], [{ quota: 2000000001 }, '99931'], [{}, '99999'], [{ quota: 5, used: 0 }, '99931'],
  ])('refuses %j with %s and changes nothing', async (body, code) => {
    const before = await h.db.selectFrom('sms_accounts').select(['id', 'quota', 'used']).orderBy('id').execute();
    expect((await h.op('platformSms.setQuota', { token: tokens.admin, params: { accountId: byName('Cuenta OTP').id }, body })).json().code).toBe(code);
    expect(await h.db.selectFrom('sms_accounts').select(['id', 'quota', 'used']).orderBy('id').execute()).toEqual(before);
  });

  it("another company's account is not found (99959) and keeps its quota", async () => {
    for (const res of [
      await h.op('platformSms.setQuota', { token: tokens.admin, params: { accountId: foreign.accountId }, body: { quota: 999 } }),
      await h.op('platformSms.getQuotaByAccount', { token: tokens.admin, params: { id: foreign.accountId } }),
      await h.op('platformSms.getQuotaFileByAccount', { token: tokens.admin, params: { id: foreign.accountId } }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('99959');
    }
    const row = await h.db.selectFrom('sms_accounts').select('quota').where('id', '=', foreign.accountId).executeTakeFirstOrThrow();
    expect(row.quota).toBe(5);
  });
});

describe('permissions per call', () => {
  it('analista may use neither the lists (6002) nor the quota (6006); manager has lists but not quota', async () => {
    const { token: manager } = await h.as('manager');
    const { id, clientId } = byName('Cuenta OTP');
    const before = await counts(h, ['sms_accounts']);
    const quotaCalls = (token: string) => [
      h.op('platformSms.getQuotaByAccount', { token, params: { id } }),
      h.op('platformSms.getQuotaFileByAccount', { token, params: { id } }),
      h.op('platformSms.quotaList', { token }),
      h.op('platformSms.setQuota', { token, params: { accountId: id }, body: { quota: 1 } }),
    ];
    const listCalls = (token: string) => [
      h.op('platformSms.getAccountsByNits', { token, params: { nits: '900123456' } }),
      h.op('platformSms.getCampaignsByAccount', { token, body: { ids: [id] } }),
      h.op('platformSms.clientsSms', { token }),
      h.op('platformSms.getListAccount', { token, params: { clientId, responsibleId: 0 } }),
      h.op('platformSms.getAllDataClients', { token, params: { id: clientId } }),
    ];
    for (const res of await Promise.all([...quotaCalls(tokens.analista), ...listCalls(tokens.analista), ...quotaCalls(manager)])) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('99982');
    }
    for (const res of await Promise.all(listCalls(manager))) expect(res.statusCode).toBe(200);
    expect(await counts(h, ['sms_accounts'])).toEqual(before);
    const otp = await h.db.selectFrom('sms_accounts').select('quota').where('id', '=', id).executeTakeFirstOrThrow();
    expect(otp.quota).not.toBe(1);
  });
});
