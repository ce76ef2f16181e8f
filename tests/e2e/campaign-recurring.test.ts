// The campaign wizard's recurrence step (kinds open, scheduled and recurring): the
// step shows only for a recurring campaign, its rule (every N units from a start, optional end and
// expiry) is required and checked in the browser, and the campaign the wizard creates carries it;
// its detail reads the rule in words with its next five runs and says what Launch does, and the
// edit form changes the rule.
import { describe, it, expect } from 'vitest';
import { choose, productAndBrowser } from './harness.ts';
import { campaignFirstStep, field, signedInPage } from './steps.ts';

const e2e = productAndBrowser();

describe('a recurring campaign', () => {
  it('gets the recurrence step, which asks for its rule, and is created with it', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await campaignFirstStep(page, 'Recordatorio mensual e2e', 'Recurrente');
    // The recurring kind adds its step; the schedule step of a scheduled campaign is not there.
    await page.getByText('Recurrencia', { exact: true }).first().waitFor();
    expect(await page.getByText('Programación', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByRole('textbox', { name: /^Contenido del mensaje/ }).fill('Su factura del mes ya está disponible.');
    await page.getByRole('button', { name: 'Siguiente' }).click();

    // The rule's fields; creating without them is refused in the browser.
    const every = page.getByLabel(/^Cada/);
    await every.waitFor();
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await expect.poll(() => page.url()).toMatch(/\/Campaigns\/campaigns\/new$/);
    await every.fill('1');
    await choose(page, /^Unidad/, 'Meses');
    await page.getByLabel(/^Empieza/).fill('2030-01-31T09:00');
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
    const id = Number(/campaigns\/(\d+)/.exec(page.url())![1]);

    // The detail shows the rule in words and its next five runs (month ends kept: Jan 31 → Feb 28 → Mar 31).
    await page.goto(`/Campaigns/campaigns/${id}`);
    const general = page.getByRole('tabpanel');
    await general.getByText('Recurrente').waitFor();
    await expect.poll(() => field(general, 'recurrence').textContent()).toBe('Cada mes, desde el 2030/01/31 9:00am');
    expect((await field(general, 'nextRuns').textContent())!.split('\n')).toEqual(['2030/01/31 9:00am', '2030/02/28 9:00am', '2030/03/31 9:00am', '2030/04/30 9:00am', '2030/05/31 9:00am']);
    // The side menu's colour reaches the bottom of this page, taller than the window.
    const [menuHeight, menuColour, pageHeight, windowHeight] = await page.locator('.MuiDrawer-docked').evaluate((el) =>
      [el.getBoundingClientRect().height, getComputedStyle(el).backgroundColor, document.documentElement.scrollHeight, window.innerHeight] as const);
    expect(pageHeight).toBeGreaterThan(windowHeight);
    expect(Math.round(menuHeight)).toBe(pageHeight);
    expect(menuColour).toBe('rgb(43, 29, 14)');
    await page.screenshot({ path: '/tmp/recurring-detail.png', fullPage: true });

    // The rule is edited from the campaign's form: every two months; the runs follow.
    await page.goto(`/Campaigns/campaigns/${id}/edit`);
    const everyAgain = page.getByLabel(/^Cada/);
    await expect.poll(() => everyAgain.inputValue()).toBe('1');
    await everyAgain.fill('2');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${id}$`));
    const after = page.getByRole('tabpanel');
    await expect.poll(() => field(after, 'recurrence').textContent()).toBe('Cada 2 meses, desde el 2030/01/31 9:00am');
    expect((await field(after, 'nextRuns').textContent())!.split('\n')).toEqual(['2030/01/31 9:00am', '2030/03/31 9:00am', '2030/05/31 9:00am', '2030/07/31 9:00am', '2030/09/30 9:00am']);
    await context.close();
  });
});
