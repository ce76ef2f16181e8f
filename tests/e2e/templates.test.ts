// Templates (/Campaigns/Templates) in a real browser against the real product: the engine runs
// with the Graph stand-in, so a WhatsApp template really goes to "Meta" (POST
// /{waba-id}/message_templates through the demo's WhatsApp channel) and Meta's signed review comes
// back on our webhook route. A manager creates a WhatsApp template and watches it go from "En
// revisión" to "Aprobada" in the list (refreshed while a row is in review; the stand-in reviews
// after 5 s here), and writes an SMS template with the live part counter, which WhatsApp
// templates do without.
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { choose, sessionToken, productAndBrowser } from './harness.ts';
import { signedInPage } from './steps.ts';

const e2e = productAndBrowser({ env: { SANDBOX_TEMPLATE_REVIEW_MS: '5000' } });

const newTemplate = async (page: Page) => {
  await page.goto('/Campaigns/Templates');
  await page.getByRole('button', { name: 'Nuevo' }).or(page.getByRole('link', { name: 'Nuevo' })).first().click();
  await page.waitForURL('**/Campaigns/Templates/new');
};

describe('templates', () => {
  it('a manager creates a WhatsApp template and sees it go from in review to approved in the list', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await newTemplate(page);
    await page.getByLabel(/^Nombre/).fill('confirmacion_cita_e2e');
    // Meta's fields appear only for WhatsApp.
    await expect(await page.getByRole('combobox', { name: /^Categoría/ }).count()).toBe(0);
    await choose(page, /^Canal/, 'WhatsApp');
    await choose(page, /^Categoría/, 'Utilidad');
    await expect(await page.getByRole('textbox', { name: /^Idioma/ }).inputValue()).toBe('es');
    await page.getByRole('textbox', { name: /^Contenido del mensaje/ }).fill('Hola {{1}}, tu cita es el {{2}}. Te esperamos.');
    // No SMS parts on WhatsApp: characters and variables only.
    await page.getByText('Variables: 1, 2.').waitFor();
    await expect(await page.getByTestId('sms-parts').count()).toBe(0);
    await page.getByRole('button', { name: 'Guardar' }).click();

    // Saved and sent to Meta: the record, read-only, says it is in review; no Edit meanwhile.
    await page.waitForURL(/\/Campaigns\/Templates\/\d+$/);
    const id = Number(/Templates\/(\d+)$/.exec(page.url())![1]);
    await page.getByText('Plantilla guardada').waitFor();
    await page.getByRole('combobox', { name: /^Estado/ }).filter({ hasText: 'En revisión' }).waitFor();
    await expect(await page.getByTestId('form-mode').getByRole('button', { name: 'Editar' }).count()).toBe(0);

    // The list shows it in review, then (fetched again while a row is in review) approved.
    await page.getByRole('button', { name: 'Volver' }).or(page.getByRole('link', { name: 'Volver' })).first().click();
    await page.waitForURL(/\/Campaigns\/Templates$/);
    const row = page.getByRole('row').filter({ hasText: 'confirmacion_cita_e2e' });
    await row.getByText('En revisión').waitFor();
    await expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/confirmacion_cita_e2e WhatsApp Transaccional Utilidad es En revisión/);
    await row.getByText('Aprobada').waitFor({ timeout: 30_000 });

    // The server agrees, and the record now offers Edit.
    const token = await sessionToken(page);
    const answer = (await (await fetch(`${e2e.product.url}/v1/templates/${id}`, { headers: { 'X-Auth-Token': token } })).json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ status: 'APPROVED', category: 'UTILITY', language: 'es', channelName: 'WhatsApp Atención', providerTemplateId: expect.stringMatching(/^\d+$/) });
    await row.getByText('confirmacion_cita_e2e').click();
    await page.waitForURL(new RegExp(`/Campaigns/Templates/${id}$`));
    await page.getByTestId('form-mode').getByRole('button', { name: 'Editar' }).waitFor();
    await context.close();
  });

  it('an SMS template shows the part counter while it is written', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await newTemplate(page);
    await page.getByLabel(/^Nombre/).fill('aviso_saldo_e2e');
    const content = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    await content.fill(`Hola {{nombre}}, tu saldo es {{saldo}}. ${'Gracias por preferirnos. '.repeat(6)}`);
    const counter = page.getByTestId('sms-counter');
    await expect.poll(() => counter.getByTestId('sms-parts').textContent()).toBe('2');
    await expect(await counter.getByTestId('sms-encoding').textContent()).toBe('GSM-7');
    await expect(await counter.getByTestId('sms-characters').textContent()).toBe('190');
    // One character outside GSM-7 turns the message into UCS-2 (70 per part, 67 when split).
    await content.fill('Hola {{nombre}}, ¿cómo estás?');
    await expect.poll(() => counter.getByTestId('sms-encoding').textContent()).toBe('UCS-2');
    await expect(await counter.getByTestId('sms-parts').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/Campaigns\/Templates\/\d+$/);
    // No review for SMS: approved at once, without Meta's fields.
    await page.getByRole('button', { name: 'Volver' }).or(page.getByRole('link', { name: 'Volver' })).first().click();
    const row = page.getByRole('row').filter({ hasText: 'aviso_saldo_e2e' });
    await row.getByText('Aprobada').waitFor();
    await expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/aviso_saldo_e2e SMS Transaccional — — Aprobada/);
    await context.close();
  });
});
