// Campaign screens in a real browser against the real product: the
// engine runs with the sandbox SMSC, so a launched campaign's messages really go over SMPP and
// come back DELIVERED. A manager writes a personalised campaign ("Hola {{nombre}}") on the demo
// SMS channel with the live counter, uploads a CSV with one invalid row, reads the validation
// counts and the refused row, checks the pre-launch summary (transactional: nothing waits for the
// send window, whatever the time of day), launches, watches the progress and reads the final
// states.
import { describe, it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { choose, sessionToken, productAndBrowser } from './harness.ts';
import { field, scratchFolder, signedInPage } from './steps.ts';

const e2e = productAndBrowser();
const files = scratchFolder('colibri-campaign-');

describe('campaigns', () => {
  it('a manager builds a personalised campaign from a CSV, reads the summary, launches it and reads its final states', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');

    // The list, then New: the wizard.
    await page.goto('/Campaigns/campaigns');
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.waitForURL('**/Campaigns/campaigns/new');
    await page.getByLabel(/^Nombre/).fill('Bienvenida clientes e2e');
    await choose(page, /^Propósito/, 'Transaccional');
    await choose(page, /^Canal/, 'SMS Notificaciones');
    await page.getByRole('button', { name: 'Siguiente' }).click();

    // The message with its live counter.
    const content = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    await content.fill('Hola {{nombre}}, bienvenido a Colibri.');
    const counter = page.getByTestId('sms-counter');
    await expect.poll(() => counter.getByTestId('sms-encoding').textContent()).toBe('GSM-7');
    await expect(await counter.getByTestId('sms-parts').textContent()).toBe('1');
    await expect(await page.getByText(/Variables: nombre/).isVisible()).toBe(true);
    // An external link is named before submit (the server would refuse it with 99925).
    await content.fill('Hola {{nombre}}, mira https://ejemplo.com/promo');
    await page.getByTestId('sms-warnings').getByText(/https:\/\/ejemplo\.com\/promo/).waitFor();
    await content.fill('Hola {{nombre}}, bienvenido a Colibri.');
    await page.getByTestId('sms-warnings').waitFor({ state: 'detached' });
    // An open campaign has no schedule step: the message step creates it.
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
    const campaignId = Number(/campaigns\/(\d+)/.exec(page.url())![1]);

    // Recipients: a CSV with three valid numbers (none on the demo block list) and one invalid,
    // uploaded from the tab.
    const csv = join(files.path, 'clientes.csv');
    writeFileSync(csv, 'telefono;nombre\n3157778801;Ana\n3157778802;Luis\n3157778803;Marta\n12345;Malo\n');
    const panel = page.getByRole('tabpanel');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), panel.getByRole('button', { name: 'Subir destinatarios' }).click()]);
    await chooser.setFiles(csv);
    const result = page.getByTestId('action-result');
    await result.waitFor();
    await expect(await field(result, 'rows').textContent()).toBe('4');
    await expect(await field(result, 'pass').textContent()).toBe('3');
    await expect(await field(result, 'fail').textContent()).toBe('1');
    // The rows with their result; filtered to the refused ones, the error report.
    await panel.getByRole('cell', { name: '3157778803' }).waitFor();
    await choose(page, /^Resultado/, 'No enviable');
    // The invalid number has no phone to show; its row shows the value entered, its values and the problem.
    await panel.getByRole('cell', { name: 'nombre=Malo' }).waitFor();
    await panel.getByRole('cell', { name: '12345', exact: true }).waitFor();
    await panel.getByRole('cell', { name: '3157778801' }).waitFor({ state: 'detached' });

    // The pre-launch summary: transactional, so everything valid goes now at any hour.
    await page.getByRole('tab', { name: 'Resumen antes de enviar' }).click();
    const preview = page.getByRole('tabpanel');
    await field(preview, 'goNow').getByText('3', { exact: true }).waitFor();
    await expect(await field(preview, 'wait').textContent()).toBe('0');
    await expect(await field(preview, 'invalid').textContent()).toBe('1');
    await expect(await field(preview, 'blocked').textContent()).toBe('0');
    await expect(await field(preview, 'credits').textContent()).toBe('3');
    await expect(await field(preview, 'encoding').textContent()).toBe('GSM-7');
    await expect(await field(preview, 'enough').textContent()).toBe('Sí');

    // Launch (confirmed): the deployments tab shows the run, refreshed until every receipt came.
    await page.getByRole('button', { name: 'Lanzar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Lanzar' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${campaignId}\\?tab=3$`));
    const runs = page.getByRole('tabpanel');
    const bar = runs.getByRole('img', { name: /Entregados 3$/ });
    await bar.waitFor({ timeout: 60_000 });
    await runs.getByText('Procesado', { exact: true }).waitFor();
    // A processed run offers no play, pause, cancel or delete.
    await expect(await runs.getByRole('button', { name: /^(Reanudar|Pausar|Cancelar envío|Eliminar)$/ }).count()).toBe(0);

    // The server agrees: three delivered, the invalid row never became a message.
    const token = await sessionToken(page);
    const answer = await fetch(`${e2e.product.url}/v1/deployments?campaignId=${campaignId}`, { headers: { 'X-Auth-Token': token } });
    const page1 = (await answer.json()) as { items: { state: string; total: number; counts: Record<string, number> }[] };
    expect(page1.items).toHaveLength(1);
    expect(page1.items[0]).toMatchObject({ state: 'completed', total: 3 });
    expect(page1.items[0].counts).toMatchObject({ delivered: 3, failed: 0, queued: 0, sent: 0 });

    // Back to the recipients: the invalid row is still listed as refused.
    await page.getByRole('tab', { name: 'Destinatarios' }).click();
    await page.getByRole('tabpanel').getByRole('cell', { name: 'nombre=Malo' }).waitFor();
    await context.close();
  });

  it('a manager shortens a link for a message, and the counter takes it as ours while an external one is named', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/Campaigns/campaigns');
    await page.getByRole('link', { name: 'Acortar un enlace' }).or(page.getByRole('button', { name: 'Acortar un enlace' })).first().click();
    await page.waitForURL('**/Campaigns/campaigns/shorten');
    await page.getByLabel(/^URL/).first().fill('https://tienda.example.com/promo?utm=sms');
    await page.getByRole('button', { name: 'Acortar' }).click();
    const result = page.getByTestId('form-result');
    const shortUrl = (await result.locator('dd[data-field="shortUrl"]').textContent())!.trim();
    expect(shortUrl).toMatch(new RegExp(`^http://(localhost|127\\.0\\.0\\.1):${new URL(e2e.product.url).port}/s/[0-9A-Za-z]{7}$`));
    // The link answers a 302 to the address (not followed here: it would count a click).
    const hop = await fetch(shortUrl, { redirect: 'manual' });
    expect(hop.status).toBe(302);
    expect(hop.headers.get('location')).toBe('https://tienda.example.com/promo?utm=sms');

    // In the wizard, the short link passes the counter; an external one is still named.
    await page.goto('/Campaigns/campaigns/new');
    await page.getByLabel(/^Nombre/).fill('Promo con enlace e2e');
    await choose(page, /^Canal/, 'SMS Notificaciones');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    const content = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    await content.fill(`Hola {{nombre}}, tu promo: ${shortUrl}`);
    await page.getByTestId('sms-counter').getByTestId('sms-parts').waitFor();
    await expect(await page.getByTestId('sms-warnings').count()).toBe(0);
    await content.fill('Hola {{nombre}}, tu promo: https://tienda.example.com/promo');
    await page.getByTestId('sms-warnings').getByText(/tienda\.example\.com/).waitFor();
    await context.close();
  });
});
