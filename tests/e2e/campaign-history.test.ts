// The sending history (/Campaigns/history) and the personalised campaign detail in a real browser
// against the real product: a personalised campaign is written, given its file and launched
// through the API with the manager's session (the wizard itself is tests/e2e/campaigns.test.ts);
// the engine sends it over SMPP to the sandbox SMSC and the receipts come back DELIVERED. The
// manager then opens the history for today, finds the run's row with its figures, the totals and
// the per-day chart, and from the campaign's detail opens each recipient's message as sent, HTML
// shown as text.
import { describe, expect, it } from 'vitest';
import { calendarDate } from '../../src/core/date-range.ts';
import { newPage, signIn, sessionToken, productAndBrowser } from './harness.ts';

const e2e = productAndBrowser();

async function api(token: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const form = body instanceof FormData;
  const res = await fetch(`${e2e.product.url}${path}`, {
    method,
    headers: { 'X-Auth-Token': token, ...(body && !form ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

describe('campaign history', () => {
  it('a manager sees a run in the history and opens the personalised messages of its campaign', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'manager@demo.colibri.co', { lands: '**/User' });
    const token = await sessionToken(page);

    // A personalised campaign on the demo SMS channel, its file, the launch.
    const channels = (await api(token, 'GET', '/v1/channels?platform=sms&pageSize=200')) as { items: { id: number; name: string }[] };
    const channel = channels.items.find((c) => c.name === 'SMS Notificaciones')!;
    const campaign = await api(token, 'POST', '/v1/campaigns', {
      name: 'Historial e2e', kind: 'open', purpose: 'transactional', channelId: channel.id, content: 'Hola {{nombre}}, tu código es {{codigo}} <b>hoy</b>',
    });
    const file = new FormData();
    file.append('file', new Blob(['telefono;nombre;codigo\n3157778811;Ana;1500\n3157778812;Luis;2700\n'], { type: 'text/csv' }), 'clientes.csv');
    await api(token, 'POST', `/v1/campaigns/${campaign.id}/recipients`, file);
    const run = await api(token, 'POST', `/v1/campaigns/${campaign.id}/launch`);

    // Wait (with a deadline) until the SMSC's receipts made both messages DELIVERED and the run is processed.
    await expect.poll(async () => {
      const d = await api(token, 'GET', `/v1/deployments/${run.id}`);
      return `${d.state} ${(d.counts as Record<string, number>).delivered}`;
    }, { timeout: 60_000, interval: 500 }).toBe('completed 2');

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
    await page.getByRole('button', { name: 'Ver mensajes personalizados' }).click();
    await page.waitForURL(`**/Campaigns/Campaigns/personalizedCampaignDetail/${campaign.id}`);
    const ana = page.getByRole('row').filter({ hasText: '+573157778811' });
    await ana.getByText('Hola Ana, tu código es 1500 <b>hoy</b>', { exact: true }).waitFor();
    await expect(await ana.textContent()).toContain('Entregado');
    await expect(await page.locator('table b').count()).toBe(0);
    await page.getByRole('row').filter({ hasText: 'Hola Luis, tu código es 2700 <b>hoy</b>' }).waitFor();
    await context.close();
  });
});
