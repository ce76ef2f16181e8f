// Buying credits in a real browser against the real product: the embedded default's
// ePayco stand-in serves the checkout with its test cards. A manager is refused 9,999 COP, buys
// 50,000 COP with the approving card and comes back to the response page (the state read from our
// server), downloads the voucher, and sees the credits on the home and in the history; a rejected
// and an abandoned purchase show as such. The provider's staff grant promotional credits from the
// companies list, and the company reads them in /Payments/Promotions.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { choose, newPage, productAndBrowser, signIn } from './harness.ts';
import { signedInPage } from './steps.ts';

const e2e = productAndBrowser();

/** The home's balance card, in pesos. */
async function homeBalance(page: Page): Promise<number> {
  await page.goto('/User');
  const card = page.getByTestId('card-screens.home.balance');
  await expect.poll(async () => /\d/.test((await card.textContent()) ?? '')).toBe(true);
  return Number(((await card.textContent()) ?? '').replace(/\D/g, ''));
}

/** From /Payments/General to the gateway's checkout, for `amount` pesos. */
async function startPurchase(page: Page, amount: string) {
  await page.goto('/Payments/General');
  const field = page.getByLabel(/^Valor a comprar/);
  await field.fill(amount);
  await page.getByRole('button', { name: 'Pagar con ePayco' }).click();
  await page.waitForURL(/\/checkout\?sessionId=/);
}

