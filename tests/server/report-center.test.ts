// The report center's traffic calls behind /Reports/General (GetTransactionsSummary,
// GetOperatorsSummary, GetTrafficByState) on the database (PGlite, or PostgreSQL with
// DATABASE_URL): answers read from the rollups equal the counts of the messages inserted here,
// per period at every aggregation level (Bogotá days and hours), per account, per operator and
// how it is known (the receipt's serving network over the number's allocation), per status
// code; filters; company scoping; the validation of spec 5 with every problem listed; permissions.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDateOf, formatYmd } from '../../src/core/bogota-time.ts';
import { compactRollups } from '../../src/engine/lifecycle/rollups.ts';
import { readTrafficFrom } from '../../src/server/modules/reportCenter/traffic.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId, otherCompany, userWithGrants } from './messaging-fixtures.ts';
import { insertMessages, newChannel as channelOf, type Seed } from './report-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let companyId: number;
let accounts: number[];
let foreignAccount: number;
let yesterday: string;
let twoDaysAgo: string;
let today: string;

const seeds = (): Seed[] => [
  // Account A, two days ago: a delivered Tigo number (prefix 300), 2 s; a Claro-prefixed number ported to Movistar (the receipt says so), 4 s.
  { account: accounts[0], day: twoDaysAgo, hour: 9, state: 'delivered', status: 3, to: '+573001112233', cost: 2, parts: 2, latencyMs: 2000 },
  { account: accounts[0], day: twoDaysAgo, hour: 9, state: 'delivered', status: 3, to: '+573101112233', network: '732123', latencyMs: 4000 },
  // Account A, yesterday: failed, blocked (block list 5), a number outside every block, a receipt from a foreign network, 70 s.
  { account: accounts[0], day: yesterday, hour: 23, state: 'failed', status: 99, to: '+573151112233' },
  { account: accounts[0], day: yesterday, hour: 0, state: 'rejected', status: 5, to: '+573331112233' },
  { account: accounts[0], day: yesterday, hour: 0, state: 'read', status: 3, to: '+573501112233', network: '310260', latencyMs: 70_000 },
  // Account B, yesterday: three queued and one sent.
  { account: accounts[1], day: yesterday, hour: 12, state: 'queued', status: 1, to: '+573011112233' },
  { account: accounts[1], day: yesterday, hour: 12, state: 'queued', status: 1, to: '+573021112233' },
  { account: accounts[1], day: yesterday, hour: 12, state: 'queued', status: 1, to: '+573031112233' },
  { account: accounts[1], day: yesterday, hour: 13, state: 'sent', status: 1, to: '+573191112233' },
];

const newChannel = (company: number, name: string) => channelOf(h, company, name);
const insert = (company: number, seeds: Seed[]) => insertMessages(h, company, seeds);

beforeAll(async () => {
  companyId = await demoCompanyId(h);
  today = formatYmd(calendarDateOf(h.clock.now));
  yesterday = formatYmd(addDays(calendarDateOf(h.clock.now), -1));
  twoDaysAgo = formatYmd(addDays(calendarDateOf(h.clock.now), -2));
  accounts = [await newChannel(companyId, 'Reportes A'), await newChannel(companyId, 'Reportes B')];
  await insert(companyId, seeds());
  const other = await otherCompany(h, ['sms']);
  foreignAccount = await newChannel(other.companyId, 'Ajena');
  await insert(other.companyId, [{ account: foreignAccount, day: yesterday, hour: 12, state: 'delivered', status: 3, to: '+573001112299' }]);
  // Half of the traffic folded into the totals, half still in the deltas: reports read both.
  await compactRollups(h.db);
  await insert(companyId, [{ account: accounts[1], day: yesterday, hour: 13, state: 'delivered', status: 3, to: '+573121112233', latencyMs: 500 }]);
}, 180_000);

const summary = (body: Record<string, unknown>, token = tokens.manager) => h.op('reportCenter.getTransactionsSummary', { token, params: { product: 'colibri' }, body });
const operators = (body: Record<string, unknown>, token = tokens.manager) => h.op('reportCenter.getOperatorsSummary', { token, params: { product: 'colibri' }, body });
const byState = (body: Record<string, unknown>, token = tokens.manager) => h.op('reportCenter.getTrafficByState', { token, params: { product: 'colibri' }, body });
const traffic = (body: Record<string, unknown>, token = tokens.manager) => h.op('reportCenter.getTraffic', { token, params: { product: 'colibri' }, body });

