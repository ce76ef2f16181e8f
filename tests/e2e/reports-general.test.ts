// /Reports/General in a real browser against the real product: the manager sends SMS through the
// API on the demo SMS channel; the engine delivers them over SMPP to the sandbox SMSC, whose
// receipts name each handset's serving network (it ports one number in eight). The manager then
// runs the report for today: the traffic per day and account with its totals and chart, the top
// accounts, the operators (the serving network as the receipts named it) and the states; a report
// without an account or with the end before the start shows the server's problems; the English
// screen says the same in English; axe finds no serious or critical violation in the results.
// /Reports/EfficacyOTP: an admin reads how fast the OTPs the manager sent arrived, and
// /Reports/SuccessReportMt the success rate of the SMS sent; a manager reads the billing board
// (/Reports/FactuDashboard) and downloads the server's Excel of it; a developer reads the WhatsApp
// report, a refused free text explained by Meta's code in words, and a manager the RCS report; a
// developer asks for a detailed report file (/Reports/AdvancedQueries) and downloads it.
// /Reports/QueryCallCenter and /Reports/MessagesCountPerMonth: a developer (the {product}Sms flag)
// looks up one number's history and an account's year, and finds a launched campaign's run in
// /Reports/Deployments (also by its number) and the campaign in /Reports/Campaign. A developer
// certifies the messages a number received (/Reports/Certificate), downloads the signed PDF from
// /Reports/ReportCertificates and checks it, and a visitor without an account verifies it at /verify/{id};
// a developer schedules a weekly report (/Reports/Scheduled), and schedules a report screen's table
// from the screen itself ("Programar este reporte").
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { calendarDate } from '../../src/core/date-range.ts';
import { verifyEd25519 } from '../../src/server/security/secrets.ts';
import { readPdf } from '../server/pdf-reader.ts';
import { newPage, productAndBrowser, sessionToken, signIn, downloaded } from './harness.ts';
import { api, notificationsChannel, seriousViolations, signedInPage } from './steps.ts';

const e2e = productAndBrowser();