describe('buying credits', () => {
  it('refuses 9,999 COP, buys 50,000 COP with the approving card, and shows the credits, the voucher and the history', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const before = await homeBalance(page);

    await page.goto('/Payments/General');
    await page.getByLabel(/^Valor a comprar/).fill('9999');
    await page.getByRole('button', { name: 'Pagar con ePayco' }).click();
    await page.getByText(/La compra debe ser de al menos \$\s?10\.000/).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/Payments/General');

    await startPurchase(page, '50000');
    await page.getByText(/50\.000/).first().waitFor();
    await page.getByLabel('Número de tarjeta').fill('4575623182290326');
    await page.getByRole('button', { name: 'Pagar', exact: true }).click();
    await page.waitForURL(/\/epaycoResponse\?/);
    const outcome = page.getByRole('status').filter({ hasText: 'Aprobado' });
    await outcome.waitFor();
    expect(await outcome.textContent()).toContain('Se sumaron 50.000 créditos');
    const responseUrl = page.url();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar comprobante' }).click();
    const voucher = await download;
    expect(voucher.suggestedFilename()).toMatch(/^comprobante-CLB-.+\.pdf$/);

    expect(await homeBalance(page)).toBe(before + 50_000);
    await page.goto('/Payments/History');
    // The gateway's codes read as words: the franchise "VS" is Visa.
    const approved = page.getByRole('row', { name: /Aprobado/ }).first();
    await approved.waitFor();
    await approved.getByRole('cell', { name: 'Visa', exact: true }).waitFor();
    expect(await approved.getByRole('cell', { name: 'VS', exact: true }).count()).toBe(0);
    // The pinned actions column (the voucher) never covers a column: scrolled to its end, the last one ends where the actions begin.
    const history = page.getByRole('table', { name: 'Historial de pagos' });
    await history.evaluate((table) => { const scroller = table.parentElement!; scroller.scrollLeft = scroller.scrollWidth; });
    const headers = history.getByRole('columnheader');
    const actions = (await history.locator('th.actions').boundingBox())!;
    const last = (await headers.nth((await headers.count()) - 2).boundingBox())!;
    expect(last.x + last.width).toBeLessThanOrEqual(actions.x + 1);

    // The credits' ledger: the purchase on top, and its balance the home's.
    await page.goto('/Payments/Ledger');
    const newest = page.getByRole('row').filter({ hasText: 'Compra' }).first();
    await newest.waitFor();
    expect(await newest.textContent()).toContain('50.000');
    expect(await newest.textContent()).toContain((before + 50_000).toLocaleString('es-CO'));

    // On a phone (390 px) the payment's result fits the screen: nothing runs off to the side.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(responseUrl);
    await page.getByRole('status').filter({ hasText: 'Aprobado' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const result = (await page.getByRole('status').filter({ hasText: 'Aprobado' }).boundingBox())!;
    expect(result.x).toBeGreaterThanOrEqual(0);
    expect(result.x + result.width).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('a rejected and an abandoned purchase show as such and add nothing', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const before = await homeBalance(page);

    await startPurchase(page, '20000');
    await page.getByLabel('Número de tarjeta').fill('4151611527583283');
    await page.getByRole('button', { name: 'Pagar', exact: true }).click();
    await page.waitForURL(/\/epaycoResponse\?/);
    await page.getByRole('status').filter({ hasText: 'Rechazado' }).waitFor();
    await page.getByRole('link', { name: 'Intentar de nuevo' }).waitFor();

    await startPurchase(page, '30000');
    await page.getByRole('button', { name: 'Cancelar y volver al comercio' }).click();
    await page.waitForURL(/\/epaycoResponse\?/);
    await page.getByRole('status').filter({ hasText: 'Abandonado' }).waitFor();

    expect(await homeBalance(page)).toBe(before);
    await page.goto('/Payments/History');
    await page.getByRole('row', { name: /Rechazado/ }).first().waitFor();
    await page.getByRole('row', { name: /Abandonado/ }).first().waitFor();
    await context.close();
  });

  it("staff grant promotional credits from the companies list, and the company's manager reads them", async () => {
    const staff = await newPage(e2e.browser, e2e.product);
    await signIn(staff.page, 'platform@demo.colibri.co');
    await staff.page.goto('/profile/companies');
    await staff.page.getByRole('searchbox', { name: 'Buscar' }).fill('Demo S.A.S.');
    // The search has run (it is in the address) and its rows replaced the others: only the header
    // row names no Demo S.A.S. (a row of the list before the search re-renders under the click).
    await staff.page.waitForURL(/[?&]q=Demo/);
    await expect.poll(() => staff.page.getByRole('row').filter({ hasNotText: /Demo S\.A\.S\./ }).count(), { timeout: 15_000 }).toBe(1);
    // The row's actions beyond those that fit wait in its "Más acciones" menu.
    const demo = staff.page.getByRole('row', { name: /Demo S\.A\.S\./ }).first();
    // The actions column is drawn once the searched rows are in (it is as wide as their actions need).
    await demo.locator('.row-actions button').first().waitFor();
    const direct = demo.getByRole('button', { name: 'Créditos promocionales' });
    if (await direct.count()) await direct.click();
    else {
      await demo.getByRole('button', { name: 'Más acciones' }).click();
      await staff.page.getByRole('menuitem', { name: 'Créditos promocionales' }).click();
    }
    await staff.page.waitForURL(/\/profile\/companies\/\d+\/promotional$/);
    await choose(staff.page, /^Tipo de canal/, 'WhatsApp');
    await staff.page.getByLabel(/^Valor/).fill('7777');
    const inAMonth = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(new Date(Date.now() + 30 * 86_400_000));
    await staff.page.getByLabel(/^Vencen el/).fill(inAMonth);
    await staff.page.getByRole('button', { name: 'Guardar' }).click();
    await staff.page.getByText('Créditos promocionales otorgados.').waitFor();
    await staff.context.close();

    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    const payments = nav.getByRole('button', { name: 'Pagos' });
    if ((await payments.getAttribute('aria-expanded')) !== 'true') await payments.click();
    await nav.getByRole('link', { name: 'Créditos promocionales', exact: true }).click();
    await page.waitForURL('**/Payments/Promotions');
    const row = page.getByRole('row').filter({ hasText: '7.777' });
    await row.first().waitFor();
    expect(await row.first().textContent()).toContain('WhatsApp');
    await context.close();
  });
});
