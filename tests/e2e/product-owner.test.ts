// The product-owner path: in a temporary copy of the project, add a screen and a
// report as YAML files (tests/fixtures/product-owner, the worked example of docs/product-owner-guide.md) plus their
// texts, run the generator and the build, and check in the browser that both appear in the menu
// for the roles they name, and work.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startProduct, launchBrowser, newPage, sessionToken, signIn, type Product } from './harness.ts';
import { api, notificationsChannel } from './steps.ts';

const fixture = resolve('tests/fixtures/product-owner');
let dir: string;
let product: Product;
let browser: Browser;

function copyProject(): string {
  const to = mkdtempSync(join(tmpdir(), 'colibri-po-'));
  // The working tree as it is (in CI, a clean clone: exactly the commit).
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files.filter((name) => existsSync(name))) {
    mkdirSync(dirname(join(to, f)), { recursive: true });
    copyFileSync(f, join(to, f));
  }
  symlinkSync(resolve('node_modules'), join(to, 'node_modules'), 'dir');
  return to;
}

/** What a product owner does: drop the YAML files in, add the texts to the locale files. */
function addDeclarations(to: string) {
  cpSync(join(fixture, 'config/screens'), join(to, 'config/screens'), { recursive: true });
  for (const lang of ['es', 'en']) {
    const target = join(to, 'locales', lang, 'menu.json');
    const merged = { ...JSON.parse(readFileSync(target, 'utf8')), ...JSON.parse(readFileSync(join(fixture, 'locales', lang, 'menu.json'), 'utf8')) };
    writeFileSync(target, JSON.stringify(merged, null, 2) + '\n');
  }
}

beforeAll(async () => {
  dir = copyProject();
  addDeclarations(dir);
  execFileSync(process.execPath, ['--import', 'tsx', 'generators/cli.ts'], { cwd: dir, stdio: 'pipe' });
  execFileSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: dir, stdio: 'pipe' });
  product = await startProduct({ root: dir });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function menuLinks(page: Page, group: string): Promise<string> {
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  await nav.getByRole('button', { name: group }).click();
  await nav.getByRole('link').first().waitFor();
  return nav.innerText();
}

// Dates as Bogotá sees them: the 'up to today' rule is Colombian time, not UTC.
const isoDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(d);

describe('a report added as YAML', () => {
  it('shows for an admin and runs', async () => {
    const { context, page } = await newPage(browser, product);
    await signIn(page, 'admin@demo.colibri.co');
    expect(await menuLinks(page, 'Reportes')).toContain('Actividad por operación');
    await page.getByRole('link', { name: 'Actividad por operación' }).click();
    // The menu link is a client-side navigation: wait for the address, not for a page load event.
    await page.waitForURL('**/Reports/ActivityByOperation', { waitUntil: 'commit' });
    const today = new Date();
    await page.getByLabel('Desde').fill(isoDay(new Date(today.getTime() - 7 * 86_400_000)));
    await page.getByLabel('Hasta').fill(isoDay(today));
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    // The admin's own sign-in is in the audit log.
    await expect.poll(() => page.getByText('clientAuth.signin').count(), { timeout: 15000 }).toBeGreaterThan(0);
    await context.close();
  });

  it('is not in an analista menu', async () => {
    const { context, page } = await newPage(browser, product);
    await signIn(page, 'analista@demo.colibri.co');
    expect(await menuLinks(page, 'Reportes')).not.toContain('Actividad por operación');
    await context.close();
  });
});

describe('a traffic report declared in YAML', () => {
  it('shows a manager today\'s deliveries by operator and hour, grouped by the server from the rollups', async () => {
    const { context, page } = await newPage(browser, product);
    await signIn(page, 'manager@demo.colibri.co');
    // Three messages to numbers allocated to Tigo (prefix 300), delivered by the sandbox SMSC.
    const token = await sessionToken(page);
    const channelId = await notificationsChannel(product, token);
    const bogotaHour = () => new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Bogota', hour: '2-digit', hourCycle: 'h23' }).format(new Date());
    const sentFrom = bogotaHour();
    const sent = (await api(product, token, 'POST', '/v1/messages', { channelId, messages: [1, 2, 3].map((i) => ({ to: `+57300555030${i}`, text: 'Colibri: entrega por hora' })) })) as { messages: { id: string }[] };
    await expect.poll(async () => {
      const states = await Promise.all(sent.messages.map((m) => api(product, token, 'GET', `/v1/messages/${m.id}`)));
      return states.filter((m) => m.state === 'delivered').length;
    }, { timeout: 60_000, interval: 500 }).toBe(3);
    // The hour they were written in (two, when the sending crossed the hour).
    const hours = new RegExp(`(${sentFrom}|${bogotaHour()}):00`);

    expect(await menuLinks(page, 'Reportes')).toContain('Entregas por operador y hora');
    await page.getByRole('link', { name: 'Entregas por operador y hora' }).click();
    await page.waitForURL('**/Reports/DeliveriesByOperatorHour', { waitUntil: 'commit' });
    await page.getByRole('combobox', { name: /^Cuentas/ }).click();
    await page.getByRole('option', { name: 'SMS Notificaciones', exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    // One row per operator (as the receipts name the serving network: a ported number shows its
    // new one) and hour: this Bogotá hour's rows hold (at least) the three delivered, Tigo among them.
    const table = page.getByRole('table', { name: 'Entregas por operador y hora' });
    const thisHour = table.getByRole('row').filter({ hasText: hours });
    await thisHour.filter({ hasText: 'Tigo' }).first().waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    const delivered = headers.indexOf('Entregados');
    expect(delivered, JSON.stringify(headers)).toBeGreaterThan(0);
    const cells = await Promise.all((await thisHour.all()).map((row) => row.locator('td, th').allTextContents()));
    expect(cells.reduce((n, row) => n + Number(row[delivered].replace(/\D/g, '')), 0)).toBeGreaterThanOrEqual(3);
    await page.getByTestId('chart').first().locator('svg.marks').waitFor({ timeout: 20_000 });
    await context.close();
  });
});

describe('a screen added as YAML', () => {
  it('shows for a manager and lists the company data', async () => {
    const { context, page } = await newPage(browser, product);
    await signIn(page, 'manager@demo.colibri.co');
    expect(await menuLinks(page, 'Configuración')).toContain('Directorio de centros de costo');
    await page.getByRole('link', { name: 'Directorio de centros de costo' }).click();
    await page.waitForURL('**/profile/CostCenterDirectory');
    await expect.poll(() => page.getByText('VEN-300').count(), { timeout: 15000 }).toBeGreaterThan(0);
    expect(await page.getByText('LOG-01').count()).toBe(0); // another company's cost center
    await context.close();
  });

  it('is not in an analista menu', async () => {
    const { context, page } = await newPage(browser, product);
    await signIn(page, 'analista@demo.colibri.co');
    expect(await menuLinks(page, 'Configuración')).not.toContain('Directorio de centros de costo');
    await context.close();
  });
});
