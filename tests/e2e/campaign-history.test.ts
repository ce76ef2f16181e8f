// The sending history (/Campaigns/history) and the personalised campaign detail in a real browser
// against the real product: a personalised campaign is written, given its file and launched
// through the API with the manager's session (the wizard itself is tests/e2e/campaigns.test.ts);
// the engine sends it over SMPP to the sandbox SMSC and the receipts come back DELIVERED. The
// manager then opens the history for today, finds the run's row with its figures, the totals and
// the per-day chart, and from the campaign's detail opens each recipient's message as sent, HTML
// shown as text.
import { describe, expect, it } from 'vitest';
import { calendarDate } from '../../src/core/date-range.ts';
import { sessionToken, productAndBrowser } from './harness.ts';
import { launchUntilDelivered, signedInPage } from './steps.ts';

const e2e = productAndBrowser();

describe('campaign history', () => {
  it('a manager sees a run in the history and opens the personalised messages of its campaign', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const token = await sessionToken(page);

    // A personalised campaign on the demo SMS channel, its file, the launch; waited for (with a
    // deadline) until the SMSC's receipts made both messages DELIVERED and the run is processed.
    const { campaign } = await launchUntilDelivered(e2e.product, token, { name: 'Historial e2e', content: 'Hola {{nombre}}, tu código es {{codigo}} <b>hoy</b>' },
      'telefono;nombre;codigo\n3157778811;Ana;1500\n3157778812;Luis;2700\n', 2);

    // The history for today (Bogotá).
    await page.goto('/Campaigns/history');
    const today = calendarDate(new Date(), 'America/Bogota');
    await page.getByLabel(/^Desde/).fill(today);
    await page.getByLabel(/^Hasta/).fill(today);
    await page.getByRole('button', { name: 'Generar reporte' }).click();
    const table = page.getByRole('table');
    const row = table.getByRole('row').filter({ hasText: 'Historial e2e' });
    await row.waitFor();
    await expect(await row.textContent()).toContain('SMS Notificaciones');
    await expect(await row.textContent()).toContain('Procesado');
    const totals = page.getByLabel('Totales');
    await totals.waitFor();
    await expect(await totals.textContent()).toMatch(/Entregados\s*2/);
    await page.getByTestId('chart').waitFor();
    await page.getByTestId('chart').locator('svg.marks').waitFor({ timeout: 20_000 });

    // From the campaign's detail to its personalised messages: each recipient's text as sent.
    await page.goto(`/Campaigns/campaigns/${campaign.id}`);
    await page.getByRole('button', { name: 'Ver mensajes por número' }).click();
    await page.waitForURL(`**/Campaigns/Campaigns/personalizedCampaignDetail/${campaign.id}`);
    const ana = page.getByRole('row').filter({ hasText: '+573157778811' });
    await ana.getByText('Hola Ana, tu código es 1500 <b>hoy</b>', { exact: true }).waitFor();
    await expect(await ana.textContent()).toContain('Entregado');
    await expect(await page.locator('table b').count()).toBe(0);
    await page.getByRole('row').filter({ hasText: 'Hola Luis, tu código es 2700 <b>hoy</b>' }).waitFor();
    await context.close();
  });
});
