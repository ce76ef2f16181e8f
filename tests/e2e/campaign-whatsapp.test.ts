// WhatsApp campaigns in a real browser against the real product, whose WhatsApp
// channel talks to the Graph stand-in. A manager creates a campaign on the demo's WhatsApp channel
// from the approved template colibri_aviso ("Hola {{1}}, tu pedido {{2}} va en camino…"), uploads
// a CSV whose columns are telefono,nombre,pedido (none named "1" or "2"), reads in the summary
// that both parameters lack a column, maps {{1}} → nombre and {{2}} → pedido on the campaign's
// edit page, launches, and sees both messages delivered as template messages. A free-text
// WhatsApp campaign to people who never wrote is predicted in the summary with Meta's 131047 in
// words, and its launch is refused in words before anything is created.
import { describe, it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { choose, sessionToken, productAndBrowser } from './harness.ts';
import { field, scratchFolder, signedInPage } from './steps.ts';

const e2e = productAndBrowser();
const files = scratchFolder('colibri-whatsapp-');

/** The wizard's first step on the demo's WhatsApp channel, then the message step. */
async function startWhatsAppCampaign(page: Page, name: string): Promise<void> {
  await page.goto('/Campaigns/campaigns');
  await page.getByRole('button', { name: 'Nuevo' }).click();
  await page.waitForURL('**/Campaigns/campaigns/new');
  await page.getByLabel(/^Nombre/).fill(name);
  await choose(page, /^Propósito/, 'Transaccional');
  await choose(page, /^Canal/, 'WhatsApp Atención');
  await page.getByRole('button', { name: 'Siguiente' }).click();
}

/** Uploads a CSV from the recipients tab and waits for its counts. */
async function upload(page: Page, fileName: string, text: string): Promise<void> {
  const csv = join(files.path, fileName);
  writeFileSync(csv, text);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('tabpanel').getByRole('button', { name: 'Subir destinatarios' }).click()]);
  await chooser.setFiles(csv);
  await page.getByTestId('action-result').waitFor();
}

async function launch(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Lanzar' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Lanzar' }).click();
}

describe('WhatsApp campaigns', () => {
  it('a manager sends the approved template, mapping its parameters to the columns of the file, and the messages are delivered', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await startWhatsAppCampaign(page, 'Pedidos en camino e2e');
    await choose(page, /^Plantilla/, 'colibri_aviso');
    const content = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    await expect.poll(() => content.inputValue()).toMatch(/^Hola \{\{1\}\}, tu pedido \{\{2\}\} va en camino/);
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
    const campaignId = Number(/campaigns\/(\d+)/.exec(page.url())![1]);

    // The file names its columns as the business does: no column "1" or "2" is asked for.
    await upload(page, 'pedidos.csv', 'telefono,nombre,pedido\n3158880101,Ana,A-100\n3158880102,Luis,B-200\n');
    const result = page.getByTestId('action-result');
    await expect(await field(result, 'pass').textContent()).toBe('2');

    // The summary names the parameters still without a column.
    await page.getByRole('tab', { name: 'Resumen antes de enviar' }).click();
    const preview = page.getByRole('tabpanel');
    const unmapped = field(preview, 'unmappedParameters');
    await unmapped.getByText('1', { exact: true }).waitFor();
    await unmapped.getByText('2', { exact: true }).waitFor();
    // The checklist puts it first, as what stops the launch; the samples say which parameter lacks its column.
    await preview.getByTestId('checklist').locator('li[data-tone="error"]').filter({ hasText: 'Parámetros de la plantilla sin columna del archivo: 1, 2' }).waitFor();
    await field(preview, 'samples').getByText(/Hola \[1\], tu pedido \[2\]/).first().waitFor();

    // The campaign's edit page: one select of the file's columns per parameter.
    await page.goto(`/Campaigns/campaigns/${campaignId}/edit`);
    await choose(page, /^Columna para \{\{1\}\}/, 'nombre');
    await choose(page, /^Columna para \{\{2\}\}/, 'pedido');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${campaignId}$`));
    await page.getByText('colibri_aviso', { exact: true }).waitFor();

    // Nothing is left unmapped; both go now.
    await page.getByRole('tab', { name: 'Resumen antes de enviar' }).click();
    const summary = page.getByRole('tabpanel');
    await field(summary, 'goNow').getByText('2', { exact: true }).waitFor();
    // Nothing left to map: the fact is not listed at all, nor any line that stops the launch.
    await expect(await field(summary, 'unmappedParameters').count()).toBe(0);
    await expect(await summary.getByTestId('checklist').locator('li[data-tone="error"]').count()).toBe(0);
    await expect(await field(summary, 'outsideWindow').textContent()).toBe('0');

    // Launch: the run ends processed with both messages delivered (read receipts follow).
    await launch(page);
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${campaignId}\\?tab=3$`));
    const runs = page.getByRole('tabpanel');
    await runs.getByText('Procesado', { exact: true }).waitFor({ timeout: 60_000 });
    const token = await sessionToken(page);
    const deployments = (await (await fetch(`${e2e.product.url}/v1/deployments?campaignId=${campaignId}`, { headers: { 'X-Auth-Token': token } })).json()) as { items: { counts: Record<string, number> }[] };
    const counts = deployments.items[0].counts;
    expect([(counts.delivered ?? 0) + (counts.read ?? 0), counts.failed]).toEqual([2, 0]);

    // Each recipient's message as they got it: the template with their own values.
    const sent = (await (await fetch(`${e2e.product.url}/v1/campaigns/${campaignId}/messages`, { headers: { 'X-Auth-Token': token } })).json()) as { items: { body: string }[] };
    expect(sent.items.map((m) => m.body).sort()).toEqual([
      'Hola Ana, tu pedido A-100 va en camino. Gracias por comprar con nosotros.',
      'Hola Luis, tu pedido B-200 va en camino. Gracias por comprar con nosotros.',
    ]);
    await context.close();
  });

  it('free text to people who have not written in 24 hours is predicted with 131047 in words and refused at launch', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await startWhatsAppCampaign(page, 'Texto libre WhatsApp e2e');
    await page.getByRole('textbox', { name: /^Contenido del mensaje/ }).fill('Hola {{nombre}}, tenemos novedades para ti.');
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
    const campaignId = Number(/campaigns\/(\d+)/.exec(page.url())![1]);
    await upload(page, 'novedades.csv', 'telefono,nombre\n3158880201,Marta\n3158880202,Pedro\n');

    await page.getByRole('tab', { name: 'Resumen antes de enviar' }).click();
    const preview = page.getByRole('tabpanel');
    await field(preview, 'outsideWindow').getByText('2', { exact: true }).waitFor();
    await expect(await field(preview, 'windowCode').textContent()).toBe('Mensaje de re-contacto: pasaron más de 24 horas desde la última respuesta (131047).');

    await launch(page);
    await page.getByText(/WhatsApp no entrega texto libre a quien no te ha escrito en las últimas 24 horas: Meta lo rechaza con el código 131047/).waitFor();
    const token = await sessionToken(page);
    const deployments = (await (await fetch(`${e2e.product.url}/v1/deployments?campaignId=${campaignId}`, { headers: { 'X-Auth-Token': token } })).json()) as { items: unknown[] };
    expect(deployments.items).toEqual([]);
    await context.close();
  });
});
