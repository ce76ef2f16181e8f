// The billing dashboards (ConnectinInfoBillingBoard and ConnectinExcelInfoBillingBoard, behind
// /Reports/FactuDashboard and /Reports/SmsxDashboard) on the database (PGlite, or PostgreSQL with
// DATABASE_URL): a month or a year of the company's traffic from the rollups — credits per account,
// channel type and day (pOption 1); the SMS accounts' outcomes per day, account and operator
// (pOption 2) — the workbook twin with the same figures, and the refusals: another client or
// account (99961), another company's user (99959), a month to come (99962), a missing option (99999).
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { calendarDateOf, formatYmd } from '../../src/core/bogota-time.ts';
import { fileHarness } from './file-harness.ts';
import { otherCompany } from './messaging-fixtures.ts';
import { activate, memberBody } from './team-helpers.ts';
import { insertMessages, newChannel } from './report-fixtures.ts';

const h = fileHarness();
let token: string;
let companyId: number;
let sms: number;
let whatsapp: number;
let year: number;
let month: number;
let today: string;
let theirs: { companyId: number; token: string };
const product = 'colibri';

beforeAll(async () => {
  // A company of its own: its board holds exactly the traffic inserted here.
  theirs = await otherCompany(h, ['sms', 'whatsapp']);
  companyId = theirs.companyId;
  token = theirs.token;
  const day = calendarDateOf(h.clock.now);
  ({ year, month } = day);
  today = formatYmd(day);
  sms = await newChannel(h, companyId, 'Tablero SMS', 'sms');
  whatsapp = await newChannel(h, companyId, 'Tablero WhatsApp', 'whatsapp');
  await insertMessages(h, companyId, [
    { account: sms, day: today, hour: 0, state: 'delivered', status: 3, to: '+573001230001', cost: 2, parts: 2, latencyMs: 800 },
    { account: sms, day: today, hour: 0, state: 'delivered', status: 3, to: '+573101230002', network: '732101', latencyMs: 900 },
    { account: sms, day: today, hour: 0, state: 'failed', status: 99, to: '+573151230003', errorCode: '001' },
    { account: sms, day: today, hour: 0, state: 'rejected', status: 5, to: '+573151230004' },
    { account: whatsapp, day: today, hour: 0, state: 'read', status: 3, to: '+573001230005', cost: 40 },
  ]);
}, 180_000);

const board = (query: Record<string, string | number>, as = token) => h.op('reportCenter.connectinInfoBillingBoard', { token: as, params: { product }, query });

describe('the billing board (pOption 1)', () => {
  it('gives the month\'s credits per account, per channel type and per day, with the totals', async () => {
    const res = await board({ pOption: 1, pYear: year, pMonth: month, pClientId: companyId });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json();
    expect(b.level).toBe(1);
    // The blocked message was never billed: SMS 2 + 1 + 1, WhatsApp 40.
    expect(b.items.map((r: Record<string, unknown>) => [r.account, r.platform, r.messages, r.parts, r.credits]).sort()).toEqual([
      ['Tablero SMS', 'sms', 4, 5, 4],
      ['Tablero WhatsApp', 'whatsapp', 1, 1, 40],
    ]);
    expect(b.platforms.map((r: Record<string, unknown>) => [r.platform, r.credits]).sort()).toEqual([['sms', 4], ['whatsapp', 40]]);
    expect(b.periods.map((r: Record<string, unknown>) => [r.period, r.credits])).toEqual([[today, 44]]);
    expect(b.totals).toMatchObject({ messages: 5, credits: 44 });
  });

  it('gives a whole year per month without pMonth, and one account with pAccountId', async () => {
    const y = (await board({ pOption: 1, pYear: year })).json();
    expect(y.level).toBe(2);
    expect(y.periods.map((r: Record<string, unknown>) => [r.period, r.credits])).toEqual([[`${year}-${String(month).padStart(2, '0')}`, 44]]);
    const one = (await board({ pOption: 1, pYear: year, pMonth: month, pAccountId: whatsapp })).json();
    expect(one.totals).toMatchObject({ messages: 1, credits: 40 });
  });
});

describe('the SMS board (pOption 2)', () => {
  it('gives the SMS accounts\' outcomes per day, per account and per operator, with the success rate', async () => {
    const res = await board({ pOption: 2, pYear: year, pMonth: month });
    expect(res.statusCode, res.body).toBe(200);
    const b = res.json();
    expect(b.items.map((r: Record<string, unknown>) => [r.period, r.messages, r.delivered, r.failed, r.blocked, r.successRate])).toEqual([[today, 4, 2, 1, 1, 66.7]]);
    expect(b.accounts.map((r: Record<string, unknown>) => r.account)).toEqual(['Tablero SMS']);
    const operators = Object.fromEntries(b.operators.map((r: { operator: string | null; messages: number }) => [r.operator ?? '-', r.messages]));
    expect(operators).toMatchObject({ Claro: 1 });
    expect(b.totals).toMatchObject({ messages: 4, delivered: 2 });
  });
});

