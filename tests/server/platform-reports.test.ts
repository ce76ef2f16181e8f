// The provider's SMS reports tool (POST v1/{product}/plataformSms/reportsSms, /smsPlatformTools/
// reportsSms) on the database (PGlite, or PostgreSQL with DATABASE_URL): staff (role platform)
// read another company's SMS traffic and the figures are that company's own report center answer
// for the same days (GetTransactionsSummary, GetOperatorsSummary, GetTrafficByState over its SMS
// accounts); only SMS accounts count; a company user naming another company is refused (99982)
// and without a company reads their own; accounts, days and periods are checked as every report's.
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDateOf, formatYmd } from '../../src/core/bogota-time.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId, otherCompany, userWithGrants } from './messaging-fixtures.ts';
import { insertMessages, newChannel } from './report-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'platform', 'manager');
let demo: number;
let demoSms: number[];
let b: { companyId: number; token: string; sms: number[]; whatsapp: number };
let today: string;
let yesterday: string;
let twoDaysAgo: string;

beforeAll(async () => {
  demo = await demoCompanyId(h);
  today = formatYmd(calendarDateOf(h.clock.now));
  yesterday = formatYmd(addDays(calendarDateOf(h.clock.now), -1));
  twoDaysAgo = formatYmd(addDays(calendarDateOf(h.clock.now), -2));
  // Company B: two SMS accounts with traffic on two days, and a WhatsApp account whose traffic an SMS report leaves out.
  const other = await otherCompany(h, ['sms', 'whatsapp']);
  const sms = [await newChannel(h, other.companyId, 'B SMS Cobros', 'sms'), await newChannel(h, other.companyId, 'B SMS Alertas', 'sms')];
  const whatsapp = await newChannel(h, other.companyId, 'B WhatsApp', 'whatsapp');
  b = { ...other, sms, whatsapp };
  await insertMessages(h, other.companyId, [
    { account: sms[0], day: twoDaysAgo, hour: 9, state: 'delivered', status: 3, to: '+573001110001', latencyMs: 2000, cost: 2, parts: 2 },
    { account: sms[0], day: yesterday, hour: 10, state: 'failed', status: 99, to: '+573101110002' },
    { account: sms[0], day: yesterday, hour: 10, state: 'rejected', status: 5, to: '+573151110003' },
    { account: sms[1], day: yesterday, hour: 23, state: 'delivered', status: 3, to: '+573201110004', network: '732123', latencyMs: 70_000 },
    { account: sms[1], day: yesterday, hour: 12, state: 'queued', status: 1, to: '+573501110005' },
    { account: whatsapp, day: yesterday, hour: 12, state: 'delivered', status: 3, to: '+573001110006' },
  ]);
  // The demo company's own SMS traffic, on an account of its own.
  demoSms = [await newChannel(h, demo, 'Demo SMS Reportes', 'sms')];
  await insertMessages(h, demo, [
    { account: demoSms[0], day: yesterday, hour: 8, state: 'delivered', status: 3, to: '+573001119001', latencyMs: 1000 },
    { account: demoSms[0], day: yesterday, hour: 8, state: 'delivered', status: 3, to: '+573001119002', latencyMs: 1000 },
  ]);
}, 180_000);

const report = (body: Record<string, unknown>, token = tokens.platform) => h.op('platformReports.reportsSms', { token, params: { product: 'colibri' }, body });
const smsAccountsOf = async (companyId: number) => (await h.db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('platform', '=', 'sms').orderBy('id').execute()).map((c) => c.id);

/** What the report center answers the company itself (its token) over the given accounts. */
async function reportCenterOf(token: string, accounts: number[], days: { DateStart: string; DateEnd: string }, level = 1) {
  const params = { product: 'colibri' };
  const summary = await h.op('reportCenter.getTransactionsSummary', { token, params, body: { ClientId: accounts, ...days, AggregationLevel: level } });
  const operators = await h.op('reportCenter.getOperatorsSummary', { token, params, body: { ClientsIds: accounts, ...days } });
  const states = await h.op('reportCenter.getTrafficByState', { token, params, body: { ClientsIds: accounts, ...days } });
  for (const res of [summary, operators, states]) expect(res.statusCode, res.body).toBe(200);
  return { ...summary.json(), operators: operators.json().items, states: states.json().states };
}

