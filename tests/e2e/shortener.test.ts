// The link shortener in a real browser against the real product: the platform user
// shortens a URL at /Shortener/shorten, opens the short link (302 to the target), and finds the
// click in /Shortener/statistics (a headless browser's counted apart as a bot); a made-up code shows the plain es/en 404 page.
import { describe, it, expect } from 'vitest';
import { newPage, signIn, productAndBrowser } from './harness.ts';

const e2e = productAndBrowser();

const isoDay = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(d);

describe('shortener', () => {
  it('shortens a URL, follows the short link and shows the click in the statistics', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'platform@demo.colibri.co');
    await page.goto('/Shortener/shorten');
    await page.getByRole('link', { name: 'Nuevo' }).or(page.getByRole('button', { name: 'Nuevo' })).first().click();
    await page.waitForURL('**/Shortener/shorten/new');
    const target = `${e2e.product.url}/help?desde=sms`;
    await page.getByLabel(/^URL/).fill(target);
    await page.getByRole('button', { name: 'Acortar' }).click();
    const shown = page.getByText(/\/s\/[0-9A-Za-z]{7}$/).first();
    await shown.waitFor().catch(async (e) => {
      throw new Error(`${e}\n${await page.locator('main').innerText()}`);
    });
    const shortUrl = (await shown.innerText()).trim();
    const code = shortUrl.slice(-7);
    // The demo listens on loopback only and names itself by that address, which the
    // test browser reaches. A person on a phone (headless Chrome says so in its user agent and
    // would count as a bot), then the headless browser itself.
    expect(shortUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[0-9A-Za-z]{7}$/);
    const short = shortUrl;
    const phone = await e2e.browser.newContext({ userAgent: 'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36' });
    const visitor = await phone.newPage();
    const response = await visitor.goto(short);
    expect(response?.request().redirectedFrom()?.url()).toContain(`/s/${code}`);
    expect(visitor.url()).toBe(target);
    await phone.close();
    const headless = await context.newPage();
    await headless.goto(short);
    expect(headless.url()).toBe(target);
    await headless.close();

    // The click is written by the queue within a second; the report is run again until it shows.
    await page.goto('/Shortener/statistics');
    await page.getByLabel('Desde').fill(isoDay(new Date(Date.now() - 86_400_000)));
    await page.getByLabel('Hasta').fill(isoDay(new Date()));
    await page.getByRole('combobox', { name: 'Agrupar por' }).click();
    await page.getByRole('option', { name: 'Enlace', exact: true }).click();
    await expect.poll(async () => {
      await page.getByRole('button', { name: 'Generar reporte' }).click();
      const row = page.getByRole('row').filter({ hasText: code });
      return (await row.count()) ? (await row.first().innerText()).replace(/\s+/g, ' ') : '';
    }, { timeout: 15000 }).toMatch(new RegExp(`${code} 1 1 1`));

    // The link's row in the list counts it too.
    await page.goto('/Shortener/shorten');
    await expect.poll(() => page.getByRole('row').filter({ hasText: code }).allInnerTexts(), { timeout: 15000 }).toEqual([expect.stringContaining('/help?desde=sms')]);
    await context.close();
  });

  it('answers an unknown code with the plain 404 page in Spanish and English', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    const response = await page.goto('/s/Nadaaaa');
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading').allInnerTexts()).toEqual(['Este enlace no existe o ya venció.', 'This link does not exist or has expired.']);
    await context.close();
  });
});
