// In a real browser against the real product: the summary tells the truth and
// every refusal says why. A manager gives a personalised campaign a CSV whose accented names
// switch some messages to UCS-2; the summary tab shows the parts' spread, the characters that
// force UCS-2 and the first rendered messages, and the credits the launch then reserves. Launched
// once, then again at once: the summary predicts all three as duplicates, the launch notice says
// none went and why, and the messages list (and its CSV export) names the reason in words with
// its code beside.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { sessionToken, productAndBrowser, downloaded } from './harness.ts';
import { api, field, notificationsChannel, scratchFolder, signedInPage } from './steps.ts';

const e2e = productAndBrowser();
const files = scratchFolder('colibri-summary-');

// 95 GSM-7 characters besides the name: one SMS part in GSM-7, two in UCS-2 (over 70 characters).
const CONTENT = 'Hola {{nombre}}, tu pedido 4471 ya salio de bodega y llega manana entre 8am y 12m. Gracias!!';
const text = (name: string) => CONTENT.replace('{{nombre}}', name);

async function launchFromSummary(page: Page, label = 'Lanzar'): Promise<string> {
  await page.getByRole('button', { name: label, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: label, exact: true }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Campaña lanzada' });
  await notice.waitFor();
  return (await notice.textContent())!;
}

describe('the campaign summary', () => {
  it('shows the cost of the rendered messages, predicts a relaunch as duplicates, and the messages say why they were refused', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const token = await sessionToken(page);
    // Transactional: nothing waits for the send window, whatever the time of day.
    const campaign = await api(e2e.product, token, 'POST', '/v1/campaigns', { name: 'Pedido en camino e2e', kind: 'open', purpose: 'transactional', channelId: await notificationsChannel(e2e.product, token), content: CONTENT });

    // The file, uploaded from the recipients tab: María and Raúl bring í and ú, which GSM-7 lacks.
    await page.goto(`/Campaigns/campaigns/${campaign.id}?tab=1`);
    const csv = join(files.path, 'clientes.csv');
    writeFileSync(csv, 'telefono;nombre\n3157779901;Ana\n3157779902;María\n3157779903;Raúl\n');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('tabpanel').getByRole('button', { name: 'Subir destinatarios' }).click()]);
    await chooser.setFiles(csv);
    await page.getByTestId('action-result').waitFor();

    // The summary: priced per rendered message.
    await page.getByRole('tab', { name: 'Resumen antes de enviar' }).click();
    const summary = page.getByRole('tabpanel');
    await field(summary, 'goNow').getByText('3', { exact: true }).waitFor();
    expect(await field(summary, 'partsMin').textContent()).toBe('1');
    expect(await field(summary, 'partsMax').textContent()).toBe('2');
    expect(await field(summary, 'parts').textContent()).toBe('5');
    expect(await field(summary, 'credits').textContent()).toBe('5');
    expect(await field(summary, 'encoding').textContent()).toBe('GSM-7 + UCS-2');
    expect(await summary.getByText('Caracteres de las variables que obligan a UCS-2', { exact: false }).isVisible()).toBe(true);
    expect(await field(summary, 'ucs2Characters').textContent()).toBe('íú');
    expect(await field(summary, 'ucs2Rows').textContent()).toBe('2');
    // The first messages as the phone shows them: each text in a bubble under its number, with its parts.
    const samples = field(summary, 'samples');
    for (const [to, name] of [['+573157779901', 'Ana'], ['+573157779902', 'María'], ['+573157779903', 'Raúl']]) {
      await samples.getByText(to, { exact: true }).waitFor();
      await samples.getByText(text(name), { exact: true }).waitFor();
    }
    expect(await samples.getByTestId('bubble-parts').allTextContents()).toEqual(['1 parte · GSM-7', '2 partes · UCS-2', '2 partes · UCS-2']);

    // Launch: everything goes, and the launch reserves what the summary said.
    const first = await launchFromSummary(page);
    expect(first).toContain('3 salen');
    expect(first).toContain('0 rechazados');
    const runs = (await api(e2e.product, token, 'GET', `/v1/deployments?campaignId=${campaign.id}`)) as { items: { id: number; reservedCredits: number }[] };
    expect(runs.items.map((r) => r.reservedCredits)).toEqual([5]);

    // Again, once the run is done: what has run is not offered "Lanzar" but "Volver a lanzar", and
    // the summary predicts every recipient as a duplicate of what was just sent…
    await expect.poll(async () => ((await api(e2e.product, token, 'GET', `/v1/deployments?campaignId=${campaign.id}`)) as { items: { state: string }[] }).items[0]?.state).toBe('completed');
    await page.goto(`/Campaigns/campaigns/${campaign.id}?tab=2`);
    const again = page.getByRole('tabpanel');
    await field(again, 'duplicates').getByText('3', { exact: true }).waitFor();
    expect(await field(again, 'goNow').textContent()).toBe('0');
    expect(await field(again, 'credits').textContent()).toBe('0');
    expect(await field(again, 'duplicateHours').textContent()).toBe('24');
    // …the launch does exactly that and says so…
    expect(await page.getByRole('button', { name: 'Lanzar', exact: true }).count()).toBe(0);
    const second = await launchFromSummary(page, 'Volver a lanzar');
    expect(second).toContain('0 salen');
    expect(second).toContain('3 rechazados (3 por duplicado');

    // …and each refused message says why, in words with its code, on screen and in the export.
    await page.goto(`/Campaigns/campaigns/${campaign.id}`);
    await page.getByRole('button', { name: 'Ver mensajes por número' }).click();
    await page.waitForURL(`**/Campaigns/Campaigns/personalizedCampaignDetail/${campaign.id}`);
    const reason = 'Duplicado: ya se envió en las últimas 24 horas (93)';
    await expect.poll(() => page.getByRole('row').filter({ hasText: reason }).count()).toBe(3);
    expect(await page.getByRole('row').filter({ hasText: '+573157779902' }).filter({ hasText: reason }).count()).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
    const exported = (await downloaded(download)).toString('utf8');
    expect(exported).toContain('Motivo');
    expect(exported.split(reason).length - 1).toBe(3);
    await context.close();
  });
});
