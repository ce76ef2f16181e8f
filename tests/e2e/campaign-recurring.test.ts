// The campaign wizard's recurrence step (kinds open, scheduled and recurring): the
// step shows only for a recurring campaign, its rule (every N units from a start, optional end and
// expiry) is required and checked in the browser, and the campaign the wizard creates carries it.
import { describe, it, expect } from 'vitest';
import { choose, productAndBrowser } from './harness.ts';
import { campaignFirstStep, signedInPage } from './steps.ts';

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

    // The detail shows the rule as stored.
    await page.goto(`/Campaigns/campaigns/${id}`);
    const general = page.getByRole('tabpanel');
    await general.getByText('Recurrente').waitFor();
    await page.screenshot({ path: '/tmp/recurring-detail.png', fullPage: true });
    await context.close();
  });
});