describe('GetTransactionsSummary', () => {
  it('counts each message once per day and account, with totals, accounts biggest first and periods in time order', async () => {
    const res = await summary({ ClientId: accounts, DateStart: twoDaysAgo, DateEnd: today });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.level).toBe(1);
    const items = body.items.map((r: Record<string, unknown>) => [r.period, r.account, r.messages, r.delivered, r.failed, r.blocked, r.pending, r.sent]);
    expect(items).toEqual([
      [twoDaysAgo, 'Reportes A', 2, 2, 0, 0, 0, 0],
      [yesterday, 'Reportes A', 3, 1, 1, 1, 0, 0],
      [yesterday, 'Reportes B', 5, 1, 0, 0, 3, 1],
    ]);
    // Equal traffic: the account that comes first by id comes first.
    expect(body.accounts.map((r: { account: string; messages: number }) => [r.account, r.messages])).toEqual([['Reportes A', 5], ['Reportes B', 5]]);
    expect(body.periods.map((r: { period: string; messages: number }) => [r.period, r.messages])).toEqual([[twoDaysAgo, 2], [yesterday, 8]]);
    expect(body.totals).toMatchObject({ messages: 10, parts: 11, delivered: 4, failed: 1, blocked: 1, pending: 3, sent: 1, cancelled: 0, within3s: 2, within5s: 3, within60s: 3, over60s: 1 });
    // Credits are what was billed: every message but the blocked one (cost 2 + 8 × 1).
    expect(body.totals.credits).toBe(10);
    expect(body.totals.latencyAvgMs).toBe(Math.round((2000 + 4000 + 70_000 + 500) / 4));
  });

  it('groups by Bogotá hour, month and year at levels 0, 2 and 3', async () => {
    const hours = (await summary({ ClientId: [accounts[0]], DateStart: yesterday, DateEnd: yesterday, AggregationLevel: 0 })).json();
    expect(hours.periods.map((r: { period: string; messages: number }) => [r.period, r.messages])).toEqual([[`${yesterday} 00:00`, 2], [`${yesterday} 23:00`, 1]]);
    const months = (await summary({ ClientId: accounts, DateStart: twoDaysAgo, DateEnd: today, AggregationLevel: 2 })).json();
    expect(months.periods.reduce((n: number, r: { messages: number }) => n + r.messages, 0)).toBe(10);
    expect(months.periods.every((r: { period: string }) => /^\d{4}-\d{2}$/.test(r.period))).toBe(true);
    const years = (await summary({ ClientId: accounts, DateStart: twoDaysAgo, DateEnd: today, AggregationLevel: 3 })).json();
    expect(years.periods.every((r: { period: string }) => /^\d{4}$/.test(r.period))).toBe(true);
  });

  it('never counts a negative delivery time (a receipt stored a moment before its submit\'s answer)', async () => {
    const quick = await newChannel(companyId, 'Reportes recibo temprano');
    await insert(companyId, [{ account: quick, day: yesterday, hour: 8, state: 'delivered', status: 3, to: '+573001119999', latencyMs: -40 }]);
    const totals = (await summary({ ClientId: [quick], DateStart: yesterday, DateEnd: yesterday })).json().totals;
    expect(totals).toMatchObject({ latencyAvgMs: 0, within3s: 1, over60s: 0 });
  });

  it('answers zeros for an account without traffic, and never another company\'s', async () => {
    const quiet = await newChannel(companyId, 'Reportes sin tráfico');
    const res = await summary({ ClientId: [quiet], DateStart: twoDaysAgo, DateEnd: today });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ items: [], accounts: [], periods: [], totals: { messages: 0, credits: 0 } });
    const foreign = await summary({ ClientId: [accounts[0], foreignAccount], DateStart: twoDaysAgo, DateEnd: today });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: '99961', errors: [{ field: 'ClientId', code: '99961' }] });
  });
});

