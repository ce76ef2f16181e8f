// The sending history (GET /v1/deployments/history, /Campaigns/history) and the personalised
// campaign detail (GET /v1/campaigns/{id}/messages) on the database (PGlite, or PostgreSQL with
// DATABASE_URL): messages counted once per outcome, credits spent, totals and per-day counts,
// Bogotá day edges, filters, company scoping, permissions from config/menu.yaml, bad input, and the
// CSV/XLSX export of both screens (formula-safe).
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../src/console/app/i18n.ts';
import { buildExport } from '../../src/console/runtime/list/export.ts';
import type { ScreenColumn } from '../../src/console/runtime/screen-types.ts';
import { screen as historyScreen } from '../../src/generated/screen.campaignHistory.gen.ts';
import { screen as personalizedScreen } from '../../src/generated/screen.personalizedCampaignDetail.gen.ts';
import { calendarDate } from '../../src/core/date-range.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';
import { demoCompanyId, otherCompany, userWithGrants } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let companyId: number;
let smsChannelId: number;
let whatsappChannelId: number;
let today: string;

beforeAll(async () => {
  companyId = await demoCompanyId(h);
  const channels = (await h.op('channels.list', { token: tokens.manager, query: { pageSize: 200 } })).json();
  smsChannelId = channels.items.find((c: { platform: string; enabled: boolean }) => c.platform === 'sms' && c.enabled).id;
  whatsappChannelId = channels.items.find((c: { platform: string }) => c.platform === 'whatsapp').id;
  today = calendarDate(h.clock.now, 'America/Bogota');
});

const history = (query: Record<string, string | number>, token = tokens.manager) => h.op('deployments.history', { token, query });
const csv = (text: string) => multipart('file', 'clientes.csv', 'text/csv', Buffer.from(text, 'utf8'));

/** A campaign of the demo company made by direct insert (no file). */
async function campaignRow(name: string, kind = 'open', channelId = smsChannelId): Promise<number> {
  const r = await sql<{ id: number }>`insert into campaigns (company_id, name, kind, purpose, channel_id, content, created_at, updated_at)
    values (${companyId}, ${name}, ${kind}, 'transactional', ${channelId}, 'Hola', now(), now()) returning id`.execute(h.db);
  return r.rows[0]!.id;
}

interface Msg { state: string; sentAt?: Date | null; billed?: boolean; cost?: number; to?: string; createdAt?: Date }
/** A deployment with its messages by direct insert (the engine's own columns). */
async function deployment(o: { campaignId: number | null; channelId?: number; state?: string; startedAt?: Date | null; scheduledAt?: Date | null; createdAt: Date; company?: number; messages: Msg[] }): Promise<number> {
  const company = o.company ?? companyId;
  const d = await sql<{ id: string | number }>`insert into deployments (company_id, campaign_id, channel_id, state, purpose, scheduled_at, started_at, total, created_at, updated_at)
    values (${company}, ${o.campaignId}, ${o.channelId ?? smsChannelId}, ${o.state ?? 'completed'}, 'transactional', ${o.scheduledAt ?? null}, ${o.startedAt === undefined ? o.createdAt : o.startedAt}, ${o.messages.length}, ${o.createdAt}, ${o.createdAt}) returning id`.execute(h.db);
  const id = Number(d.rows[0]!.id);
  let i = 0;
  for (const m of o.messages) {
    const created = m.createdAt ?? o.createdAt;
    await sql`insert into messages (company_id, deployment_id, channel_id, source, purpose, to_number, body, cost, state, status_code, not_before, sent_at, billed, created_at, updated_at)
      values (${company}, ${id}, ${o.channelId ?? smsChannelId}, 'campaign', 'transactional', ${m.to ?? `+5730000${String(id).padStart(3, '0')}${String(i++).padStart(2, '0')}`}, 'Hola',
        ${m.cost ?? 1}, ${m.state}, 3, ${created}, ${m.sentAt ?? null}, ${m.billed ?? false}, ${created}, ${created})`.execute(h.db);
  }
  return id;
}

