// /smsPlatformTools/reportsSms in a real browser against the real product: the demo manager sends
// SMS through the API on "SMS Notificaciones" (delivered over SMPP by the sandbox SMSC); the
// provider's staff (platform@demo.colibri.co) choose the demo company in the company picker, run
// the report for today and see the traffic per day and account, its totals, chart, operators and
// states, download the table as CSV, then choose the second demo company (Andina Logística, no SMS
// sent) and read that it sent nothing. A developer of the demo company (not staff: the company list
// is refused to them) still gets a working screen: the picker offers no company (its helper line
// says the list is not theirs), no alert shows, and the report, run without a company, covers
// their own company.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { calendarDate } from '../../src/core/date-range.ts';
import { downloaded, newPage, productAndBrowser, sessionToken, signIn } from './harness.ts';
import { api, notificationsChannel, seriousViolations, signedInPage } from './steps.ts';

const e2e = productAndBrowser();
const PATH = '/smsPlatformTools/reportsSms';
const TITLE = 'Reportes SMS de las empresas';

/**
 * The demo manager sends `count` SMS through the API, to numbers from `first` on (a number is sent
 * the same text once a day: the duplicate rule), and waits until the SMSC's receipts made each one DELIVERED.
 */
async function managerSends(count: number, first: number): Promise<void> {
  const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
  const token = await sessionToken(page);
  const channelId = await notificationsChannel(e2e.product, token);
  const sent = (await api(e2e.product, token, 'POST', '/v1/messages', {
    channelId, messages: Array.from({ length: count }, (_, i) => ({ to: `+57301${String(first + i)}`, text: 'Colibri: su cita es mañana' })),
  })) as { messages: { id: string }[] };
  await expect.poll(async () => {
    const states = await Promise.all(sent.messages.map((m) => api(e2e.product, token, 'GET', `/v1/messages/${m.id}`)));
    return states.filter((x) => x.state === 'delivered').length;
  }, { timeout: 60_000, interval: 500 }).toBe(count);
  await context.close();
}

/** Signs `email` in and opens the tool with today as both days. */
async function openTool(email: string): Promise<{ page: Page; today: string; close: () => Promise<void> }> {
  const { context, page } = await newPage(e2e.browser, e2e.product);
  await signIn(page, email);
  await page.goto(PATH);
  await page.getByRole('heading', { name: TITLE }).waitFor();
  const today = calendarDate(new Date(), 'America/Bogota');
  await page.getByLabel(/^Desde/).fill(today);
  await page.getByLabel(/^Hasta/).fill(today);
  return { page, today, close: () => context.close() };
}

async function chooseCompany(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: /^Empresa/ }).click();
  await page.getByRole('option', { name, exact: true }).click();
}

const run = (page: Page) => page.getByRole('button', { name: 'Generar reporte' }).click();

describe('the provider\'s SMS reports', () => {
  it('staff choose a company, read its SMS traffic for today, download it as CSV, and see another company\'s empty report', async () => {
    await managerSends(4, 7770100);
    const { page, today, close } = await openTool('platform@demo.colibri.co');

    await chooseCompany(page, 'Demo S.A.S.');
    await run(page);
    const table = page.getByRole('table', { name: TITLE });
    const row = table.getByRole('row').filter({ hasText: 'SMS Notificaciones' });
    await row.waitFor();
    expect(await row.textContent()).toContain(today);
    expect(await page.getByRole('group', { name: 'Total' }).first().textContent()).toMatch(/Entregados\s*[1-9]/);
    const chart = page.getByTestId('chart').first();
    await chart.locator('svg.marks').waitFor({ timeout: 20_000 });
    expect(await chart.textContent()).toContain('Entregados');
    await page.getByRole('region', { name: 'Por operador' }).getByRole('row').filter({ hasText: /Tigo|Claro|Movistar|WOM/ }).first().waitFor();
    await page.getByRole('region', { name: 'Por estado' }).getByRole('row').filter({ hasText: /Éxito/ }).first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The table as CSV: the rows the screen shows, the account and the day in it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).first().click()]);
    expect(download.suggestedFilename()).toMatch(/^sms-traffic-by-period.*\.csv$/);
    const csv = (await downloaded(download)).toString('utf8');
    expect(csv).toContain('SMS Notificaciones');
    expect(csv).toContain(today);

    // Another company: Andina sent no SMS; the report says so instead of showing the demo's rows.
    await page.getByRole('combobox', { name: /^Empresa/ }).clear();
    await chooseCompany(page, 'Andina Logística S.A.S.');
    await run(page);
    await page.getByText('Esta empresa no envió SMS en esas fechas.').first().waitFor();
    expect(await table.getByRole('row').filter({ hasText: 'SMS Notificaciones' }).count()).toBe(0);
    await close();
  });

  it('a developer (not staff) is not shown an error and reports on their own company', async () => {
    await managerSends(1, 7770200);
    const { page, close } = await openTool('develop@demo.colibri.co');
    // The company list is the staff's: the picker offers nothing and the form still runs.
    await page.getByRole('combobox', { name: /^Empresa/ }).click();
    await page.getByRole('option').first().waitFor({ state: 'detached', timeout: 2_000 }).catch(() => undefined);
    expect(await page.getByRole('option').count()).toBe(0);
    await page.keyboard.press('Escape');
    await run(page);
    await page.getByRole('table', { name: TITLE }).getByRole('row').filter({ hasText: 'SMS Notificaciones' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await close();
  });
});
