// The report center's deployments, campaigns, WhatsApp and RCS reports (/Reports/Deployments,
// /Reports/Campaign, /Reports/WhatsApp, /Reports/RCS) on the database (PGlite, or PostgreSQL with
// DATABASE_URL): each run with its campaign and traffic, or one run by its id (spec 5: an id or
// both dates); each campaign with every run together; one platform's accounts per period with
// read receipts apart and the error codes of what failed (131047: outside the 24-hour window).
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDateOf, formatYmd, instantOf, parseYmd } from '../../src/core/bogota-time.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId, otherCompany } from './messaging-fixtures.ts';
import { insertMessages, newChannel, newRun } from './report-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'admin');
let sms: number;
let whatsapp: number;
let rcs: number;
let runs: { first: number; second: number; whatsapp: number; foreign: number };
let yesterday: string;
let today: string;

beforeAll(async () => {
  const companyId = await demoCompanyId(h);
  today = formatYmd(calendarDateOf(h.clock.now));
  yesterday = formatYmd(addDays(calendarDateOf(h.clock.now), -1));
  sms = await newChannel(h, companyId, 'Corridas SMS');
  whatsapp = await newChannel(h, companyId, 'Corridas WhatsApp', 'whatsapp');
  rcs = await newChannel(h, companyId, 'Corridas RCS', 'rcs');
  const at = (hour: number) => instantOf({ ...parseYmd(yesterday), hour, minute: 0, second: 0 });
  const first = await newRun(h, companyId, sms, 'Promo noviembre', at(9));
  const second = await newRun(h, companyId, sms, first.campaignId, at(15));
  const other = await newRun(h, companyId, whatsapp, 'Cobranza', at(10));
  await insertMessages(h, companyId, [
    { account: sms, day: yesterday, hour: 9, state: 'delivered', status: 3, to: '+573001230001', deploymentId: first.deploymentId },
    { account: sms, day: yesterday, hour: 9, state: 'failed', status: 99, to: '+573001230002', deploymentId: first.deploymentId, errorCode: '001' },
    { account: sms, day: yesterday, hour: 15, state: 'delivered', status: 3, to: '+573001230003', deploymentId: second.deploymentId },
    // An API message: no run, no campaign.
    { account: sms, day: yesterday, hour: 16, state: 'delivered', status: 3, to: '+573001230004' },
    { account: whatsapp, day: yesterday, hour: 10, state: 'read', status: 3, to: '+573001230005', deploymentId: other.deploymentId },
    { account: whatsapp, day: yesterday, hour: 10, state: 'delivered', status: 3, to: '+573001230006', deploymentId: other.deploymentId },
    { account: whatsapp, day: yesterday, hour: 10, state: 'failed', status: 99, to: '+573001230007', deploymentId: other.deploymentId, errorCode: '131047' },
    { account: whatsapp, day: yesterday, hour: 11, state: 'failed', status: 99, to: '+573001230008', errorCode: '131047' },
    { account: rcs, day: yesterday, hour: 12, state: 'read', status: 3, to: '+573001230009' },
  ]);
  const stranger = await otherCompany(h, ['sms']);
  const strangerAccount = await newChannel(h, stranger.companyId, 'Ajena');
  runs = { first: first.deploymentId, second: second.deploymentId, whatsapp: other.deploymentId, foreign: (await newRun(h, stranger.companyId, strangerAccount, 'Ajena', at(9))).deploymentId };
}, 180_000);

const op = (id: 'reportCenter.getDeploymentsSummary' | 'reportCenter.getCampaignsSummary' | 'reportCenter.getWhatsAppTraffic' | 'reportCenter.getRcsTraffic', body: Record<string, unknown>, token = tokens.admin) => h.op(id, { token, body });

describe('GetDeploymentsSummary', () => {
  it('lists each run of the accounts with its campaign and traffic, newest first; API messages are no run', async () => {
    const res = await op('reportCenter.getDeploymentsSummary', { ClientsIds: [sms, whatsapp], DateStart: yesterday, DateEnd: today });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().items.map((r: Record<string, unknown>) => [r.deploymentId, r.campaign, r.messages, r.delivered, r.failed]);
    expect(rows).toEqual([[runs.second, 'Promo noviembre', 1, 1, 0], [runs.whatsapp, 'Cobranza', 3, 2, 1], [runs.first, 'Promo noviembre', 2, 1, 1]]);
    expect(res.json().totals.messages).toBe(6);
    expect(res.json().items[0].deployedAt).toBe(`${yesterday} 15:00`);
  });

  it('answers one run by its id, without accounts or dates; another company\'s run is not found', async () => {
    const one = (await op('reportCenter.getDeploymentsSummary', { DeploymentId: runs.first })).json();
    expect(one.items.map((r: Record<string, unknown>) => [r.deploymentId, r.messages])).toEqual([[runs.first, 2]]);
    expect(one.states.map((r: Record<string, unknown>) => [r.statusCode, r.messages]).sort()).toEqual([[3, 1], [99, 1]]);
    const foreign = await op('reportCenter.getDeploymentsSummary', { DeploymentId: runs.foreign });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('99959');
  });

  it('needs an id or both dates (spec 5)', async () => {
    const res = await op('reportCenter.getDeploymentsSummary', { ClientsIds: [sms], DateStart: yesterday });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'DateEnd', code: '99999' })]);
  });
});

describe('GetCampaignsSummary', () => {
  it('adds every run of a campaign together, and leaves the API out', async () => {
    const develop = (await h.as('develop')).token;
    const res = await op('reportCenter.getCampaignsSummary', { ClientsIds: [sms, whatsapp], DateStart: yesterday, DateEnd: today }, develop);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((r: Record<string, unknown>) => [r.campaign, r.messages])).toEqual([['Promo noviembre', 3], ['Cobranza', 3]]); // equal: the older campaign first
    // /Reports/Campaign is flagged develop: an admin without the flag is refused.
    expect((await op('reportCenter.getCampaignsSummary', { ClientsIds: [sms], DateStart: yesterday, DateEnd: today })).statusCode).toBe(403);
  });
});

describe('GetWhatsAppTraffic and GetRcsTraffic', () => {
  it('reads one platform: read receipts apart, and the error codes of what failed', async () => {
    const res = await op('reportCenter.getWhatsAppTraffic', { ClientsIds: [whatsapp], DateStart: yesterday, DateEnd: today });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().totals).toMatchObject({ messages: 4, delivered: 2, read: 1, failed: 2 });
    expect(res.json().errors.map((r: Record<string, unknown>) => [r.errorCode, r.failed])).toEqual([['131047', 2]]);
    const rcsReport = (await op('reportCenter.getRcsTraffic', { ClientsIds: [rcs], DateStart: yesterday, DateEnd: today })).json();
    expect(rcsReport.totals).toMatchObject({ messages: 1, read: 1, delivered: 1 });
  });

  it('refuses an account of another platform (99961)', async () => {
    const res = await op('reportCenter.getWhatsAppTraffic', { ClientsIds: [whatsapp, sms], DateStart: yesterday, DateEnd: today });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([expect.objectContaining({ field: 'ClientsIds', code: '99961' })]);
  });

  it('offers only that platform\'s accounts to its picker', async () => {
    const accounts = (await h.op('reportCenter.getAccounts', { token: tokens.admin, query: { platform: 'whatsapp' } })).json();
    expect(accounts.every((a: { platform: string }) => a.platform === 'whatsapp')).toBe(true);
    expect(accounts.map((a: { name: string }) => a.name)).toContain('Corridas WhatsApp');
  });
});