async function chooseAccount(page: Page, label: RegExp, name: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** Signs `email` in, opens the report at `path` and runs it for today on the demo SMS account; answers the page and today. */
async function todaysReport(email: string, path: string, heading: string) {
  const { context, page } = await newPage(e2e.browser, e2e.product);
  await signIn(page, email);
  await page.goto(path);
  await page.getByRole('heading', { name: heading }).waitFor();
  const today = calendarDate(new Date(), 'America/Bogota');
  await page.getByLabel(/^Desde/).fill(today);
  await page.getByLabel(/^Hasta/).fill(today);
  await chooseAccount(page, /^Cuentas/, 'SMS Notificaciones');
  await page.getByRole('button', { name: 'Generar reporte' }).click();
  return { context, page, today };
}

/**
 * The manager's API session and the demo SMS channel, for the traffic a report then reads: `send`
 * posts messages and waits (with a deadline) until the SMSC's receipts made every one DELIVERED.
 */
async function asManager(): Promise<{ token: string; channelId: number; send: (body: Record<string, unknown>) => Promise<void>; close: () => Promise<void> }> {
  const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
  const token = await sessionToken(page);
  const channelId = await notificationsChannel(e2e.product, token);
  const send = async (body: Record<string, unknown>) => {
    const sent = (await api(e2e.product, token, 'POST', '/v1/messages', { channelId, ...body })) as { messages: { id: string }[] };
    await expect.poll(async () => {
      const states = await Promise.all(sent.messages.map((m) => api(e2e.product, token, 'GET', `/v1/messages/${m.id}`)));
      return states.filter((x) => x.state === 'delivered').length;
    }, { timeout: 60_000, interval: 500 }).toBe(sent.messages.length);
  };
  return { token, channelId, send, close: () => context.close() };
}

describe('traffic reports', () => {
  it('a manager sees today\'s traffic per day and account, per operator and per state, in Spanish and English', async () => {
    const manager = await asManager();
    await manager.send({ messages: Array.from({ length: 12 }, (_, i) => ({ to: `+57300${String(5550100 + i)}`, text: 'Colibri: su pedido va en camino' })) });
    await manager.close();
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');

    const today = calendarDate(new Date(), 'America/Bogota');
    await page.goto('/Reports/General');
    await page.getByRole('heading', { name: 'Reporte general' }).waitFor();

    // Without an account the form says so before anything is sent.
    await page.getByLabel(/^Desde/).fill(today);
    await page.getByLabel(/^Hasta/).fill(today);
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    await page.getByText('Elige al menos 1.').waitFor();

    await chooseAccount(page, /^Cuentas/, 'SMS Notificaciones');
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    const byDay = page.getByRole('table', { name: 'Reporte general' });
    const row = byDay.getByRole('row').filter({ hasText: 'SMS Notificaciones' });
    await row.waitFor();
    expect(await row.textContent()).toContain(today);
    const totals = page.getByRole('group', { name: 'Total' }).first();
    expect(await totals.textContent()).toMatch(/Entregados\s*\d/);
    const overTime = page.getByTestId('chart').first();
    await overTime.locator('svg.marks').waitFor({ timeout: 20_000 });
    // The legend names the outcomes in the user's language, never the raw values.
    expect(await overTime.textContent()).toContain('Entregados');
    expect(await overTime.textContent()).not.toContain('delivered');

    // The operators: these numbers were allocated to Tigo; the receipts name the serving network.
    const operators = page.getByRole('region', { name: 'Por operador' });
    await operators.getByRole('row').filter({ hasText: 'Red que lo atiende' }).first().waitFor();
    expect(await operators.getByRole('table').textContent()).toMatch(/Tigo|Claro|Movistar|WOM/);
    const states = page.getByRole('region', { name: 'Por estado' });
    await states.getByRole('row').filter({ hasText: 'SMS Notificaciones' }).first().waitFor();
    await page.getByRole('region', { name: 'Cuentas con más tráfico' }).getByRole('row').filter({ hasText: 'SMS Notificaciones' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The end before the start: the server's problem is shown, nothing else.
    const yesterday = calendarDate(new Date(Date.now() - 86_400_000), 'America/Bogota');
    await page.getByLabel(/^Hasta/).fill(yesterday);
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    await page.getByText(/fecha final|anterior/i).first().waitFor();

    // English.
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.reload();
    await page.getByRole('heading', { name: 'General report' }).waitFor();
    await page.getByLabel(/^From/).fill(today);
    await page.getByLabel(/^To/).fill(today);
    await chooseAccount(page, /^Accounts/, 'SMS Notificaciones');
    await page.getByRole('button', { name: /^(Run report|Generate report)$/ }).click();
    await page.getByRole('region', { name: 'By operator' }).getByRole('row').filter({ hasText: 'Serving network' }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('an admin reads how fast today\'s OTPs arrived: per day, overall, per operator, success and states', async () => {
    const manager = await asManager();
    await manager.send({ purpose: 'otp', messages: [1, 2, 3].map((i) => ({ to: `+57315555020${i}`, text: `Su código es 48${i}9` })) });
    await manager.close();

    const { context, page, today } = await todaysReport('admin@demo.colibri.co', '/Reports/EfficacyOTP', 'Eficacia de OTP');
    const perDay = page.getByRole('table', { name: 'Eficacia de OTP' });
    await perDay.getByRole('row').filter({ hasText: today }).waitFor();
    expect(await page.getByRole('group', { name: 'Total' }).first().textContent()).toMatch(/Mensajes\s*3/);
    await page.getByRole('region', { name: 'En todo el periodo' }).getByRole('table').waitFor();
    await page.getByRole('region', { name: 'Tiempos por operador' }).getByRole('row').filter({ hasText: /Movistar|Claro|Tigo|WOM/ }).first().waitFor();
    await page.getByRole('region', { name: 'Éxito por operador' }).getByRole('table').waitFor();
    await page.getByRole('region', { name: 'Por estado' }).getByRole('row').filter({ hasText: 'Éxito' }).waitFor();
    const chart = page.getByTestId('chart').first();
    await chart.locator('svg.marks').waitFor({ timeout: 20_000 });
    expect(await chart.textContent()).toContain('Entregados en ≤ 3 s');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('an admin reads the success of the SMS sent: the rate per day and account, in Spanish and English', async () => {
    const manager = await asManager();
    await manager.send({ messages: [1, 2].map((i) => ({ to: `+57316555030${i}`, text: `Su pedido ${i} va en camino` })) });
    await manager.close();

    const { context, page, today } = await todaysReport('admin@demo.colibri.co', '/Reports/SuccessReportMt', 'Éxito de los SMS enviados');
    const table = page.getByRole('table', { name: 'Éxito de los SMS enviados' });
    const row = table.getByRole('row').filter({ hasText: today }).filter({ hasText: 'SMS Notificaciones' });
    await row.waitFor();
    // Every message the sandbox delivered: 100 % of what the network told.
    expect(await row.textContent()).toMatch(/100/);
    expect(await page.getByRole('columnheader', { name: 'Éxito (%)' }).count()).toBe(1);
    await page.getByTestId('chart').first().locator('svg.marks').waitFor({ timeout: 20_000 });
    expect(await seriousViolations(page)).toEqual([]);

    // English: the same report, the rate's column and the errors' part named in English.
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.reload();
    await page.getByRole('heading', { name: 'Success of the SMS sent' }).waitFor();
    await page.getByLabel(/^From/).fill(today);
    await page.getByLabel(/^To/).fill(today);
    await chooseAccount(page, /^Accounts/, 'SMS Notificaciones');
    await page.getByRole('button', { name: /^(Run report|Generate report)$/ }).click();
    await page.getByRole('table', { name: 'Success of the SMS sent' }).getByRole('row').filter({ hasText: today }).first().waitFor();
    expect(await page.getByRole('columnheader', { name: 'Success (%)' }).count()).toBe(1);
    await page.getByRole('region', { name: 'Why they did not arrive' }).waitFor();
    await context.close();
  });

  it('a manager reads this month\'s billing board and downloads its Excel from the server', async () => {
    const manager = await asManager();
    await manager.send({ messages: [{ to: '+573165550401', text: 'Factura lista' }] });
    await manager.close();

    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/Reports/FactuDashboard');
    await page.getByRole('heading', { level: 1, name: 'Tablero de facturación' }).waitFor();
    const month = Number(calendarDate(new Date(), 'America/Bogota').slice(5, 7));
    await page.getByRole('combobox', { name: /^Mes/ }).click();
    const monthName = ['Enero', 'Febrero', 'Marzo', 'Abril', 'Mayo', 'Junio', 'Julio', 'Agosto', 'Septiembre', 'Octubre', 'Noviembre', 'Diciembre'][month - 1];
    await page.getByRole('option', { name: monthName, exact: true }).click();
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    const row = page.getByRole('table', { name: 'Tablero de facturación' }).getByRole('row').filter({ hasText: 'SMS Notificaciones' });
    await row.waitFor();
    expect(await row.textContent()).toContain('SMS');
    await page.getByRole('region', { name: 'Por tipo de canal' }).getByRole('table').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar Excel' }).click()]);
    expect(download.suggestedFilename()).toBe('tablero-facturacion.xlsx');
    const bytes = await downloaded(download);
    // An XLSX is a zip: it starts with "PK".
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('a developer reads the WhatsApp report: the template delivered, the free text refused with 1005 in words', async () => {
    const { context: sending, page: manager } = await newPage(e2e.browser, e2e.product);
    await signIn(manager, 'manager@demo.colibri.co', { lands: '**/User' });
    const token = await sessionToken(manager);
    const channels = (await api(e2e.product, token, 'GET', '/v1/channels?platform=whatsapp&pageSize=200')) as { items: { id: number; name: string }[] };
    const channelId = channels.items.find((c) => c.name === 'WhatsApp Atención')!.id;
    const sent = (await api(e2e.product, token, 'POST', '/v1/messages', {
      channelId,
      messages: [
        { to: '+573175550501', template: { name: 'colibri_aviso', language: 'es_CO', parameters: ['Ana', 'A-1'] } },
        // Free text to someone who never wrote: outside the 24-hour window, and no approved template reads as it (1005).
        { to: '+573175550502', text: 'Hola, ¿cómo vas?' },
      ],
    })) as { messages: { id: string }[] };
    await expect.poll(async () => {
      const states = await Promise.all(sent.messages.map((m) => api(e2e.product, token, 'GET', `/v1/messages/${m.id}`)));
      return states.map((x) => (x.state === 'read' ? 'delivered' : x.state)).join(',');
    }, { timeout: 60_000, interval: 500 }).toBe('delivered,failed');
    await sending.close();

    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'develop@demo.colibri.co');
    await page.goto('/Reports/WhatsApp');
    await page.getByRole('heading', { level: 1, name: 'Reporte de WhatsApp' }).waitFor();
    const today = calendarDate(new Date(), 'America/Bogota');
    await page.getByLabel(/^Desde/).fill(today);
    await page.getByLabel(/^Hasta/).fill(today);
    await chooseAccount(page, /^Cuentas/, 'WhatsApp Atención');
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    await page.getByRole('table', { name: 'Reporte de WhatsApp' }).getByRole('row').filter({ hasText: 'WhatsApp Atención' }).first().waitFor();
    const why = page.getByRole('region', { name: 'Por qué no salieron' });
    await why.getByRole('row').filter({ hasText: 'Pasaron más de 24 horas desde el último mensaje de la persona y ninguna plantilla aprobada coincide con el texto' }).waitFor();
    expect(await why.textContent()).not.toContain('1005');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('a manager reads the RCS report: the messages the RBM agent delivered', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const token = await sessionToken(page);
    const channels = (await api(e2e.product, token, 'GET', '/v1/channels?platform=rcs&pageSize=200')) as { items: { id: number; name: string }[] };
    const channelId = channels.items.find((c) => c.name === 'RCS Demo')!.id;
    const sent = (await api(e2e.product, token, 'POST', '/v1/messages', { channelId, messages: [1, 2].map((i) => ({ to: `+57318555060${i}`, text: `Tu pedido ${i} salió` })) })) as { messages: { id: string }[] };
    await expect.poll(async () => {
      const states = await Promise.all(sent.messages.map((m) => api(e2e.product, token, 'GET', `/v1/messages/${m.id}`)));
      return states.filter((x) => x.state === 'delivered' || x.state === 'read').length;
    }, { timeout: 60_000, interval: 500 }).toBe(2);

    await page.goto('/Reports/RCS');
    await page.getByRole('heading', { level: 1, name: 'Reporte de RCS' }).waitFor();
    const today = calendarDate(new Date(), 'America/Bogota');
    await page.getByLabel(/^Desde/).fill(today);
    await page.getByLabel(/^Hasta/).fill(today);
    await chooseAccount(page, /^Cuentas/, 'RCS Demo');
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    await page.getByRole('table', { name: 'Reporte de RCS' }).getByRole('row').filter({ hasText: 'RCS Demo' }).first().waitFor();
    expect(await page.getByRole('group', { name: 'Total' }).first().textContent()).toMatch(/Mensajes\s*\d/);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('a developer asks for a detailed report file, sees it prepared in the background and downloads it', async () => {
    const manager = await asManager();
    await manager.send({ messages: [1, 2, 3].map((i) => ({ to: `+57316555070${i}`, text: `Detalle ${i}` })) });
    await manager.close();

    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'develop@demo.colibri.co');
    await page.goto('/Reports/AdvancedQueries');
    await page.getByRole('heading', { level: 1, name: 'Consultas avanzadas' }).waitFor();
    await page.getByRole('link', { name: /^Nuevo/ }).or(page.getByRole('button', { name: /^Nuevo/ })).first().click();
    await page.getByRole('heading', { level: 1, name: 'Pedir un reporte detallado' }).waitFor();
    const today = calendarDate(new Date(), 'America/Bogota');
    await chooseAccount(page, /^Cuentas/, 'SMS Notificaciones');
    await page.getByLabel(/^Desde/).fill(today);
    await page.getByLabel(/^Hasta/).fill(today);
    await page.getByRole('button', { name: /^(Guardar|Crear|Enviar)/ }).first().click();
    await page.waitForURL(/\/Reports\/AdvancedQueries(\?.*)?$/);
    // The list refreshes while the file is prepared.
    const row = page.getByRole('row').filter({ hasText: 'Listo para descargar' }).first();
    await row.waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Descargar' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^reporte-mensajes-\d+-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await downloaded(download)).toString('utf8');
    // Spanish: ';' between fields, as Excel opens a CSV in Colombia.
    expect(text.startsWith('\ufeffFecha (Bogotá);Cuenta;Número;Estado')).toBe(true);
    for (const i of [1, 2, 3]) expect(text).toContain(`+57316555070${i}`);
    expect(await seriousViolations(page)).toEqual([]);

    // Log events: no accounts to choose; the file lists what people of the company did.
    await page.getByRole('link', { name: /^Nuevo/ }).or(page.getByRole('button', { name: /^Nuevo/ })).first().click();
    await page.getByRole('heading', { level: 1, name: 'Pedir un reporte detallado' }).waitFor();
    await page.getByRole('combobox', { name: /^Tipo de reporte/ }).click();
    await page.getByRole('option', { name: /^Eventos de registro/ }).click();
    await expect.poll(() => page.getByRole('combobox', { name: /^Cuentas/ }).count()).toBe(0);
    await page.getByLabel(/^Desde/).fill(today);
    await page.getByLabel(/^Hasta/).fill(today);
    await page.getByRole('button', { name: /^(Guardar|Crear|Enviar)/ }).first().click();
    await page.waitForURL(/\/Reports\/AdvancedQueries(\?.*)?$/);
    const logRow = page.getByRole('row').filter({ hasText: 'Eventos de registro' }).filter({ hasText: 'Listo para descargar' }).first();
    await logRow.waitFor({ timeout: 30_000 });
    const [logDownload] = await Promise.all([page.waitForEvent('download'), logRow.getByRole('button', { name: 'Descargar' }).click()]);
    expect(logDownload.suggestedFilename()).toMatch(/^eventos-registro-\d+-\d{4}-\d{2}-\d{2}\.csv$/);
    const log = (await downloaded(logDownload)).toString('utf8');
    expect(log.startsWith('\ufeffFecha (Bogotá);Usuario;IP;Método;Ruta')).toBe(true);
    expect(log).toContain('develop@demo.colibri.co');
    await context.close();
  });

  it('a platform developer looks up one number\'s history and an account\'s messages per month', async () => {
    const manager = await asManager();
    await manager.send({ to: '3185550300', text: 'Colibri: su cita es mañana a las 9' });
    await manager.close();

    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'develop@demo.colibri.co');
    await page.goto('/Reports/QueryCallCenter');
    await page.getByRole('heading', { name: 'Consulta de un número' }).waitFor();
    await page.getByLabel(/^Número de celular/).fill('318 555 0300');
    await page.getByRole('button', { name: 'Consultar' }).click();
    const row = page.getByRole('table', { name: 'Consulta de un número' }).getByRole('row').filter({ hasText: 'Colibri: su cita es mañana a las 9' });
    await row.waitFor();
    expect(await row.textContent()).toContain('SMS Notificaciones');
    expect(await row.textContent()).toContain('Entregado');
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto('/Reports/MessagesCountPerMonth');
    await page.getByRole('heading', { name: 'Mensajes por mes' }).first().waitFor();
    await page.getByRole('combobox', { name: /^Cuenta/ }).click();
    await page.getByRole('option', { name: 'SMS Notificaciones', exact: true }).click();
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    const month = calendarDate(new Date(), 'America/Bogota').slice(0, 7);
    const monthRow = page.getByRole('table', { name: 'Mensajes por mes' }).getByRole('row').filter({ hasText: month });
    await monthRow.waitFor();
    const chart = page.getByTestId('chart').first();
    await chart.locator('svg.marks').waitFor({ timeout: 20_000 });
    expect(await chart.textContent()).toContain('Entregados');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('a developer finds a launched campaign in the runs report, one run by its number, and in the campaign report', async () => {
    const manager = await asManager();
    const { token } = manager;
    const campaign = await api(e2e.product, token, 'POST', '/v1/campaigns', { name: 'Reporte de corridas e2e', kind: 'open', purpose: 'transactional', channelId: manager.channelId, content: 'Hola {{nombre}}' });
    const file = new FormData();
    file.append('file', new Blob(['telefono;nombre\n3165550401;Ana\n3165550402;Luis\n'], { type: 'text/csv' }), 'clientes.csv');
    const upload = await fetch(`${e2e.product.url}/v1/campaigns/${campaign.id}/recipients`, { method: 'POST', headers: { 'X-Auth-Token': token }, body: file });
    expect(upload.status).toBe(200);
    const run = await api(e2e.product, token, 'POST', `/v1/campaigns/${campaign.id}/launch`);
    await expect.poll(async () => {
      const d = await api(e2e.product, token, 'GET', `/v1/deployments/${run.id}`);
      return `${d.state} ${(d.counts as Record<string, number>).delivered}`;
    }, { timeout: 60_000, interval: 500 }).toBe('completed 2');
    await manager.close();

    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'develop@demo.colibri.co');
    const today = calendarDate(new Date(), 'America/Bogota');
    await page.goto('/Reports/Deployments');
    await page.getByRole('heading', { name: 'Reporte de ejecuciones' }).first().waitFor();
    await page.getByLabel(/^Desde/).fill(today);
    await page.getByLabel(/^Hasta/).fill(today);
    await chooseAccount(page, /^Cuentas/, 'SMS Notificaciones');
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    const runRow = page.getByRole('table', { name: 'Reporte de ejecuciones' }).getByRole('row').filter({ hasText: 'Reporte de corridas e2e' });
    await runRow.waitFor();
    expect(await runRow.textContent()).toContain(String(run.id));
    expect(await seriousViolations(page)).toEqual([]);
    // One run by its number: no accounts or dates needed.
    await page.reload();
    await page.getByLabel(/^Número de ejecución/).fill(String(run.id));
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    await page.getByRole('table', { name: 'Reporte de ejecuciones' }).getByRole('row').filter({ hasText: 'Reporte de corridas e2e' }).waitFor();

    await page.goto('/Reports/Campaign');
    await page.getByRole('heading', { name: 'Reporte por campaña' }).first().waitFor();
    await page.getByLabel(/^Desde/).fill(today);
    await page.getByLabel(/^Hasta/).fill(today);
    await chooseAccount(page, /^Cuentas/, 'SMS Notificaciones');
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    const campaignRow = page.getByRole('table', { name: 'Reporte por campaña' }).getByRole('row').filter({ hasText: 'Reporte de corridas e2e' });
    await campaignRow.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('a developer certifies the messages a number received, downloads the PDF, and anyone verifies it on the public page', async () => {
    const manager = await asManager();
    await manager.send({ to: '3185550400', text: 'Colibri: su pedido 4411 sale hoy' });
    await manager.close();

    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'develop@demo.colibri.co');
    await page.goto('/Reports/Certificate');
    await page.getByRole('heading', { level: 1, name: 'Certificados' }).waitFor();
    await page.getByLabel(/^Teléfono celular/).fill('318 555 0400');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Emitir certificado' }).click();
    await page.waitForURL(/\/Reports\/ReportCertificates(\?.*)?$/);
    const row = page.getByRole('row').filter({ hasText: '+573185550400' }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('Mensajes a un número');

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Descargar PDF' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^certificado-[0-9a-f-]{36}\.pdf$/);
    const bytes = await downloaded(download);
    const pdf = await readPdf(bytes);
    expect(pdf.text).toContain('Colibri: su pedido 4411 sale hoy');
    expect(pdf.text).toContain('Entregado al teléfono');
    const id = /Certificado: ([0-9a-f-]{36})/.exec(pdf.text)![1];
    expect(pdf.text).toContain(`${e2e.product.url}/verify/${id}`);
    const statement = pdf.attachments['certificate.json'];
    const printed = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(pdf.text)![1];
    expect(createHash('sha256').update(statement).digest('hex')).toBe(printed('SHA-256 de la declaración'));
    expect(verifyEd25519(printed('Llave pública'), printed('SHA-256 de la declaración'), printed('Firma Ed25519'))).toBe(true);
    // An independent PDF signature verifier (poppler's pdfsig) finds the whole document signed and the signature valid.
    const saved = join(mkdtempSync(join(tmpdir(), 'colibri-certificate-')), 'certificado.pdf');
    writeFileSync(saved, bytes);
    const report = spawnSync('pdfsig', [saved], { encoding: 'utf8' });
    expect(report.stdout).toContain('Signature Validation: Signature is Valid.');
    expect(report.stdout).toContain('Total document signed');
    expect(report.stdout).toContain('Colibri Mensajería S.A.S.');
    writeFileSync(saved, Buffer.concat([bytes, Buffer.from('\n%% agregado\n')]));
    expect(spawnSync('pdfsig', [saved], { encoding: 'utf8' }).stdout).toContain('Not total document signed');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    // The link printed on the PDF, opened by someone without an account.
    const visitor = await newPage(e2e.browser, e2e.product);
    await visitor.page.goto(`/verify/${id}`);
    await visitor.page.getByRole('heading', { level: 1, name: 'Verificación de certificado' }).waitFor();
    await visitor.page.getByText(/^Auténtico/).waitFor();
    expect(await visitor.page.textContent('main')).toContain('+573185550400');
    expect(await seriousViolations(visitor.page)).toEqual([]);
    // The file itself, uploaded: the PDF as downloaded is authentic and time-stamped…
    const upload = async (name: string, buffer: Buffer) => {
      const [chooser] = await Promise.all([visitor.page.waitForEvent('filechooser'), visitor.page.getByRole('button', { name: 'Verificar el archivo PDF' }).click()]);
      await chooser.setFiles({ name, mimeType: 'application/pdf', buffer });
    };
    await upload('certificado.pdf', bytes);
    await visitor.page.getByText('Auténtico: es el PDF que emitió la plataforma, firmado por ella, sin cambios').waitFor();
    await visitor.page.getByText('Un sello de tiempo prueba cuándo se firmó').waitFor();
    // …and a copy with content added after its signature is altered, saying so.
    await upload('certificado-editado.pdf', Buffer.concat([bytes, Buffer.from('\n%% anotación agregada\n%%EOF\n')]));
    await visitor.page.getByText('Alterado: el PDF fue emitido aquí pero cambió después de firmado').waitFor();
    await visitor.page.getByText('Se agregó contenido después de la firma').waitFor();
    expect(await seriousViolations(visitor.page)).toEqual([]);
    // An id nobody issued is refused in words, and the file can still be checked there.
    await visitor.page.goto('/verify/00000000-0000-4000-8000-000000000000');
    await visitor.page.getByRole('alert').filter({ hasText: 'Esta plataforma no emitió ningún certificado con este número' }).waitFor();
    await visitor.page.getByRole('button', { name: 'Verificar el archivo PDF' }).waitFor();
    await visitor.context.close();
  });

  it('a developer schedules a weekly report from the form: the day appears for weekly, the list shows the next run', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'develop@demo.colibri.co');
    await page.goto('/Reports/Scheduled');
    await page.getByRole('heading', { level: 1, name: 'Reportes programados' }).waitFor();
    await page.getByRole('link', { name: /^Nuevo/ }).or(page.getByRole('button', { name: /^Nuevo/ })).first().click();
    await page.getByRole('heading', { level: 1, name: 'Reporte programado' }).waitFor();
    await page.getByLabel(/^Nombre/).fill('Semanal de notificaciones');
    await chooseAccount(page, /^Cuentas/, 'SMS Notificaciones');
    await expect.poll(() => page.getByLabel(/^Día/).count()).toBe(0);
    await page.getByRole('combobox', { name: /^Frecuencia/ }).click();
    await page.getByRole('option', { name: 'Semanal', exact: true }).click();
    await page.getByLabel(/^Día/).fill('1');
    const emails = page.getByLabel(/^Enviar a/);
    await emails.fill('reportes@demo.colibri.co');
    await emails.press('Enter');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /^(Guardar|Crear)/ }).first().click();
    await page.waitForURL(/\/Reports\/Scheduled\/\d+$/);
    await page.goto('/Reports/Scheduled');
    const row = page.getByRole('row').filter({ hasText: 'Semanal de notificaciones' });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Semanal');
    expect(text).toContain('reportes@demo.colibri.co');
    // The next run is a Monday at 06:00 in Bogotá.
    const token = await sessionToken(page);
    const list = (await api(e2e.product, token, 'GET', '/v1/colibri/reportCenter/schedules?q=Semanal')) as { items: { nextRunAt: string }[] };
    const next = new Date(list.items[0].nextRunAt);
    expect(new Date(next.getTime() - 5 * 3_600_000).getUTCDay()).toBe(1);
    expect(new Date(next.getTime() - 5 * 3_600_000).getUTCHours()).toBe(6);
    await context.close();
  });

  it('a developer schedules a report screen from the screen: the form comes with the report and its filters, the list names the report', async () => {
    const { context, page } = await todaysReport('develop@demo.colibri.co', '/Reports/SuccessReportMt', 'Éxito de los SMS enviados');
    // Offered once the report ran (with or without traffic today).
    await page.getByRole('button', { name: 'Programar este reporte' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reporte programado' }).waitFor();
    // Named after the report; its accounts are the report's filters, not asked again.
    expect(await page.getByLabel(/^Nombre/).inputValue()).toBe('Éxito de los SMS enviados');
    expect(await page.getByRole('combobox', { name: /^Cuentas/ }).count()).toBe(0);
    const emails = page.getByLabel(/^Enviar a/);
    await emails.fill('exito@demo.colibri.co');
    await emails.press('Enter');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /^(Guardar|Crear)/ }).first().click();
    await page.waitForURL(/\/Reports\/Scheduled\/\d+$/);
    await page.goto('/Reports/Scheduled');
    const row = page.getByRole('row').filter({ hasText: 'exito@demo.colibri.co' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Éxito de los SMS enviados');
    const token = await sessionToken(page);
    const list = (await api(e2e.product, token, 'GET', '/v1/colibri/reportCenter/schedules?q=' + encodeURIComponent('Éxito'))) as { items: Record<string, unknown>[] };
    expect(list.items[0]).toMatchObject({ reportTypeId: 3, screen: 'reportsMt', payload: { ClientsIds: [expect.any(Number)], AggregationLevel: 1 }, accountIds: [] });
    await context.close();
  });
});
