// Report files (generateReport, reportFileListByReportTypeId, linkDownloadFile and the signed
// download) on the database (PGlite, or PostgreSQL with DATABASE_URL) and a real folder: a request
// answers at once (enlist); the job writes the file in chunks through the real job runner; a step
// that died after writing is cut back, so no row is written twice; the file is ready with a BOM,
// Spanish titles and one row per message in scope; the link works without a session, for its
// file only, until it expires; another company's file is not found; the list shows each file's state.
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarDateOf, formatYmd, wallTimeOf } from '../../src/core/bogota-time.ts';
import { JobRunner } from '../../src/engine/jobs/runner.ts';
import { constants } from '../../src/generated/constants.gen.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { jobHandlers } from '../../src/server/messaging/jobs.ts';
import { reportFileStep } from '../../src/server/modules/reportCenter/report-files.ts';
import { fileHarness } from './file-harness.ts';
import { otherCompany } from './messaging-fixtures.ts';
import { insertMessages, newChannel, newRun } from './report-fixtures.ts';

const h = fileHarness();
let token: string;
let companyId: number;
let account: number;
let other: number;
let yesterday: string;
let today: string;
const product = { product: 'colibri' };

/** Runs every pending job to its end, report files three rows per step (and workbooks four rows a sheet). */
async function drain() {
  const deps = { db: h.db, now: () => h.clock.now, messaging: { sendWindow: companySendWindow(h.db), wake: () => {} }, storage: h.storage };
  await new JobRunner({ db: h.db, handlers: { ...jobHandlers(deps), reportFile: reportFileStep(deps, { chunkRows: 3, rowsPerSheet: 4 }) }, workerId: 'report-files-test', now: () => h.clock.now }).drain();
}

const request = (body: Record<string, unknown>, as = token) => h.op('reportCenter.generateReport', { token: as, params: product, body: { ReportsTypeId: 1, ...body } });
const link = (processId: number, as = token) => h.op('reportCenter.linkDownloadFile', { token: as, params: product, query: { processId } });

beforeAll(async () => {
  // Advanced queries (4010) are the develop and admin roles' (spec's menu).
  const mine = await otherCompany(h, ['sms'], ['superadmin', 'admin']);
  ({ companyId, token } = mine);
  // The dates are computed once here and the tests move the clock by minutes: a run that starts
  // in Bogotá's last hour of the day starts past its midnight instead (it failed at 23:50).
  const wall = wallTimeOf(h.clock.now);
  if (wall.hour === 23) h.clock.advance((60 - wall.minute + 30) * 60_000);
  today = formatYmd(calendarDateOf(h.clock.now));
  yesterday = formatYmd(addDays(calendarDateOf(h.clock.now), -1));
  account = await newChannel(h, companyId, 'Archivo Medellín', 'sms');
  other = await newChannel(h, companyId, 'Archivo otra cuenta', 'sms');
  await insertMessages(h, companyId, [
    ...Array.from({ length: 7 }, (_, i) => ({ account, day: yesterday, hour: 8 + i, state: i === 6 ? 'failed' : 'delivered', status: i === 6 ? 99 : 3, to: `+57300555000${i}`, latencyMs: 900 })),
    { account: other, day: yesterday, hour: 9, state: 'delivered', status: 3, to: '+573005559999' },
  ]);
}, 180_000);