describe('the area', () => {
  it('is the sending team member\'s branch office, kept on each message: traffic per area, "none" for a member without one', async () => {
    const area = await h.db.insertInto('areas').values({ company_id: companyId, name: 'Sucursal Norte', picture_file: null, created_at: h.clock.now }).returning('id').executeTakeFirstOrThrow();
    const sender = await h.as('manager');
    await h.db.updateTable('users').set({ area_id: area.id }).where('id', '=', sender.session.idUser).execute();
    const send = (to: string) => h.op('messages.send', { token: sender.token, body: { channel: 'sms', to, text: 'Hola desde el norte', purpose: 'transactional' } });
    expect((await send('3007770001')).statusCode).toBe(200);
    expect((await send('3007770002')).statusCode).toBe(200);
    // The member moves to no area: what they send now has none; what they sent keeps the area.
    await h.db.updateTable('users').set({ area_id: null }).where('id', '=', sender.session.idUser).execute();
    expect((await send('3007770003')).statusCode).toBe(200);
    const sent = await h.db.selectFrom('messages').select(['channel_id', 'area_id', 'to_number']).where('to_number', 'like', '+57300777000%').orderBy('to_number').execute();
    expect(sent.map((m) => m.area_id)).toEqual([area.id, area.id, null]);
    const res = await summary({ ClientId: [sent[0].channel_id], DateStart: today, DateEnd: today });
    expect(res.statusCode, res.body).toBe(200);
    const areas = res.json().areas.map((r: { areaId: number; area: string | null; messages: number }) => [r.areaId, r.area, r.messages]);
    expect(areas).toContainEqual([area.id, 'Sucursal Norte', 2]);
    expect(areas.find((r: unknown[]) => r[0] === 0)?.[2]).toBeGreaterThanOrEqual(1);
    expect(areas.reduce((n: number, r: number[]) => n + r[2], 0)).toBe(res.json().totals.messages);
  });
});

describe('GetOperatorsSummary', () => {
  it('names the serving network when a receipt said it, else the allocation, else none', async () => {
    const res = await operators({ ClientsIds: accounts, DateStart: twoDaysAgo, DateEnd: today });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().items.map((r: Record<string, unknown>) => `${r.operator ?? '-'}/${r.basis}:${r.messages}`).sort();
    expect(rows).toEqual([
      '-/network:1', // 310260: a network abroad
      '-/none:1', // +57333…: outside every block, no receipt
      'Claro/allocation:1', // +57312…
      'Movistar/allocation:1', // +57315…
      'Movistar/network:1', // +57310… ported: the receipt said Movistar
      'Tigo/allocation:4', // +57300…, 301, 302, 303
      'Virgin Mobile/allocation:1', // +57319…
    ].sort());
    expect(res.json().totals.messages).toBe(10);
  });

  it('narrows to OperatorsNames (any case) and refuses a name it does not know', async () => {
    const res = await operators({ ClientsIds: accounts, OperatorsNames: ['movistar'], DateStart: twoDaysAgo, DateEnd: today });
    expect(res.json().items.map((r: { basis: string; messages: number }) => [r.basis, r.messages]).sort()).toEqual([['allocation', 1], ['network', 1]]);
    expect(res.json().totals.messages).toBe(2);
    const unknown = await operators({ ClientsIds: accounts, OperatorsNames: ['Movistar', 'Telecom Marte'], DateStart: twoDaysAgo, DateEnd: today });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([expect.objectContaining({ field: 'OperatorsNames', code: '99931' })]);
  });
});

describe('GetTrafficByState', () => {
  it('counts per status code and account, with the totals per code, and narrows to StatesIds', async () => {
    const res = await byState({ ClientsIds: accounts, DateStart: twoDaysAgo, DateEnd: today });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().states.map((r: { statusCode: number; messages: number }) => [r.statusCode, r.messages])).toEqual([[1, 4], [3, 4], [5, 1], [99, 1]]);
    expect(res.json().items.filter((r: { statusCode: number }) => r.statusCode === 3).map((r: { account: string; messages: number }) => [r.account, r.messages]).sort()).toEqual([['Reportes A', 3], ['Reportes B', 1]]);
    const narrowed = (await byState({ ClientsIds: accounts, StatesIds: [5, 99], DateStart: twoDaysAgo, DateEnd: today })).json();
    expect(narrowed.totals.messages).toBe(2);
  });
});

