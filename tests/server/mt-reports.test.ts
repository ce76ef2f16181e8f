// The MT success report (/v1/reports/mtReports/…, the same calls under v1/{product}/reportCenter/…)
// on the database (PGlite, or PostgreSQL with DATABASE_URL): the NITs a caller may report on are
// their company's, a NIT's accounts are the company's SMS channels, and trafficSuccess counts the
// SMS of the chosen accounts per period and account with the success rate (delivered of delivered
// plus failed) and the network's error codes, read from the rollups; another company's NIT,
// accounts and users are refused; WhatsApp accounts are not MT SMS (99961); permissions (4005).
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDateOf, formatYmd } from '../../src/core/bogota-time.ts';
import { DEMO_COMPANY } from '../../src/server/db/demo-seed.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId, otherCompany } from './messaging-fixtures.ts';
import { insertMessages, newChannel } from './report-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'admin');
let companyId: number;
let sms: number;
let whatsapp: number;
let yesterday: string;
let twoDaysAgo: string;
let foreign: { companyId: number; token: string };
const product = { product: 'colibri' };

beforeAll(async () => {
  companyId = await demoCompanyId(h);
  yesterday = formatYmd(addDays(calendarDateOf(h.clock.now), -1));
  twoDaysAgo = formatYmd(addDays(calendarDateOf(h.clock.now), -2));
  sms = await newChannel(h, companyId, 'MT Bogotá', 'sms');
  whatsapp = await newChannel(h, companyId, 'MT WhatsApp', 'whatsapp');
  await insertMessages(h, companyId, [
    // Two days ago: three delivered, one failed (SMPP err 001), one still awaiting its receipt.
    ...[1, 2, 3].map((i) => ({ account: sms, day: twoDaysAgo, hour: 10, state: 'delivered', status: 3, to: `+57300100000${i}`, latencyMs: 1500 })),
    { account: sms, day: twoDaysAgo, hour: 11, state: 'failed', status: 99, to: '+573001000004', errorCode: '001' },
    { account: sms, day: twoDaysAgo, hour: 11, state: 'sent', status: 1, to: '+573001000005' },
    // Yesterday: one delivered, one blocked (block list 5: never reached the network).
    { account: sms, day: yesterday, hour: 9, state: 'delivered', status: 3, to: '+573001000006', latencyMs: 900 },
    { account: sms, day: yesterday, hour: 9, state: 'rejected', status: 5, to: '+573001000007' },
  ]);
  foreign = await otherCompany(h, ['sms']);
}, 180_000);

describe('the NITs', () => {
  it('lists the caller\'s company as the one client, at both paths', async () => {
    for (const id of ['mtReports.clientsNit', 'mtReports.reportCenterClientsNit'] as const) {
      const res = id === 'mtReports.clientsNit' ? await h.op('mtReports.clientsNit', { token: tokens.admin }) : await h.op('mtReports.reportCenterClientsNit', { token: tokens.admin, params: product });
      expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual([{ companyId, nit: DEMO_COMPANY.nit, name: DEMO_COMPANY.name }]);
    }
  });

  it('gives the SMS accounts of the company\'s NIT, written with or without separators and check digit; another NIT has none', async () => {
    for (const nit of ['900123456-8', '900.123.456-8', '900123456']) {
      const res = await h.op('mtReports.getClientsByNit', { token: tokens.admin, params: { nit } });
      expect(res.statusCode, res.body).toBe(200);
      const names = res.json().map((a: { name: string; platform: string }) => [a.name, a.platform]);
      expect(names).toContainEqual(['MT Bogotá', 'sms']);
      expect(names.every(([, platform]: string[]) => platform === 'sms')).toBe(true);
    }
    const other = await h.op('mtReports.reportCenterGetClientsByNit', { token: tokens.admin, params: { ...product, nit: '900987654-7' } });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual([]);
    expect((await h.op('mtReports.getClientsByNit', { token: tokens.admin, params: { nit: 'abc' } })).statusCode).toBe(400);
  });

  it('gives a team member\'s NIT, never another company\'s user', async () => {
    const me = await h.as('develop');
    const mine = await h.op('mtReports.getNitByUser', { token: tokens.admin, params: { id: me.session.idUser } });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ companyId, nit: DEMO_COMPANY.nit });
    const theirs = await h.db.selectFrom('users').select('id').where('company_id', '=', foreign.companyId).executeTakeFirstOrThrow();
    const refused = await h.op('mtReports.reportCenterGetNitByUser', { token: tokens.admin, params: { ...product, id: theirs.id } });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('99959');
  });
});