describe('a requested report file', () => {
  it('is written in the language of whoever asked (Accept-Language): titles, states and sheets in English', async () => {
    const english = { 'accept-language': 'en-US,en;q=0.9,es;q=0.8' };
    const csv = (await h.op('reportCenter.generateReport', { token, params: product, headers: english, body: { ReportsTypeId: 1, ClientsIds: [account], DateStart: yesterday, DateEnd: today } })).json();
    const xlsx = (await h.op('reportCenter.generateReport', { token, params: product, headers: english, body: { ReportsTypeId: 1, ClientsIds: [account], DateStart: yesterday, DateEnd: today, format: 'xlsx' } })).json();
    // A language we do not have gives the default (Spanish).
    const other = (await h.op('reportCenter.generateReport', { token, params: product, headers: { 'accept-language': 'fr-FR, de;q=0.5' }, body: { ReportsTypeId: 2, DateStart: yesterday, DateEnd: today } })).json();
    await drain();
    const body = async (processId: number) => {
      const { url } = (await link(processId)).json();
      return h.app.inject({ method: 'GET', url });
    };
    const text = (await body(csv.processId)).body;
    expect(text.startsWith('\ufeffDate (Bogotá),Account,Number,State,Status code,Operator,Parts,Credits,Campaign,Deployment\r\n')).toBe(true);
    expect(text.split('\r\n').filter((l) => l.includes(',Delivered,'))).toHaveLength(6);
    expect(text).not.toContain('Entregado');
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await body(xlsx.processId)).rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0].name).toBe('messages');
    // Four rows a sheet here (drain): the next sheets are named and titled in English too.
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['messages', 'messages (2)']);
    const sheets = workbook.worksheets.map((w) => (w.getSheetValues() as unknown[][]).filter(Boolean).map((r) => r.slice(1)));
    for (const rows of sheets) expect(rows[0]).toEqual(['Date (Bogotá)', 'Account', 'Number', 'State', 'Status code', 'Operator', 'Parts', 'Credits', 'Campaign', 'Deployment']);
    expect(sheets.flatMap((rows) => rows.slice(1)).filter((r) => r[3] === 'Delivered')).toHaveLength(6);
    // A Spanish file separates its fields with ';', as Excel expects them in Colombia (the comma is the decimal mark).
    expect((await body(other.processId)).body.startsWith('\ufeffFecha (Bogotá);Usuario;IP;Método;Ruta')).toBe(true);
  });

  it('answers at once, is written in chunks by the job, and downloads through a signed link without a session', async () => {
    const res = await request({ ClientsIds: [account], DateStart: yesterday, DateEnd: today });
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json();
    expect(file).toMatchObject({ state: 'enlist', rows: 0, reportTypeId: 1, applicationId: 4, accountIds: [account], dateStart: yesterday });
    // Not ready yet: no link.
    expect((await link(file.processId)).json().code).toBe('99927');

    // A step that wrote and died before its commit: bytes beyond the recorded length.
    await h.storage.writeAt(`reports/${companyId}/${file.processId}.csv`, 0, Buffer.from('basura de un paso que murió\r\n'));
    await drain();

    const list = (await h.op('reportCenter.reportFileListByReportTypeId', { token, params: product, body: { applicationId: 4, ReportsTypeId: 1 } })).json();
    const ready = list.find((f: { processId: number }) => f.processId === file.processId);
    expect(ready).toMatchObject({ state: 'ready', rows: 7 });
    expect(ready.finishedAt).not.toBeNull();

    const signed = await link(file.processId);
    expect(signed.statusCode, signed.body).toBe(200);
    const { url, expiresAt } = signed.json();
    expect(new Date(expiresAt).getTime() - h.clock.now.getTime()).toBeLessThanOrEqual(15 * 60_000);
    // The link is the download operation's path with its expiry and signature, nothing else.
    const parsed = new URL(url, 'http://localhost');
    expect(parsed.pathname).toBe(`/v1/colibri/reportCenter/files/${file.processId}`);
    const download = await h.op('reportCenter.downloadReportFile', {
      params: { ...product, processId: file.processId }, query: { expires: parsed.searchParams.get('expires')!, signature: parsed.searchParams.get('signature')! },
    });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toContain('text/csv');
    expect(String(download.headers['content-disposition'])).toContain(`reporte-mensajes-${file.processId}`);
    const text = download.body;
    expect(text.startsWith('\ufeffFecha (Bogotá);Cuenta;Número;Estado;Código de estado;Operador;Partes;Créditos;Campaña;Envío\r\n')).toBe(true);
    expect(text).not.toContain('basura');
    const lines = text.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(7);
    expect(new Set(lines).size).toBe(7);
    expect(lines.filter((l) => l.includes(';Entregado;')).length).toBe(6);
    expect(lines.every((l) => l.includes('Archivo Medellín'))).toBe(true);
    expect(Number(ready.bytes)).toBe(Buffer.byteLength(text));
  });

  it('refuses an altered or expired link with one answer, and keeps a company\'s files its own', async () => {
    const file = (await request({ ClientsIds: [account, other], DateStart: yesterday, DateEnd: yesterday })).json();
    await drain();
    const { url } = (await link(file.processId)).json();
    expect((await h.app.inject({ method: 'GET', url })).body.split('\r\n').filter(Boolean)).toHaveLength(9);
    const altered = url.replace(/signature=./, (m: string) => (m.endsWith('A') ? `${m.slice(0, -1)}B` : `${m.slice(0, -1)}A`));
    expect((await h.app.inject({ method: 'GET', url: altered })).json().code).toBe('99982');
    // The same signature for another file.
    expect((await h.app.inject({ method: 'GET', url: url.replace(`/files/${file.processId}?`, `/files/${file.processId - 1}?`) })).json().code).toBe('99982');
    expect((await h.app.inject({ method: 'GET', url: url.replace(/expires=\d+/, 'expires=99999999999') })).json().code).toBe('99982');
    h.clock.advance(16 * 60_000);
    expect((await h.app.inject({ method: 'GET', url })).json().code).toBe('99982');
    // Another company: not found, and not in its list.
    const theirs = await otherCompany(h, ['sms'], ['superadmin', 'admin']);
    expect((await link(file.processId, theirs.token)).json().code).toBe('99959');
    expect((await h.op('reportCenter.reportFileListByReportTypeId', { token: theirs.token, params: product, body: { ReportsTypeId: 1 } })).json()).toEqual([]);
  });

  it('narrows the list to files about some accounts, and checks the request like every report', async () => {
    const mineOnly = (await h.op('reportCenter.reportFileListByReportTypeId', { token, params: product, body: { ReportsTypeId: 1, ClientsId: [other] } })).json();
    expect(mineOnly.length).toBeGreaterThanOrEqual(1);
    expect(mineOnly.every((f: { accountIds: number[] }) => f.accountIds.includes(other))).toBe(true);
    expect(mineOnly[0].accountIds).toContain(other);
    const bad = await request({ ClientsIds: [], DateStart: today, DateEnd: yesterday });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { code: string }) => e.code).sort()).toEqual(['99958', '99961']);
    // Log events (type 2) are the company's whole activity: no accounts to narrow by.
    expect((await request({ ClientsIds: [account], DateStart: yesterday, DateEnd: today, ReportsTypeId: 2 })).json()).toMatchObject({ code: '99931', errors: [{ field: 'ClientsIds' }] });
    expect((await request({ ClientsIds: [account], DateStart: yesterday, DateEnd: today, ReportsTypeId: 3 })).statusCode).toBe(400);
  });

  it('narrows a file to some campaigns or one run, the company\'s only', async () => {
    const { deploymentId, campaignId } = await newRun(h, companyId, account, 'Archivo campaña', h.clock.now);
    await insertMessages(h, companyId, [1, 2].map((i) => ({ account, day: today, hour: 0, state: 'delivered', status: 3, to: `+57300666000${i}`, deploymentId })));
    for (const narrow of [{ CampaignsIds: [campaignId] }, { DeploymentId: deploymentId }]) {
      const file = (await request({ ClientsIds: [account], DateStart: yesterday, DateEnd: today, ...narrow })).json();
      await drain();
      const { url } = (await link(file.processId)).json();
      const lines = (await h.app.inject({ method: 'GET', url })).body.trim().split('\r\n').slice(1);
      expect(lines, JSON.stringify(narrow)).toHaveLength(2);
      expect(lines.every((l) => l.includes('Archivo campaña'))).toBe(true);
    }
    const theirs = await otherCompany(h, ['sms'], ['superadmin', 'admin']);
    const foreignRun = await newRun(h, theirs.companyId, await newChannel(h, theirs.companyId, 'Ajena archivo', 'sms'), 'Ajena', h.clock.now);
    const refused = await request({ ClientsIds: [account], DateStart: yesterday, DateEnd: today, CampaignsIds: [foreignRun.campaignId], DeploymentId: foreignRun.deploymentId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([['CampaignsIds', '99931'], ['DeploymentId', '99931']]);
  });

  it('keeps only the kinds of message asked for (the spec\'s "transactions" filter); a log-event file takes none', async () => {
    const kinds = await newChannel(h, companyId, 'Archivo tipos', 'sms');
    await insertMessages(h, companyId, (['otp', 'transactional', 'commercial'] as const).map((purpose, i) => ({ account: kinds, day: today, hour: 0, state: 'delivered', status: 3, to: `+57300777000${i}`, purpose })));
    const numbersOf = async (transactions?: string[]) => {
      const file = (await request({ ClientsIds: [kinds], DateStart: yesterday, DateEnd: today, ...(transactions ? { Transactions: transactions } : {}) })).json();
      await drain();
      const { url } = (await link(file.processId)).json();
      return (await h.app.inject({ method: 'GET', url })).body.trim().split('\r\n').slice(1).map((l) => (l.split(';')[2] ?? l.split(',')[2]).replace(/^'/, '')).sort();
    };
    expect(await numbersOf()).toEqual(['+573007770000', '+573007770001', '+573007770002']);
    expect(await numbersOf(['otp', 'commercial'])).toEqual(['+573007770000', '+573007770002']);
    const refused = await request({ ReportsTypeId: 2, DateStart: yesterday, DateEnd: today, Transactions: ['otp'] });
    expect(refused.json().errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([['Transactions', '99931']]);
    expect((await request({ ClientsIds: [kinds], DateStart: yesterday, DateEnd: today, Transactions: ['sms'] })).json().code).toBe('99931');
  });

  it('lists the files for the console (list convention, newest first, by state) and offers the campaigns to narrow by', async () => {
    const page = await h.op('reportCenter.reportFiles', { token, params: product, query: { pageSize: 2 } });
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json();
    expect(body.items).toHaveLength(2);
    expect(body.total).toBeGreaterThanOrEqual(4);
    expect(body.items[0].processId).toBeGreaterThan(body.items[1].processId);
    const ready = (await h.op('reportCenter.reportFiles', { token, params: product, query: { state: 'ready' } })).json();
    expect(ready.items.length).toBeGreaterThan(0);
    expect(ready.items.every((f: { state: string }) => f.state === 'ready')).toBe(true);
    const campaigns = (await h.op('reportCenter.getCampaigns', { token, params: product })).json();
    expect(campaigns.map((c: { name: string }) => c.name)).toContain('Archivo campaña');
  });

  it(`a company with ${constants.reports.waitingFilesPerCompany} files still being written gets 99946 (queue error) for one more, even asked at once, until one is ready`, async () => {
    await drain();
    const limit = constants.reports.waitingFilesPerCompany;
    const before = await h.count('report_files');
    // Twice the limit, all at once: exactly the limit is taken, the rest wait their turn (the count is locked per company).
    const answers = await Promise.all(Array.from({ length: limit * 2 }, () => request({ ClientsIds: [account], DateStart: yesterday, DateEnd: today })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(limit);
    for (const refused of answers.filter((a) => a.statusCode !== 200)) expect([refused.statusCode, refused.json().code]).toEqual([503, '99946']);
    expect(await h.count('report_files')).toBe(before + limit);
    // Another company's requests are not held by this one's queue.
    expect((await request({ ReportsTypeId: 2, DateStart: yesterday, DateEnd: today }, (await otherCompany(h, ['sms'], ['admin'])).token)).statusCode).toBe(200);
    await drain();
    expect((await request({ ClientsIds: [account], DateStart: yesterday, DateEnd: today })).statusCode).toBe(200);
    await drain();
  });

  it('is the advanced queries\' (component 4010, the develop and admin roles), not every role that reads reports', async () => {
    const superadmin = (await otherCompany(h, ['sms'])).token;
    const refused = await request({ ReportsTypeId: 2, DateStart: yesterday, DateEnd: today }, superadmin);
    expect([refused.statusCode, refused.json().code]).toEqual([403, '99982']);
    expect((await h.op('reportCenter.reportFiles', { token: superadmin, params: product, query: {} })).json().code).toBe('99982');
    expect((await request({ ReportsTypeId: 2, DateStart: yesterday, DateEnd: today }, (await otherCompany(h, ['sms'], ['develop'])).token)).statusCode).toBe(200);
    await drain();
  });

  it('a file whose storage fails is marked error with its reason, never left waiting', async () => {
    const file = (await request({ ClientsIds: [account], DateStart: yesterday, DateEnd: today })).json();
    const deps = { db: h.db, now: () => h.clock.now, messaging: { sendWindow: companySendWindow(h.db), wake: () => {} }, storage: { ...h.storage, writeAt: async () => { throw new Error('disco lleno'); } } };
    await new JobRunner({ db: h.db, handlers: jobHandlers(deps), workerId: 'broken-disk', now: () => h.clock.now }).drain();
    const list = (await h.op('reportCenter.reportFileListByReportTypeId', { token, params: product, body: { ReportsTypeId: 1 } })).json();
    expect(list.find((f: { processId: number }) => f.processId === file.processId)).toMatchObject({ state: 'error', error: 'disco lleno' });
  });

  it('offers its packages, makes a batch\'s MT file, and the log-event files of the company only', async () => {
    const packages = (await h.op('reportCenter.getPackages', { token, params: product })).json();
    // Traffic: the messages (1) and a report screen's table (3, made by its schedule only: a request for it is refused).
    expect(packages).toEqual([{ packageId: 1, reportTypeIds: [1, 3] }, { packageId: 2, reportTypeIds: [2] }]);
    const screenTable = await h.op('reportCenter.generateReport', { token, params: product, body: { ReportsTypeId: 3, DateStart: '2026-01-01', DateEnd: '2026-01-01' } });
    expect(screenTable.statusCode).toBe(400);
    expect(screenTable.json().errors).toEqual([expect.objectContaining({ field: 'ReportsTypeId' })]);
    expect((await h.op('reportCenter.getReportsByPackageId', { token, params: product, body: { packageId: 2 } })).json()).toEqual([{ reportTypeId: 2, packageId: 2 }]);
    expect((await h.op('reportCenter.getReportsByPackageId', { token, params: product, body: { packageId: 9 } })).statusCode).toBe(400);

    // A batch: its account and its messages only.
    const { deploymentId } = await newRun(h, companyId, other, 'Lote', h.clock.now);
    await insertMessages(h, companyId, [{ account: other, day: today, hour: 0, state: 'delivered', status: 3, to: '+573006660099', deploymentId }]);
    const batch = await h.op('reportCenter.requestReportMtMessagesFromBatch', { token, params: product, body: { DeploymentId: deploymentId } });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json()).toMatchObject({ reportTypeId: 1, accountIds: [other], deploymentId, dateEnd: today, state: 'enlist' });
    await drain();
    const batchLines = (await h.app.inject({ method: 'GET', url: (await link(batch.json().processId)).json().url })).body.trim().split('\r\n').slice(1);
    expect(batchLines).toHaveLength(1);
    expect(batchLines[0]).toContain('+573006660099');
    const theirs = await otherCompany(h, ['sms'], ['superadmin', 'admin']);
    const foreignRun = await newRun(h, theirs.companyId, await newChannel(h, theirs.companyId, 'Ajena lote', 'sms'), 'Ajena', h.clock.now);
    expect((await h.op('reportCenter.requestReportMtMessagesFromBatch', { token, params: product, body: { DeploymentId: foreignRun.deploymentId } })).json()).toMatchObject({ code: '99931', errors: [{ field: 'DeploymentId' }] });

    // Log events: what people of the company did (these very calls are in the log).
    const asked = await h.op('reportCenter.getItLogEvent', { token, params: product, body: { DateStart: yesterday, DateEnd: today } });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ reportTypeId: 2, state: 'enlist', accountIds: [] });
    const id = asked.json().processId;
    expect((await h.op('reportCenter.getLinkDownloadLogEventFile', { token, params: { ...product, id } })).json().code).toBe('99927');
    await drain();
    const files = (await h.op('reportCenter.getItLogEventReportFileList', { token, params: product, body: { companyId } })).json();
    expect(files.map((f: { processId: number; state: string }) => [f.processId, f.state])).toContainEqual([id, 'ready']);
    expect(files.every((f: { reportTypeId: number }) => f.reportTypeId === 2)).toBe(true);
    expect((await h.op('reportCenter.getItLogEventReportFileList', { token, params: product, body: { companyId: theirs.companyId } })).json()).toMatchObject({ code: '99961' });
    const signed = (await h.op('reportCenter.getLinkDownloadLogEventFile', { token, params: { ...product, id } })).json();
    const download = await h.app.inject({ method: 'GET', url: signed.url });
    expect(download.statusCode, download.body).toBe(200);
    expect(String(download.headers['content-disposition'])).toContain(`eventos-registro-${id}-`);
    expect(download.body.startsWith('\ufeffFecha (Bogotá);Usuario;IP;Método;Ruta;Operación;Componente;Nombre del componente;Acción;Estado HTTP\r\n')).toBe(true);
    expect(download.body).toContain('requestReportMtMessagesFromBatch');
    // Another company sees neither the file nor its link.
    expect((await h.op('reportCenter.getLinkDownloadLogEventFile', { token: theirs.token, params: { ...product, id } })).json().code).toBe('99959');
    expect((await h.op('reportCenter.getItLogEventReportFileList', { token: theirs.token, params: product, body: {} })).json()).toEqual([]);
    // A messages file is not a log-event file.
    expect((await h.op('reportCenter.getLinkDownloadLogEventFile', { token, params: { ...product, id: batch.json().processId } })).json().code).toBe('99959');
  });

  it('writes an Excel workbook when asked (format xlsx): a new sheet when one is full, rewritten whole after a step that died', async () => {
    const book = await newChannel(h, companyId, 'Libro', 'sms');
    await insertMessages(h, companyId, Array.from({ length: 6 }, (_, i) => ({ account: book, day: yesterday, hour: 8 + i, state: 'delivered', status: 3, to: `+57300777000${i}`, cost: i + 1 })));
    const file = (await request({ ClientsIds: [book], DateStart: yesterday, DateEnd: today, format: 'xlsx' })).json();
    expect(file).toMatchObject({ format: 'xlsx', state: 'enlist' });
    // A step that died half-way through the workbook left bytes behind.
    await h.storage.writeAt(`reports/${companyId}/${file.processId}.xlsx`, 0, Buffer.from('PK basura'));
    await drain();
    const { url } = (await link(file.processId)).json();
    const download = await h.app.inject({ method: 'GET', url });
    expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
    expect(download.headers['content-type']).toContain('spreadsheetml');
    expect(String(download.headers['content-disposition'])).toMatch(new RegExp(`reporte-mensajes-${file.processId}-\\d{4}-\\d{2}-\\d{2}\\.xlsx`));
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['mensajes', 'mensajes (2)']);
    const rowsOf = (i: number) => (workbook.worksheets[i].getSheetValues() as unknown[][]).filter(Boolean).map((r) => r.slice(1));
    const [first, second] = [rowsOf(0), rowsOf(1)];
    expect(first[0]).toEqual(['Fecha (Bogotá)', 'Cuenta', 'Número', 'Estado', 'Código de estado', 'Operador', 'Partes', 'Créditos', 'Campaña', 'Envío']);
    expect(second[0]).toEqual(first[0]);
    const data = [...first.slice(1), ...second.slice(1)];
    // Text that starts like a formula carries the exports' apostrophe (core/export-safety.ts).
    expect(data.map((r) => r[2])).toEqual(Array.from({ length: 6 }, (_, i) => `'+57300777000${i}`));
    // Numbers stay numbers (credits), the state in Spanish.
    expect(data.map((r) => r[7])).toEqual([1, 2, 3, 4, 5, 6]);
    expect(data[0][3]).toBe('Entregado');
    const listed = (await h.op('reportCenter.reportFiles', { token, params: product, query: {} })).json().items.find((f: { processId: number }) => f.processId === file.processId);
    expect(listed).toMatchObject({ state: 'ready', rows: 6, format: 'xlsx' });
  });
});
