// The OTP efficacy reports (POST /v1/reports/otpReports/…, /Reports/EfficacyOTP) on the database
// (PGlite, or PostgreSQL with DATABASE_URL): one purpose's delivery times from submit to receipt
// in spec 4's buckets (3 s for OTP, 5 s for transactional, 60 s), per day, in all, per operator
// and per status code, and delivered against failed per operator; other purposes never counted;
// the report center's validation; component 4006 for develop and admin only (config/menu.yaml).
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDateOf, formatYmd } from '../../src/core/bogota-time.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId } from './messaging-fixtures.ts';
import { insertMessages, newChannel } from './report-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'admin');
let account: number;
let yesterday: string;
let twoDaysAgo: string;

beforeAll(async () => {
  const companyId = await demoCompanyId(h);
  yesterday = formatYmd(addDays(calendarDateOf(h.clock.now), -1));
  twoDaysAgo = formatYmd(addDays(calendarDateOf(h.clock.now), -2));
  account = await newChannel(h, companyId, 'OTP');
  await insertMessages(h, companyId, [
    // OTP, two days ago: 1.5 s (Tigo by allocation), 4 s (Claro by its receipt), failed (Movistar).
    { account, day: twoDaysAgo, hour: 10, state: 'delivered', status: 3, to: '+573001110001', latencyMs: 1500, purpose: 'otp' },
    { account, day: twoDaysAgo, hour: 11, state: 'delivered', status: 3, to: '+573001110002', latencyMs: 4000, network: '732101', purpose: 'otp' },
    { account, day: twoDaysAgo, hour: 11, state: 'failed', status: 99, to: '+573151110003', purpose: 'otp' },
    // OTP, yesterday: 90 s (Tigo), 2 s (Tigo).
    { account, day: yesterday, hour: 7, state: 'delivered', status: 3, to: '+573011110004', latencyMs: 90_000, purpose: 'otp' },
    { account, day: yesterday, hour: 7, state: 'read', status: 3, to: '+573011110005', latencyMs: 2000, purpose: 'otp' },
    // Transactional and commercial traffic, which the OTP report never counts.
    { account, day: yesterday, hour: 9, state: 'delivered', status: 3, to: '+573001110006', latencyMs: 4500, purpose: 'transactional' },
    { account, day: yesterday, hour: 9, state: 'delivered', status: 3, to: '+573001110007', latencyMs: 500, purpose: 'commercial' },
  ]);
}, 180_000);

// Named `op` so that tests/server/coverage.test.ts sees which operations this file calls.
const op = (id: OperationId, body: Record<string, unknown>, token = tokens.admin) => h.op(id, { token, body });
const range = () => ({ ClientsIds: [account], DateStart: twoDaysAgo, DateEnd: yesterday });

describe('OTP efficacy', () => {
  it('GetTimesOtp: the whole range in one row, in spec 4\'s buckets', async () => {
    const res = await op('otpReports.getTimesOtp', range());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toHaveLength(1);
    expect(res.json().totals).toMatchObject({ messages: 5, delivered: 4, failed: 1, within3s: 2, within5s: 3, within60s: 3, over60s: 1, latencyAvgMs: Math.round((1500 + 4000 + 90_000 + 2000) / 4) });
  });

  it('GetTimesOtpByDay: per Bogotá day, in time order', async () => {
    const rows = (await op('otpReports.getTimesOtpByDay', range())).json().items.map((r: Record<string, unknown>) => [r.period, r.messages, r.within3s, r.over60s]);
    expect(rows).toEqual([[twoDaysAgo, 3, 1, 0], [yesterday, 2, 1, 1]]);
  });

  it('GetTimesOtpByOperator and GetSuccessByOperator: per operator and how it is known', async () => {
    const expected = ['Claro/network:1/1/0', 'Movistar/allocation:1/0/1', 'Tigo/allocation:3/3/0'];
    const rows = (answer: { items: Record<string, unknown>[] }) => answer.items.map((r) => `${r.operator}/${r.basis}:${r.messages}/${r.delivered}/${r.failed}`).sort();
    expect(rows((await op('otpReports.getTimesOtpByOperator', range())).json())).toEqual(expected);
    expect(rows((await op('otpReports.getSuccessByOperator', range())).json())).toEqual(expected);
  });

  it('GetTimesOtpByState: per status code', async () => {
    const rows = (await op('otpReports.getTimesOtpByState', range())).json().items.map((r: Record<string, unknown>) => [r.statusCode, r.messages]);
    expect(rows).toEqual([[3, 4], [99, 1]]);
  });

  it('Purpose transactional reads the transactional messages (their bucket is 5 s)', async () => {
    const totals = (await op('otpReports.getTimesOtp', { ...range(), Purpose: 'transactional' })).json().totals;
    expect(totals).toMatchObject({ messages: 1, within3s: 0, within5s: 1 });
  });

  it('validates like every report and answers an empty range with no rows', async () => {
    const bad = await op('otpReports.getTimesOtpByDay', { ClientsIds: [], DateStart: yesterday, DateEnd: twoDaysAgo });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { code: string }) => e.code).sort()).toEqual(['99958', '99961']);
    const empty = (await op('otpReports.getTimesOtp', { ClientsIds: [account], DateStart: formatYmd(addDays(calendarDateOf(h.clock.now), -30)), DateEnd: formatYmd(addDays(calendarDateOf(h.clock.now), -20)) })).json();
    expect(empty).toMatchObject({ items: [], totals: { messages: 0 } });
  });

  it('is for develop and admin (component 4006): a manager is refused', async () => {
    const manager = (await h.as('manager')).token;
    expect((await op('otpReports.getTimesOtp', range(), manager)).statusCode).toBe(403);
    const develop = (await h.as('develop')).token;
    expect((await op('otpReports.getTimesOtp', range(), develop)).statusCode).toBe(200);
  });
});