describe('trafficSuccess', () => {
  const body = (more: Record<string, unknown> = {}) => ({ ClientsIds: [sms], DateStart: twoDaysAgo, DateEnd: yesterday, ...more });

  it('counts the SMS per day and account with the success rate of what the network told, and why what failed did not go', async () => {
    const res = await h.op('mtReports.trafficSuccess', { token: tokens.admin, body: body({ Nit: '900.123.456-8' }) });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report.items.map((r: Record<string, unknown>) => [r.period, r.account, r.messages, r.delivered, r.failed, r.sent, r.blocked, r.successRate])).toEqual([
      [twoDaysAgo, 'MT Bogotá', 5, 3, 1, 1, 0, 75],
      [yesterday, 'MT Bogotá', 2, 1, 0, 0, 1, 100],
    ]);
    // 4 delivered of 5 told: 80 %; the message awaiting its receipt and the blocked one count in neither.
    expect(report.totals).toMatchObject({ messages: 7, delivered: 4, failed: 1, successRate: 80 });
    expect(report.errors.map((e: { errorCode: string; failed: number }) => [e.errorCode, e.failed])).toEqual([['001', 1]]);
  });

  it('answers the same under the report center\'s path', async () => {
    const a = await h.op('mtReports.trafficSuccess', { token: tokens.admin, body: body() });
    const b = await h.op('mtReports.reportCenterTrafficSuccess', { token: tokens.admin, params: product, body: body() });
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
  });

  it('has no rate where the network told nothing yet', async () => {
    const quiet = await newChannel(h, companyId, 'MT sin recibos', 'sms');
    await insertMessages(h, companyId, [{ account: quiet, day: yesterday, hour: 8, state: 'sent', status: 1, to: '+573001000008' }]);
    const totals = (await h.op('mtReports.trafficSuccess', { token: tokens.admin, body: body({ ClientsIds: [quiet] }) })).json().totals;
    expect(totals).toMatchObject({ messages: 1, sent: 1, successRate: null });
  });

  it('refuses another company\'s NIT and accounts, a WhatsApp account, and the report rules, every problem listed', async () => {
    const nit = await h.op('mtReports.trafficSuccess', { token: tokens.admin, body: body({ Nit: '900987654-7' }) });
    expect(nit.statusCode).toBe(400);
    expect(nit.json().errors).toEqual([expect.objectContaining({ field: 'Nit', code: '99961' })]);
    const wa = await h.op('mtReports.trafficSuccess', { token: tokens.admin, body: body({ ClientsIds: [sms, whatsapp] }) });
    expect(wa.statusCode).toBe(400);
    expect(wa.json().errors).toEqual([expect.objectContaining({ field: 'ClientsIds', code: '99961', message: expect.stringContaining(String(whatsapp)) })]);
    const theirs = await newChannel(h, foreign.companyId, 'MT ajena', 'sms');
    const mixed = await h.op('mtReports.trafficSuccess', { token: tokens.admin, body: body({ ClientsIds: [theirs], DateEnd: twoDaysAgo, DateStart: yesterday }) });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual(expect.arrayContaining([['ClientsIds', '99961'], ['DateEnd', '99958']]));
    expect((await h.op('mtReports.trafficSuccess', { token: tokens.admin, body: { ClientsIds: 'x' } })).statusCode).toBe(400);
  });

  it('is for the roles with the MT report (4005): develop and admin, not an analyst', async () => {
    const develop = (await h.as('develop')).token;
    expect((await h.op('mtReports.trafficSuccess', { token: develop, body: body() })).statusCode).toBe(200);
    const analyst = (await h.as('analista')).token;
    const refused = await h.op('mtReports.trafficSuccess', { token: analyst, body: body() });
    expect(refused.statusCode).toBe(403);
    expect((await h.op('mtReports.clientsNit', { token: analyst })).statusCode).toBe(403);
  });
});
