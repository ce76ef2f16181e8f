// A campaign that starts from a template (config/screens/campaign-wizard.yaml, campaign-form.yaml:
// the template picker is `x-options.fill`) in a real browser against the real product. A manager
// writes an SMS template, starts a campaign on the demo's SMS channel, chooses the template (only
// approved templates of the channel's type are offered: the demo's WhatsApp template is not), sees
// the message and the purpose filled, edits the text and saves; the campaign holds the edited text.
// Editing the campaign, another template refills the message.
import { describe, it, expect } from 'vitest';
import { choose, sessionToken, productAndBrowser } from './harness.ts';
import { signedInPage } from './steps.ts';

const e2e = productAndBrowser();

describe('campaign from a template', () => {
  it('a manager writes a template, starts a campaign from it, edits the filled text and saves', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');

    // The template (SMS needs no review: approved at once).
    const text = 'Hola {{nombre}}, tu pedido {{pedido}} ya salió. Gracias por comprar.';
    await page.goto('/Campaigns/Templates/new');
    await page.getByLabel(/^Nombre/).fill('pedido_enviado_e2e');
    await page.getByRole('textbox', { name: /^Contenido del mensaje/ }).fill(text);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/Campaigns\/Templates\/\d+$/);
    await page.getByText('Plantilla guardada').waitFor();

    // The campaign wizard: commercial by default, on the SMS channel.
    await page.goto('/Campaigns/campaigns');
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.waitForURL('**/Campaigns/campaigns/new');
    await page.getByLabel(/^Nombre/).fill('Pedidos enviados e2e');
    await choose(page, /^Canal/, 'SMS Notificaciones');
    await page.getByRole('button', { name: 'Siguiente' }).click();

    // The picker offers the approved SMS templates only, and is used with the keyboard.
    const picker = page.getByRole('combobox', { name: /^Plantilla/ });
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    const other = page.getByRole('option', { name: 'recordatorio_pago', exact: true });
    await other.waitFor();
    await page.getByRole('option', { name: 'pedido_enviado_e2e', exact: true }).waitFor();
    await expect(await page.getByRole('option', { name: 'colibri_aviso', exact: true }).count()).toBe(0);
    // Typed: the server searches the names.
    await picker.pressSequentially('pedido_env');
    await other.waitFor({ state: 'detached' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');

    // The message and the purpose come from the template; the counter reads the text.
    const content = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    await expect.poll(() => content.inputValue()).toBe(text);
    await page.getByText('Campos llenados con la opción elegida: Contenido del mensaje, Propósito. Puedes editarlos.').waitFor();
    await expect(await page.getByTestId('sms-characters').textContent()).toBe(String([...text].length));
    await page.getByText('Variables: nombre, pedido', { exact: false }).waitFor();

    // The text stays the user's: edited, then saved.
    await content.fill(`${text} Te avisamos al entregar.`);
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
    const id = Number(/campaigns\/(\d+)/.exec(page.url())![1]);

    const token = await sessionToken(page);
    const saved = (await (await fetch(`${e2e.product.url}/v1/campaigns/${id}`, { headers: { 'X-Auth-Token': token } })).json()) as Record<string, unknown>;
    // The template's purpose (transactional) replaced the wizard's commercial prefill.
    expect(saved).toMatchObject({ name: 'Pedidos enviados e2e', purpose: 'transactional', platform: 'sms', content: `${text} Te avisamos al entregar.`, variables: ['nombre', 'pedido'] });

    // Editing the campaign: the channel's type comes with the record, and another template refills the message.
    await page.goto(`/Campaigns/campaigns/${id}/edit`);
    const editContent = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    await expect.poll(() => editContent.inputValue()).toBe(`${text} Te avisamos al entregar.`);
    await choose(page, /^Plantilla/, 'recordatorio_pago');
    await expect.poll(() => editContent.inputValue()).toMatch(/^Hola \{\{nombre\}\}, tu factura \{\{factura\}\} vence el \{\{fecha\}\}/);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${id}$`));
    const edited = (await (await fetch(`${e2e.product.url}/v1/campaigns/${id}`, { headers: { 'X-Auth-Token': token } })).json()) as Record<string, unknown>;
    expect(edited.content).toMatch(/^Hola \{\{nombre\}\}, tu factura \{\{factura\}\} vence el \{\{fecha\}\}/);
    await context.close();
  });
});
