// The provider's SMS file processor and "Envío SMS" in a real browser against the real product:
// the platform user chooses the demo company and one of its SMS accounts, writes a Connectin SMS
// message (the field shows for that tool only), uploads a file and sees every row judged; then
// makes the company's campaign from the file, deploys it with a confirmation, and pauses and
// cancels its run from the row.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, productAndBrowser, sessionToken, signIn } from './harness.ts';
import { api, seriousViolations } from './steps.ts';

const e2e = productAndBrowser();

async function choose(page: Page, label: RegExp, name: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name, exact: typeof name === 'string' }).first().click();
}

/** A row's action: in the row, or under "Más acciones" when the row has more than fit. */
async function rowAction(page: Page, row: ReturnType<Page['getByRole']>, name: string) {
  const inRow = row.getByRole('button', { name, exact: true });
  if (await inRow.count()) await inRow.click();
  else {
    await row.getByRole('button', { name: 'Más acciones' }).click();
    await page.getByRole('menuitem', { name, exact: true }).click();
  }
}

describe('SMS file processor', () => {
  it('judges a file for a client company, makes its campaign, deploys it and follows the run', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'platform@demo.colibri.co');
    const token = await sessionToken(page);
    const company = (await api(e2e.product, token, 'GET', '/v1/company')) as { name: string };
    await page.goto('/smsPlatformTools/fileProcessor');
    await page.getByRole('heading', { level: 1, name: 'Procesador de archivos SMS' }).waitFor();
    await choose(page, /^Empresa/, company.name);
    await choose(page, /^Cuenta/, 'Cuenta Principal');
    // The message is asked for Connectin SMS only.
    await choose(page, /^Herramienta de origen/, 'Eloqua');
    expect(await page.getByLabel(/^Contenido del mensaje/).count()).toBe(0);
    await choose(page, /^Herramienta de origen/, 'Connectin SMS');
    await page.getByLabel(/^Contenido del mensaje/).fill('Hola {{nombre}}, tu pedido está listo.');
    // A person leaves the field for the file button (a text field's value is taken as it is left).
    await page.getByRole('button', { name: 'Elegir archivo' }).focus();
    // The file goes up as soon as it is chosen; the validation is asked for once it is there.
    const uploaded = page.waitForResponse((r) => r.url().includes('/reportFileUpload') && r.status() === 200);
    await page.locator('input[type=file]').setInputFiles({
      name: 'pedidos.csv', mimeType: 'text/csv',
      buffer: Buffer.from('celular,nombre\n3005550101,Ana\n3005550102,Luis\n5551234,Eva\n3005550104,\n', 'utf8'),
    });
    await uploaded;
    await page.getByRole('button', { name: 'Ver validación' }).click();
    const table = page.getByRole('table');
    await table.getByRole('row').filter({ hasText: '3005550102' }).waitFor().catch(async (e) => {
      throw new Error(`${e}\n${await page.locator('main').innerText()}`);
    });
    const texts = (await table.getByRole('row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    expect(texts.filter((t) => t.includes('Válida')).length).toBe(2);
    expect(texts.filter((t) => t.includes('No enviable')).length).toBe(2);
    expect(await seriousViolations(page)).toEqual([]);

    // "Envío SMS": the file is there, validated; its campaign is made, then it is deployed.
    await page.goto('/smsPlatformTools/deploySms');
    const row = page.getByRole('row').filter({ hasText: 'pedidos.csv' }).first();
    await row.getByText('Validado', { exact: true }).waitFor();
    await rowAction(page, row, 'Crear campaña');
    await page.getByRole('heading', { level: 1, name: 'Crear la campaña del archivo' }).waitFor();
    await page.getByLabel(/^Nombre/).fill('Pedidos listos e2e');
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL('**/smsPlatformTools/deploySms').catch(async (e) => {
      throw new Error(`${e}\n${await page.locator('main').innerText()}`);
    });
    await row.getByText('Campaña creada', { exact: true }).waitFor();
    await rowAction(page, row, 'Desplegar');
    await page.getByRole('dialog').getByRole('button', { name: 'Desplegar' }).click();
    await row.getByText('Desplegado', { exact: true }).waitFor();
    await rowAction(page, row, 'Pausar');
    await row.getByText('En pausa', { exact: true }).waitFor();
    await rowAction(page, row, 'Cancelar envío');
    await page.getByRole('dialog').getByRole('button').last().click();
    await row.getByText('Cancelado', { exact: true }).waitFor();
    // The client company's own campaign list shows the campaign staff made.
    const campaigns = (await api(e2e.product, token, 'GET', '/v1/campaigns?q=Pedidos%20listos')) as { items: { name: string }[] };
    expect(campaigns.items.map((c) => c.name)).toEqual(['Pedidos listos e2e']);
    await context.close();
  });
});