describe('staff read any company\'s SMS traffic', () => {
  it('company B\'s traffic is what B\'s own report center answers for the same days, at every level', async () => {
    const days = { DateStart: twoDaysAgo, DateEnd: today };
    for (const level of [1, 0, 2]) {
      const dayRange = level === 0 ? { DateStart: yesterday, DateEnd: yesterday } : days;
      const res = await report({ companyId: b.companyId, ...dayRange, AggregationLevel: level });
      expect(res.statusCode, res.body).toBe(200);
      const own = await reportCenterOf(b.token, await smsAccountsOf(b.companyId), dayRange, level);
      expect(res.json()).toEqual(own);
    }
  });

  it('counts B\'s SMS only: per day and account, the operators, the status codes and the totals', async () => {
    const body = (await report({ companyId: b.companyId, DateStart: twoDaysAgo, DateEnd: today })).json();
    expect(body.items.map((r: Record<string, unknown>) => [r.period, r.account, r.messages, r.delivered, r.failed, r.blocked, r.pending])).toEqual([
      [twoDaysAgo, 'B SMS Cobros', 1, 1, 0, 0, 0],
      [yesterday, 'B SMS Cobros', 2, 0, 1, 1, 0],
      [yesterday, 'B SMS Alertas', 2, 1, 0, 0, 1],
    ]);
    // The WhatsApp account's delivered message is not SMS traffic; the demo company's is not B's.
    expect(body.accounts.map((r: { account: string }) => r.account).sort()).toEqual(['B SMS Alertas', 'B SMS Cobros']);
    expect(body.totals).toMatchObject({ messages: 5, delivered: 2, failed: 1, blocked: 1, pending: 1, parts: 6, within3s: 1, over60s: 1 });
    expect(body.states.map((r: { statusCode: number; messages: number }) => [r.statusCode, r.messages]).sort()).toEqual([[1, 1], [3, 2], [5, 1], [99, 1]]);
    expect(body.operators.reduce((n: number, r: { messages: number }) => n + r.messages, 0)).toBe(5);
    expect(body.operators.find((r: { operator: string; basis: string }) => r.basis === 'network')).toMatchObject({ operator: 'Movistar', messages: 1 });
  });

  it('narrows to the named accounts, which must be B\'s SMS accounts (99961, every problem listed)', async () => {
    const one = (await report({ companyId: b.companyId, ClientsIds: [b.sms[1]], DateStart: twoDaysAgo, DateEnd: today })).json();
    expect(one.totals.messages).toBe(2);
    expect(one.accounts.map((r: { account: string }) => r.account)).toEqual(['B SMS Alertas']);
    const res = await report({ companyId: b.companyId, ClientsIds: [b.sms[0], b.whatsapp, demoSms[0]], DateStart: today, DateEnd: yesterday });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'ClientsIds', code: '99961' }),
      expect.objectContaining({ field: 'DateEnd', code: '99958' }),
    ]));
    // The refusal names the two accounts that are not B's SMS accounts, not B's own.
    expect(res.json().errors.find((e: { field: string }) => e.field === 'ClientsIds').message).toContain(`(${b.whatsapp}, ${demoSms[0]})`);
  });

  it('without a company, the staff member\'s own; a company without SMS accounts, an empty report; one that does not exist, 99959', async () => {
    const own = (await report({ DateStart: yesterday, DateEnd: yesterday })).json();
    expect(own).toEqual(await reportCenterOf(tokens.manager, await smsAccountsOf(demo), { DateStart: yesterday, DateEnd: yesterday }));
    expect(own.accounts.map((r: { account: string }) => r.account)).toContain('Demo SMS Reportes');
    const quiet = await otherCompany(h);
    const empty = await report({ companyId: quiet.companyId, DateStart: yesterday, DateEnd: today });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toMatchObject({ level: 1, items: [], accounts: [], operators: [], states: [], totals: { messages: 0 } });
    // Its days are still checked.
    expect((await report({ companyId: quiet.companyId, DateStart: today, DateEnd: yesterday })).json()).toMatchObject({ code: '99958' });
    const missing = await report({ companyId: 2_000_000_000, DateStart: yesterday, DateEnd: today });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('99959');
  });
});

describe('a company user reports on their own company only', () => {
  it('naming company B is refused with 99982, whoever they are; naming their own is fine', async () => {
    for (const token of [tokens.manager, (await h.as('develop')).token]) {
      const res = await report({ companyId: b.companyId, DateStart: twoDaysAgo, DateEnd: today }, token);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('99982');
    }
    // B's own user naming the demo company: the same refusal.
    expect((await report({ companyId: demo, DateStart: twoDaysAgo, DateEnd: today }, b.token)).json().code).toBe('99982');
    const named = await report({ companyId: demo, DateStart: yesterday, DateEnd: yesterday }, tokens.manager);
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().totals.messages).toBeGreaterThanOrEqual(2);
  });

  it('without a company, their own: B\'s user reads B, the demo manager reads the demo company', async () => {
    const days = { DateStart: twoDaysAgo, DateEnd: today };
    const mine = await report(days, b.token);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual(await reportCenterOf(b.token, b.sms, days));
    expect(mine.json().totals.messages).toBe(5);
    const demoOwn = (await report(days, tokens.manager)).json();
    expect(demoOwn).toEqual(await reportCenterOf(tokens.manager, await smsAccountsOf(demo), days));
    expect(demoOwn.accounts.map((r: { account: string }) => r.account)).not.toContain('B SMS Cobros');
  });

  it('needs the report center\'s report permission (component 40)', async () => {
    const viewer = await userWithGrants(h, [{ id: 40, actions: ['view'] }]);
    const res = await report({ DateStart: yesterday, DateEnd: today }, viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });
});

describe('days and periods, as every report', () => {
  it('refuses a day after today or before the history (99962), and too many hours (99962 on AggregationLevel)', async () => {
    const tomorrow = formatYmd(addDays(calendarDateOf(h.clock.now), 1));
    const late = await report({ companyId: b.companyId, DateStart: today, DateEnd: tomorrow });
    expect(late.json()).toMatchObject({ code: '99962', errors: [{ field: 'DateEnd', code: '99962' }] });
    const old = formatYmd(addDays(calendarDateOf(h.clock.now), -400));
    expect((await report({ companyId: b.companyId, DateStart: old, DateEnd: today, AggregationLevel: 2 })).json().errors).toEqual([expect.objectContaining({ field: 'DateStart', code: '99962' })]);
    const hours = formatYmd(addDays(calendarDateOf(h.clock.now), -20));
    expect((await report({ companyId: b.companyId, DateStart: hours, DateEnd: today, AggregationLevel: 0 })).json().errors).toEqual([expect.objectContaining({ field: 'AggregationLevel', code: '99962' })]);
    expect((await report({ companyId: b.companyId, DateStart: 'ayer', DateEnd: today })).json().code).toBe('99931');
    expect((await report({ companyId: b.companyId, DateEnd: today })).json().code).toBe('99999');
  });
});