describe('messagesCountPerMonth', () => {
  const monthly = (body: Record<string, unknown>, token: string) => h.op('reportCenter.messagesCountPerMonth', { token, body });

  it('counts one account\'s messages per Bogotá month of the year, quiet months as zeros, optionally of one status code', async () => {
    const develop = (await h.as('develop')).token;
    const year = Number(yesterday.slice(0, 4));
    const res = await monthly({ clientId: accounts[0], year }, develop);
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json().items as { period: string; messages: number }[];
    // Every month from January (or the history's first) to this one when the year is this year.
    expect(items.every((r) => r.period.startsWith(`${year}-`))).toBe(true);
    expect(items.map((r) => r.period)).toEqual([...items.map((r) => r.period)].sort());
    const expected = new Map<string, number>();
    for (const s of seeds().filter((x) => x.account === accounts[0] && x.day.startsWith(`${year}-`))) expected.set(s.day.slice(0, 7), (expected.get(s.day.slice(0, 7)) ?? 0) + 1);
    for (const r of items) expect(r.messages, r.period).toBe(expected.get(r.period) ?? 0);
    expect(items.filter((r) => r.messages === 0).length).toBeGreaterThanOrEqual(items.length - expected.size);
    const success = (await monthly({ clientId: accounts[0], year, state: 3 }, develop)).json();
    expect(success.totals.messages).toBe(seeds().filter((x) => x.account === accounts[0] && x.status === 3 && x.day.startsWith(`${year}-`)).length);
    // Without a year: this year.
    expect((await monthly({ clientId: accounts[0] }, develop)).json().items.at(-1).period).toBe(today.slice(0, 7));
  });

  it('refuses a year to come, another company\'s account, and a role without the {product}Sms flag', async () => {
    const develop = (await h.as('develop')).token;
    const next = Number(today.slice(0, 4)) + 1;
    const future = await monthly({ clientId: accounts[0], year: next }, develop);
    expect(future.statusCode).toBe(400);
    expect(future.json().errors.map((e: { code: string }) => e.code)).toContain('99962');
    const foreign = await monthly({ clientId: foreignAccount }, develop);
    expect(foreign.json()).toMatchObject({ code: '99961', errors: [{ field: 'clientId', code: '99961' }] });
    expect((await monthly({ clientId: accounts[0] }, tokens.manager)).statusCode).toBe(403);
  });
});

describe('queryCallCenter', () => {
  const lookup = (body: Record<string, unknown>, token: string) => h.op('reportCenter.queryCallCenter', { token, body });

  it('shows one number\'s messages with the company, as people write the number, with the operator and why it did not go', async () => {
    const develop = (await h.as('develop')).token;
    const res = await lookup({ phone: '310 111 2233' }, develop);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ phone: '+573101112233', truncated: false });
    expect(res.json().items).toEqual([expect.objectContaining({ account: 'Reportes A', state: 'delivered', statusCode: 3, operator: 'Movistar', basis: 'network', body: 'hola', reason: null })]);
    const blocked = (await lookup({ phone: '+573331112233' }, develop)).json().items;
    expect(blocked).toEqual([expect.objectContaining({ state: 'rejected', operator: null, basis: 'none', credits: 0, reason: expect.objectContaining({ kind: 'blockList' }) })]);
    // Another company's message to a number is never shown; dates narrow the history.
    expect((await lookup({ phone: '3001112299' }, develop)).json().items).toEqual([]);
    expect((await lookup({ phone: '3101112233', DateStart: yesterday, DateEnd: today }, develop)).json().items).toEqual([]);
  });

  it('refuses no number (99960), a number that is not Colombian (99963), bad dates, and roles without the flag', async () => {
    const develop = (await h.as('develop')).token;
    expect((await lookup({ phone: '  ' }, develop)).json()).toMatchObject({ code: '99960', errors: [{ field: 'phone' }] });
    expect((await lookup({ phone: '12345' }, develop)).json()).toMatchObject({ code: '99963', errors: [{ field: 'phone' }] });
    expect((await lookup({ phone: '3001112233', DateStart: today, DateEnd: yesterday }, develop)).json().errors.map((e: { code: string }) => e.code)).toEqual(['99958']);
    expect((await lookup({ phone: '3001112233' }, tokens.manager)).statusCode).toBe(403);
  });
});