describe('sending history', () => {
  let campaignId: number;
  let deploymentId: number;

  it('counts each message of a launched campaign once, by outcome, with the credits spent', async () => {
    const created = (await h.op('campaigns.create', {
      token: tokens.manager,
      body: { name: 'Historial <b>Ana</b>', kind: 'open', purpose: 'transactional', channelId: smsChannelId, content: 'Hola {{nombre}}, tu saldo es {{saldo}} <b>COP</b>' },
    })).json();
    campaignId = created.id;
    const up = await h.op('campaigns.uploadRecipients', {
      token: tokens.manager, params: { id: campaignId },
      ...csv('telefono;nombre;saldo\n3001234601;Ana;1500\n3001234602;Luis;=1+1\n3001234603;Eva;20\n3001234604;Teo;30\n3001234605;Sol;40\n3001112233;Bloqueado;0\n'),
    });
    expect(up.statusCode).toBe(200);
    const launched = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaignId } })).json();
    deploymentId = launched.id;
    expect(launched).toMatchObject({ total: 6, counts: { queued: 5, rejected: 1 } });

    // What the engine and the receipts would have done: delivered, read, failed after it left,
    // refused by the provider, still awaiting a receipt; one stays queued; one was blocked (5).
    const at = new Date(h.clock.now.getTime() - 60_000);
    const set = async (to: string, state: string, sent: boolean) =>
      sql`update messages set state = ${state}, sent_at = ${sent ? at : null}, billed = ${sent}, done_at = ${at}, delivery_status = ${state === 'delivered' ? 'DELIVERED' : null}
          where deployment_id = ${deploymentId} and to_number = ${to}`.execute(h.db);
    await set('+573001234601', 'delivered', true);
    await set('+573001234602', 'read', true);
    await set('+573001234603', 'failed', true);
    await set('+573001234604', 'failed', false);
    await set('+573001234605', 'sent', true);
    const billed = await sql<{ s: string | number }>`select coalesce(sum(cost), 0) as s from messages where deployment_id = ${deploymentId} and billed`.execute(h.db);
    const credits = Number(billed.rows[0]!.s);
    expect(credits).toBeGreaterThanOrEqual(4);

    const res = await history({ dateStart: today, dateEnd: today, campaignId });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items).toEqual([expect.objectContaining({
      id: deploymentId, campaignId, campaignName: 'Historial <b>Ana</b>', platform: 'sms', kind: 'open', state: 'running', day: today,
      total: 6, accepted: 4, pending: 0, sent: 1, delivered: 2, failed: 2, blocked: 1, cancelled: 0, credits,
    })]);
    expect(body.totals).toEqual({ deployments: 1, total: 6, accepted: 4, pending: 0, sent: 1, delivered: 2, failed: 2, blocked: 1, cancelled: 0, credits });
    const perDay = Object.fromEntries(body.perDay.map((p: { outcome: string; messages: number }) => [p.outcome, p.messages]));
    expect(perDay).toEqual({ delivered: 2, failed: 2, sent: 1, blocked: 1 });
    expect(new Set(body.perDay.map((p: { day: string }) => p.day))).toEqual(new Set([today]));
    expect(body.truncated).toBe(false);

    // Cancelling what is left moves nothing already final; a new queued message counts pending.
    await sql`update messages set state = 'cancelled', sent_at = null, billed = false where deployment_id = ${deploymentId} and to_number = '+573001234605'`.execute(h.db);
    const after = (await history({ dateStart: today, dateEnd: today, campaignId })).json();
    expect(after.totals).toMatchObject({ total: 6, accepted: 3, sent: 0, cancelled: 1, delivered: 2, failed: 2, blocked: 1 });
  });

  it('takes Bogotá calendar days: a deployment at 23:59 belongs to that day, one at 00:00 to the next', async () => {
    const edge = await campaignRow('Borde de día');
    // 2026-03-10 04:59:59Z is 2026-03-09 23:59:59 in Bogotá (UTC−5); 05:00:00Z is 2026-03-10 00:00.
    const late = await deployment({ campaignId: edge, createdAt: new Date('2026-03-10T04:59:59Z'), messages: [{ state: 'delivered', sentAt: new Date('2026-03-10T04:59:59Z'), billed: true }] });
    const early = await deployment({ campaignId: edge, createdAt: new Date('2026-03-10T05:00:00Z'), messages: [{ state: 'failed' }, { state: 'rejected' }] });
    // Not started: its scheduled day counts (2026-03-11 Bogotá), not the day it was made.
    const scheduled = await deployment({ campaignId: edge, state: 'scheduled', startedAt: null, scheduledAt: new Date('2026-03-11T15:00:00Z'), createdAt: new Date('2026-03-09T15:00:00Z'), messages: [{ state: 'queued' }] });
    const ids = async (dateStart: string, dateEnd: string) => (await history({ dateStart, dateEnd, campaignId: edge })).json().items.map((r: { id: number }) => r.id);
    expect(await ids('2026-03-09', '2026-03-09')).toEqual([late]);
    expect(await ids('2026-03-10', '2026-03-10')).toEqual([early]);
    expect(await ids('2026-03-11', '2026-03-11')).toEqual([scheduled]);
    expect(await ids('2026-03-09', '2026-03-11')).toEqual([scheduled, early, late]); // newest first
    const day9 = (await history({ dateStart: '2026-03-09', dateEnd: '2026-03-09', campaignId: edge })).json();
    expect(day9.items[0]).toMatchObject({ day: '2026-03-09', delivered: 1, credits: 1 });
    expect(day9.perDay).toEqual([{ day: '2026-03-09', outcome: 'delivered', messages: 1 }]);
    expect((await history({ dateStart: '2026-03-10', dateEnd: '2026-03-10', campaignId: edge })).json().totals).toMatchObject({ deployments: 1, total: 2, failed: 1, blocked: 1, credits: 0 });
  });

  it('filters by campaign, channel type and state', async () => {
    const a = await campaignRow('Filtro SMS');
    const b = await campaignRow('Filtro WhatsApp', 'scheduled', whatsappChannelId);
    const at = new Date('2026-04-02T15:00:00Z');
    const sms = await deployment({ campaignId: a, createdAt: at, messages: [{ state: 'delivered', sentAt: at, billed: true }] });
    const wa = await deployment({ campaignId: b, channelId: whatsappChannelId, state: 'cancelled', createdAt: at, messages: [{ state: 'cancelled' }] });
    const day = { dateStart: '2026-04-02', dateEnd: '2026-04-02' };
    expect((await history(day)).json().items.map((r: { id: number }) => r.id).sort()).toEqual([sms, wa].sort());
    expect((await history({ ...day, platform: 'whatsapp' })).json().items).toEqual([expect.objectContaining({ id: wa, kind: 'scheduled', platform: 'whatsapp', cancelled: 1 })]);
    expect((await history({ ...day, state: 'completed' })).json().items.map((r: { id: number }) => r.id)).toEqual([sms]);
    expect((await history({ ...day, campaignId: b })).json().totals).toMatchObject({ deployments: 1, total: 1, cancelled: 1 });
    expect((await history({ ...day, campaignId: b, state: 'completed' })).json()).toMatchObject({ items: [], totals: { deployments: 0, total: 0, credits: 0 }, perDay: [] });
  });

  it('refuses bad input with the catalogue codes', async () => {
    const tomorrow = calendarDate(new Date(h.clock.now.getTime() + 86_400_000), 'America/Bogota');
    expect((await history({ dateEnd: today })).json()).toMatchObject({ code: '99999', errors: [{ field: 'dateStart' }] });
    expect((await history({})).json().errors.map((e: { field: string }) => e.field)).toEqual(['dateStart', 'dateEnd']);
    expect((await history({ dateStart: '2026-03-10', dateEnd: '2026-03-09' })).json().code).toBe('99958');
    expect((await history({ dateStart: today, dateEnd: tomorrow })).json().code).toBe('99962');
    expect((await history({ dateStart: '2024-01-01', dateEnd: '2025-06-01' })).json().code).toBe('99962'); // longer than reports.historyDays
    expect((await history({ dateStart: '2026-02-30', dateEnd: today })).json().code).toBe('99931');
    expect((await history({ dateStart: today, dateEnd: today, campaignId: 0 })).json().code).toBe('99931');
    expect((await history({ dateStart: today, dateEnd: today, platform: 'fax' })).json().code).toBe('99931');
    expect((await history({ dateStart: today, dateEnd: today, state: 'done' })).json().code).toBe('99931');
    expect((await h.op('deployments.history', { query: { dateStart: today, dateEnd: today } })).statusCode).toBe(401);
  });

  it('answers only the caller company’s deployments', async () => {
    const other = await otherCompany(h, ['sms']);
    const theirs = await history({ dateStart: today, dateEnd: today }, other.token);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json()).toMatchObject({ items: [], totals: { deployments: 0, total: 0 } });
    // Naming our campaign does not reach it either.
    expect((await history({ dateStart: today, dateEnd: today, campaignId }, other.token)).json().items).toEqual([]);
    expect((await h.op('campaigns.messages', { token: other.token, params: { id: campaignId } })).json().code).toBe('99959');
  });

  it('follows config/menu.yaml: every campaigns role reports (analista too); the report action is needed', async () => {
    const analista = (await h.as('analista')).token;
    const res = await history({ dateStart: today, dateEnd: today, campaignId }, analista);
    expect(res.statusCode).toBe(200);
    expect(res.json().items.map((r: { id: number }) => r.id)).toEqual([deploymentId]);
    expect((await h.op('campaigns.messages', { token: analista, params: { id: campaignId } })).statusCode).toBe(200);
    const viewOnly = await userWithGrants(h, [{ id: 20, actions: ['view'] }]);
    expect((await history({ dateStart: today, dateEnd: today }, viewOnly)).json().code).toBe('99982');
    expect((await h.op('campaigns.messages', { token: viewOnly, params: { id: campaignId } })).statusCode).toBe(200);
    const noCampaigns = await userWithGrants(h, [{ id: 2001, actions: ['view', 'report'] }]);
    expect((await history({ dateStart: today, dateEnd: today }, noCampaigns)).json().code).toBe('99982');
    expect((await h.op('campaigns.messages', { token: noCampaigns, params: { id: campaignId } })).json().code).toBe('99982');
  });

  it('exports the history as the screen shows it, formulas neutralised', async () => {
    const body = (await history({ dateStart: today, dateEnd: today, campaignId })).json();
    const t = i18n.getFixedT('es');
    const exists = (k: string) => i18n.exists(k, { lng: 'es' });
    const file = await buildExport('csv', historyScreen.exportName!, historyScreen.columns as unknown as ScreenColumn[], body.items, t, exists);
    const text = await file.blob.text();
    const [header, row] = text.replace(/^\ufeff/, '').trim().split('\r\n');
    expect(header).toContain(i18n.t('fields.creditsSpent', { lng: 'es' }));
    expect(row).toContain('Historial <b>Ana</b>');
    expect(row).toContain(i18n.t('enums.deployment-state.running', { lng: 'es' }));
    expect(file.fileName).toMatch(/^campaign-history.*\.csv$/);
    const xlsx = await buildExport('xlsx', historyScreen.exportName!, historyScreen.columns as unknown as ScreenColumn[], body.items, t, exists);
    expect(xlsx.blob.size).toBeGreaterThan(0);
  });
});