describe('the workbook twin', () => {
  it('writes the board\'s rows and totals on the sheet "recipient", titles in Spanish', async () => {
    const res = await h.op('reportCenter.connectinExcelInfoBillingBoard', { token, params: { product }, query: { pOption: 1, pYear: year, pMonth: month } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain(`tablero-facturacion-${year}-${String(month).padStart(2, '0')}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('recipient')!;
    const rows = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual(['Cuenta', 'Tipo de canal', 'Mensajes', 'Partes', 'Créditos consumidos']);
    expect(rows.slice(1, -1).map((r) => [r[0], r[1], r[4]]).sort()).toEqual([['Tablero SMS', 'SMS', 4], ['Tablero WhatsApp', 'WhatsApp', 40]]);
    expect(rows.at(-1)).toEqual(['Total', '', 5, 6, 44]);
    const smsBook = await h.op('reportCenter.connectinExcelInfoBillingBoard', { token, params: { product }, query: { pOption: 2, pYear: year, pMonth: month } });
    expect(String(smsBook.headers['content-disposition'])).toContain('tablero-sms-');
  });

  it('is titled in the language of whoever asks (Accept-Language)', async () => {
    const res = await h.op('reportCenter.connectinExcelInfoBillingBoard', { token, params: { product }, headers: { 'accept-language': 'en-GB,en;q=0.8' }, query: { pOption: 1, pYear: year, pMonth: month } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = book.getWorksheet('recipient')!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    const enFields = JSON.parse(readFileSync('locales/en/fields.json', 'utf8')) as Record<string, string>;
    expect(rows[0][0]).toBe(enFields.account);
    expect(rows[0]).not.toContain('Cuenta');
    expect(rows.slice(1, -1).map((r) => r[1]).sort()).toEqual(['SMS', 'WhatsApp']);
    expect(rows.at(-1)![0]).toBe('Total');
  });
});

describe('permissions by the board asked for', () => {
  /** A member of the board's company whose only role grants `component` (view and report). */
  async function memberWith(component: number, name: string): Promise<string> {
    const role = (await h.op('rolesV3.create', { token, body: { name, scope: 'onlyMe', permissions: [{ id: component, actions: ['view', 'report'] }] } })).json();
    const body = memberBody({ roleIds: [role.id] });
    expect((await h.op('team.create', { token, body })).statusCode).toBe(200);
    return (await activate(h, body.email)).token;
  }

  it('the billing board needs its own component (4001) and the SMS board its own (4004), not the reports parent', async () => {
    const billingOnly = await memberWith(4001, 'Solo facturación');
    const smsOnly = await memberWith(4004, 'Solo tablero SMS');
    expect((await board({ pOption: 1, pYear: year, pMonth: month }, billingOnly)).statusCode).toBe(200);
    expect((await board({ pOption: 2, pYear: year, pMonth: month }, billingOnly)).json().code).toBe('99982');
    expect((await board({ pOption: 2, pYear: year, pMonth: month }, smsOnly)).statusCode).toBe(200);
    expect((await board({ pOption: 1, pYear: year, pMonth: month }, smsOnly)).json().code).toBe('99982');
    // Neither may download the workbook: their roles grant no download.
    expect((await h.op('reportCenter.connectinExcelInfoBillingBoard', { token: smsOnly, params: { product }, query: { pOption: 2, pYear: year, pMonth: month } })).json().code).toBe('99982');
  });
});

describe('refusals', () => {
  it('lists another client and another company\'s account, and refuses another company\'s user, a month to come and no option', async () => {
    const mine = await h.db.selectFrom('channels').select('id').where('company_id', '<>', companyId).executeTakeFirstOrThrow();
    const both = await board({ pOption: 1, pYear: year, pClientId: companyId + 1000, pAccountId: mine.id });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([['pClientId', '99961'], ['pAccountId', '99961']]);
    const user = await h.db.selectFrom('users').select('id').where('company_id', '<>', companyId).executeTakeFirstOrThrow();
    expect((await board({ pOption: 1, pYear: year, connectinUserId: user.id })).json().code).toBe('99959');
    expect((await board({ pOption: 1, pYear: year + 1 })).json().code).toBe('99962');
    // pYear defaults to this year.
    expect((await board({ pOption: 1 })).json().totals).toMatchObject({ messages: 5, credits: 44 });
    const none = await board({ pYear: year });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual([expect.objectContaining({ field: 'pOption', code: '99999' })]);
    expect((await board({ pOption: 3, pYear: year })).statusCode).toBe(400);
  });

  it('answers an empty board to a company without SMS accounts', async () => {
    const bare = await otherCompany(h, []);
    await h.db.deleteFrom('channels').where('company_id', '=', bare.companyId).where('platform', '=', 'sms').execute();
    const res = await board({ pOption: 2, pYear: year, pMonth: month }, bare.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ items: [], totals: { messages: 0 } });
  });
});