describe('GetTraffic (the grouping a report declares)', () => {
  type Row = Record<string, string | number | null>;
  const line = (r: Row, keys: string[]) => `${keys.map((k) => r[k] ?? '-').join('/')}:${r.messages}`;

  it('groups by operator and Bogotá hour: deliveries by operator and hour, which no fixed report answers', async () => {
    const res = await traffic({ ClientsIds: accounts, DateStart: yesterday, DateEnd: yesterday, GroupBy: ['operator', 'period'], AggregationLevel: 0 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.level).toBe(0);
    expect(body.items.map((r: Row) => line(r, ['operator', 'basis', 'period'])).sort()).toEqual([
      `-/network/${yesterday} 00:00:1`, // 310260: a network abroad
      `-/none/${yesterday} 00:00:1`, // +57333…: outside every block
      `Claro/allocation/${yesterday} 13:00:1`,
      `Movistar/allocation/${yesterday} 23:00:1`,
      `Tigo/allocation/${yesterday} 12:00:3`,
      `Virgin Mobile/allocation/${yesterday} 13:00:1`,
    ].sort());
    // Each row carries only the fields of its groups, and every measure.
    expect(Object.keys(body.items[0])).not.toContain('account');
    expect(body.items.find((r: Row) => r.operator === 'Claro')).toMatchObject({ delivered: 1, failed: 0, credits: 1 });
    expect(body.totals.messages).toBe(8);
  });

  it('orders by the groups in the order declared (periods in time order), or biggest first', async () => {
    const byKeys = (await traffic({ ClientsIds: accounts, DateStart: yesterday, DateEnd: yesterday, GroupBy: ['period', 'channel'], AggregationLevel: 0 })).json();
    expect(byKeys.items.map((r: Row) => line(r, ['period', 'platform']))).toEqual([
      `${yesterday} 00:00/sms:2`, `${yesterday} 12:00/sms:3`, `${yesterday} 13:00/sms:2`, `${yesterday} 23:00/sms:1`,
    ]);
    const bySize = (await traffic({ ClientsIds: accounts, DateStart: twoDaysAgo, DateEnd: today, GroupBy: ['state'], OrderBy: 'size' })).json();
    expect(bySize.items.map((r: Row) => line(r, ['statusCode']))).toEqual(['1:4', '3:4', '5:1', '99:1']);
    expect(bySize.level).toBeUndefined(); // no period grouped: no level
  });

  it('narrows like the fixed reports', async () => {
    const res = (await traffic({ ClientsIds: accounts, DateStart: twoDaysAgo, DateEnd: today, GroupBy: ['account'], OperatorsNames: ['tigo'], StatesIds: [1] })).json();
    expect(res.items.map((r: Row) => line(r, ['account']))).toEqual(['Reportes B:3']);
  });

  it('refuses groups one read cannot combine, beside every other problem, and unknown groups', async () => {
    const clash = await traffic({ ClientsIds: accounts, DateStart: today, DateEnd: yesterday, GroupBy: ['account', 'channel'] });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().errors.map((e: { field: string; code: string; message: string }) => `${e.field}:${e.code}`)).toEqual(['GroupBy:99931', 'DateEnd:99958']);
    expect(clash.json().errors[0].message).toContain('account + channel');
    const runs = await traffic({ ClientsIds: accounts, DateStart: yesterday, DateEnd: today, GroupBy: ['deployment', 'campaign'] });
    expect(runs.json().errors).toEqual([expect.objectContaining({ field: 'GroupBy', code: '99931' })]);
    for (const GroupBy of [['hour'], [], ['operator', 'operator']]) {
      const bad = await traffic({ ClientsIds: accounts, DateStart: yesterday, DateEnd: today, GroupBy });
      expect(bad.statusCode, JSON.stringify(GroupBy)).toBe(400);
      expect(['99999', '99931']).toContain(bad.json().code);
    }
    // The hour is the period at level 0, held to the granularity limit like every report by period.
    const long = await traffic({ ClientsIds: accounts, DateStart: formatYmd(addDays(calendarDateOf(h.clock.now), -20)), DateEnd: today, GroupBy: ['period'], AggregationLevel: 0 });
    expect(long.json().errors).toEqual([expect.objectContaining({ field: 'AggregationLevel', code: '99962' })]);
    // The same days without the period are not limited by it.
    expect((await traffic({ ClientsIds: accounts, DateStart: formatYmd(addDays(calendarDateOf(h.clock.now), -20)), DateEnd: today, GroupBy: ['operator'], AggregationLevel: 0 })).statusCode).toBe(200);
  });
});

