// The demo's phone in Chromium against the product as `npm start` runs it: from the conversations
// list a person opens the test phone, picks a number as people write it, writes MENU to the demo's
// reply SMS channel, and reads the bot's menu arrive as a received bubble with where it stands;
// the page is axe clean and its strings are the reader's language.
import { describe, expect, it } from 'vitest';
import { productAndBrowser } from './harness.ts';
import { seriousViolations, signedInPage } from './steps.ts';

const e2e = productAndBrowser();

describe('the sandbox phone', () => {
  it('a person writes MENU from a test phone and reads the bot answer as a handset shows it', async () => {
    const { context, page } = await signedInPage(e2e, 'superadmin@demo.colibri.co');
    await page.goto('/Agents/conversations');
    await page.getByRole('heading', { level: 1, name: 'Conversaciones' }).waitFor();
    await page.getByRole('button', { name: 'Probar desde un teléfono' }).or(page.getByRole('link', { name: 'Probar desde un teléfono' })).first().click();
    await page.getByRole('heading', { level: 1, name: 'Teléfono de pruebas' }).waitFor();
    await page.getByLabel('Número del teléfono').fill('300 111 0003');
    await page.getByRole('button', { name: 'Abrir' }).click();
    await page.getByRole('heading', { level: 2, name: '+573001110003' }).waitFor();
    await page.getByText('Este número todavía no ha recibido ni escrito mensajes.').waitFor();
    await page.getByRole('combobox', { name: 'Responder a' }).click();
    await page.getByRole('option', { name: /^SMS Respuestas 85432/ }).click();
    await page.getByLabel('Mensaje').fill('menu');
    await page.getByRole('button', { name: 'Enviar' }).click();
    const log = page.getByRole('log', { name: 'Conversación del teléfono' });
    await log.getByTestId('phone-line-in').filter({ hasText: 'menu' }).waitFor();
    // The bot's menu arrives over SMS as a received bubble, with its channel type.
    const menu = log.getByTestId('phone-line-out').filter({ hasText: '¿En qué te ayudo? Responde 1 Saldo, 2 Asesor o 3 Salir.' });
    await menu.waitFor({ timeout: 30_000 });
    expect(await menu.textContent()).toContain('SMS');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