describe('personalised campaign detail', () => {
  let campaignId: number;

  beforeAll(async () => {
    const created = (await h.op('campaigns.create', {
      token: tokens.manager,
      body: { name: 'Personalizada', kind: 'open', purpose: 'transactional', channelId: smsChannelId, content: 'Hola {{nombre}}, debes {{monto}} <script>x</script>' },
    })).json();
    campaignId = created.id;
    await h.op('campaigns.uploadRecipients', {
      token: tokens.manager, params: { id: campaignId },
      ...csv('telefono,nombre,monto\n3001234701,Ana,100\n3001234702,Luis,=HYPERLINK("http://x")\n3001234703,Eva,300\n'),
    });
    const launched = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaignId } })).json();
    await sql`update messages set state = 'delivered', delivery_status = 'DELIVERED', sent_at = now(), billed = true where deployment_id = ${launched.id} and to_number = '+573001234701'`.execute(h.db);
  });

  it('lists each recipient’s message with the variables filled in, its state and status', async () => {
    const res = await h.op('campaigns.messages', { token: tokens.manager, params: { id: campaignId } });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.total).toBe(3);
    expect(page.items.map((m: { toNumber: string; body: string }) => [m.toNumber, m.body])).toEqual([
      ['+573001234701', 'Hola Ana, debes 100 <script>x</script>'],
      ['+573001234702', 'Hola Luis, debes =HYPERLINK("http://x") <script>x</script>'],
      ['+573001234703', 'Hola Eva, debes 300 <script>x</script>'],
    ]);
    expect(page.items[0]).toMatchObject({ state: 'delivered', deliveryStatus: 'DELIVERED', statusCode: expect.any(Number), sentAt: expect.any(String) });
    expect(page.items[1]).toMatchObject({ state: 'queued', deliveryStatus: null, sentAt: null });
  });

  it('pages, searches by number and filters by state', async () => {
    const page2 = (await h.op('campaigns.messages', { token: tokens.manager, params: { id: campaignId }, query: { pageSize: 2, page: 2 } })).json();
    expect(page2).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.items.map((m: { toNumber: string }) => m.toNumber)).toEqual(['+573001234703']);
    const found = (await h.op('campaigns.messages', { token: tokens.manager, params: { id: campaignId }, query: { q: '4702' } })).json();
    expect(found.items.map((m: { toNumber: string }) => m.toNumber)).toEqual(['+573001234702']);
    const delivered = (await h.op('campaigns.messages', { token: tokens.manager, params: { id: campaignId }, query: { state: 'delivered' } })).json();
    expect(delivered.items.map((m: { toNumber: string }) => m.toNumber)).toEqual(['+573001234701']);
    expect((await h.op('campaigns.messages', { token: tokens.manager, params: { id: campaignId }, query: { state: 'gone' } })).json().code).toBe('99931');
    expect((await h.op('campaigns.messages', { token: tokens.manager, params: { id: 999999 } })).json().code).toBe('99959');
  });

  it('exports the messages as text, formulas neutralised', async () => {
    const page = (await h.op('campaigns.messages', { token: tokens.manager, params: { id: campaignId } })).json();
    const t = i18n.getFixedT('es');
    const exists = (k: string) => i18n.exists(k, { lng: 'es' });
    const file = await buildExport('csv', personalizedScreen.exportName!, personalizedScreen.columns as unknown as ScreenColumn[], page.items, t, exists);
    const text = await file.blob.text();
    expect(text).toContain('Hola Ana, debes 100 <script>x</script>');
    // A body that would start a formula is written with a leading quote; here the formula is inside the text.
    expect(text).toContain('Hola Luis, debes =HYPERLINK(""http://x"") <script>x</script>');
    const formula = await buildExport('csv', 'x', personalizedScreen.columns as unknown as ScreenColumn[], [{ ...page.items[0], body: '=HYPERLINK("http://x")' }], t, exists);
    expect(await formula.blob.text()).toContain(`"'=HYPERLINK(""http://x"")"`);
  });

  it('exports as a Colombian opens it in Excel: \';\' between fields in Spanish, \',\' in English, and an XLSX with typed cells', async () => {
    const page = (await h.op('campaigns.messages', { token: tokens.manager, params: { id: campaignId } })).json();
    const columns = personalizedScreen.columns as unknown as ScreenColumn[];
    const spanishFile = await buildExport('csv', 'x', columns, page.items, i18n.getFixedT('es'), (k) => i18n.exists(k, { lng: 'es' }), 'es');
    // The UTF-8 byte order mark first: Excel reads the accents.
    expect([...new Uint8Array(await spanishFile.blob.arrayBuffer()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [esHeader] = (await spanishFile.blob.text()).replace(/^\ufeff/, '').split('\r\n');
    expect(esHeader.split(';')).toHaveLength(columns.length);
    const english = await (await buildExport('csv', 'x', columns, page.items, i18n.getFixedT('en'), (k) => i18n.exists(k, { lng: 'en' }), 'en')).blob.text();
    expect(english.replace(/^\ufeff/, '').split('\r\n')[0].split(',')).toHaveLength(columns.length);
    // The XLSX: the number as text without an apostrophe, the moment it was sent as a date cell in the spec's format.
    const xlsx = await buildExport('xlsx', 'x', columns, page.items, i18n.getFixedT('es'), (k) => i18n.exists(k, { lng: 'es' }), 'es');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsx.blob.arrayBuffer());
    const sheet = book.worksheets[0];
    const sentAt = columns.findIndex((c) => c.field === 'sentAt') + 1;
    const delivered = page.items.findIndex((m: { sentAt: string | null }) => m.sentAt !== null) + 2;
    expect(sheet.getCell(2, 1).value).toBe('+573001234701');
    expect(sheet.getCell(delivered, sentAt).value).toBeInstanceOf(Date);
    expect(sheet.getCell(delivered, sentAt).numFmt).toBe('yyyy/mm/dd h:mm AM/PM');
  });
});