describe('validation (spec 5) and access', () => {
  it('lists every problem at once: no account, end before start, a date after today', async () => {
    const tomorrow = formatYmd(addDays(calendarDateOf(h.clock.now), 1));
    const res = await operators({ ClientsIds: [], DateStart: tomorrow, DateEnd: yesterday });
    expect(res.statusCode).toBe(400);
    const codes = res.json().errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort();
    expect(codes).toEqual(['ClientsIds:99961', 'DateEnd:99958', 'DateStart:99962'].sort());
  });

  it('refuses more periods than the granularity limit and dates before the report history', async () => {
    const long = await summary({ ClientId: accounts, DateStart: formatYmd(addDays(calendarDateOf(h.clock.now), -20)), DateEnd: today, AggregationLevel: 0 });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual([expect.objectContaining({ field: 'AggregationLevel', code: '99962' })]);
    const old = await summary({ ClientId: accounts, DateStart: formatYmd(addDays(calendarDateOf(h.clock.now), -400)), DateEnd: today, AggregationLevel: 2 });
    expect(old.json().errors).toEqual([expect.objectContaining({ field: 'DateStart', code: '99962' })]);
  });

  it('refuses a malformed body with the catalogue code and never a 500', async () => {
    for (const body of [{ ClientId: 'todos', DateStart: yesterday, DateEnd: today }, { ClientId: accounts, DateStart: '2026-13-45', DateEnd: today }, { ClientId: [0], DateStart: yesterday, DateEnd: today }]) {
      const res = await summary(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(['99999', '99931']).toContain(res.json().code);
    }
  });

  it('needs the reports permission', async () => {
    const none = await userWithGrants(h, [{ id: 10, actions: ['view'] }]);
    expect((await summary({ ClientId: accounts, DateStart: yesterday, DateEnd: today }, none)).statusCode).toBe(403);
    const analyst = (await h.as('analista')).token;
    expect((await summary({ ClientId: accounts, DateStart: yesterday, DateEnd: today }, analyst)).statusCode).toBe(200);
  });

  it('offers every reader of the reports the company\'s accounts, even without the channels settings', async () => {
    for (const role of ['analista', 'develop', 'admin']) {
      const token = (await h.as(role)).token;
      const res = await h.op('reportCenter.getAccounts', { token });
      expect(res.statusCode, role).toBe(200);
      const names = res.json().map((a: { name: string }) => a.name);
      expect(names, role).toEqual(expect.arrayContaining(['Reportes A', 'Reportes B']));
      expect(names, role).not.toContain('Ajena');
    }
  });

  it('offers the operators and the SMS states for the filters', async () => {
    const ops = (await h.op('reportCenter.getOperators', { token: tokens.manager, params: { product: 'colibri' } })).json();
    expect(ops.map((o: { name: string }) => o.name)).toContain('Movistar');
    const states = (await h.op('reportCenter.getMessageStates', { token: tokens.manager, params: { product: 'colibri' } })).json();
    expect(states.find((s: { id: number }) => s.id === 3)).toBeTruthy();
  });
});

// Keeps the seeds honest: the messages are where the test thinks they are.
it('seeds sit in the rollups as raw rows do', async () => {
  const raw = await sql<{ n: number }>`select count(*)::int as n from messages where channel_id = any(${accounts}::int[])`.execute(h.db);
  expect(raw.rows[0].n).toBe(10);
});

// The benchmark's anchor asks each report's question of the raw rows (readTrafficFrom('raw')):
// the two must answer the same, or the benchmark would compare different work.
it('answers every traffic report the same from the raw rows as from the rollups', async () => {
  const asks = [
    () => summary({ ClientId: accounts, DateStart: twoDaysAgo, DateEnd: today, AggregationLevel: 0 }),
    () => operators({ ClientsIds: accounts, DateStart: twoDaysAgo, DateEnd: today }),
    () => byState({ ClientsIds: accounts, DateStart: twoDaysAgo, DateEnd: today }),
    () => traffic({ ClientsIds: accounts, DateStart: twoDaysAgo, DateEnd: today, GroupBy: ['operator', 'period', 'state'], AggregationLevel: 0 }),
    async () => h.op('otpReports.getTimesOtpByDay', { token: (await h.as('admin')).token, body: { ClientsIds: accounts, DateStart: twoDaysAgo, DateEnd: today } }),
  ];
  for (const ask of asks) {
    const rollups = await ask();
    expect(rollups.statusCode, rollups.body).toBe(200);
    readTrafficFrom('raw');
    try {
      expect((await ask()).json()).toEqual(rollups.json());
    } finally {
      readTrafficFrom('rollups');
    }
  }
  // And the raw side does read the raw rows: with this company's rollups gone (the file's last
  // test), the rollups say nothing and the raw rows still say ten.
  await sql`delete from message_rollup_totals where company_id = ${companyId}`.execute(h.db);
  await sql`delete from message_rollup_deltas where company_id = ${companyId}`.execute(h.db);
  await sql`delete from message_rollup_days where company_id = ${companyId}`.execute(h.db);
  const ask = async () => (await summary({ ClientId: accounts, DateStart: twoDaysAgo, DateEnd: today })).json().totals.messages;
  expect(await ask()).toBe(0);
  readTrafficFrom('raw');
  try {
    expect(await ask()).toBe(10);
  } finally {
    readTrafficFrom('rollups');
  }
});
