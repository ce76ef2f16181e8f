// In a real browser against the real product (sandbox SMSC: messages really go
// over SMPP and come back DELIVERED). A manager writes a campaign, pastes numbers in mixed formats
// instead of uploading a file (the box counts them as it goes), reads the validation counts, sends
// a test to one number and sees it delivered in the Tests tab, then launches: the deployment
// carries the pasted recipients only, never the test.
import { describe, it, expect } from 'vitest';
import { sessionToken, productAndBrowser } from './harness.ts';
import { api, campaignFirstStep, field, notificationsChannel, signedInPage } from './steps.ts';

const e2e = productAndBrowser();

describe('campaign recipients pasted, and a test send', () => {
  it('a manager pastes numbers, sees the counts, sends a test that is delivered, then launches', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');

    await campaignFirstStep(page, 'Pedidos pegados e2e');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByRole('textbox', { name: /^Contenido del mensaje/ }).fill('Tu pedido está listo para recoger.');
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
    const campaignId = Number(/campaigns\/(\d+)/.exec(page.url())![1]);

    // Instead of a file: paste numbers, one a line, with commas, semicolons and spaces, +57 or not.
    await page.getByRole('tabpanel').getByRole('button', { name: 'Pegar números' }).click();
    await page.waitForURL(`**/Campaigns/campaigns/${campaignId}/paste`);
    const box = page.getByRole('textbox', { name: /^Números/ });
    await box.fill('3157778811\n+57 315 777 8812, 573157778813; 315 777 8814 12345\n3157778811');
    const count = page.getByTestId('phone-list-count');
    await expect.poll(() => count.textContent()).toBe('Números leídos: 6');
    await page.getByRole('button', { name: 'Validar números' }).click();
    const result = page.getByTestId('form-result');
    await result.waitFor();
    await expect(await field(result, 'rows').textContent()).toBe('6');
    await expect(await field(result, 'pass').textContent()).toBe('1');
    await expect(await field(result, 'warn').textContent()).toBe('4');
    await expect(await field(result, 'fail').textContent()).toBe('1');
    await expect(await field(result, 'duplicates').textContent()).toBe('1');

    // The rows are the campaign's recipients, as a file's would be.
    await page.getByRole('link', { name: 'Ver los destinatarios' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${campaignId}\\?tab=1$`));
    await page.getByRole('tabpanel').getByRole('cell', { name: '+573157778814' }).waitFor();
    // Each row's problems in words, never the reader's codes (no raw value reaches a person).
    const rowsPanel = page.getByRole('tabpanel');
    await rowsPanel.getByText(/Número repetido en el archivo/).first().waitFor();
    await rowsPanel.getByText(/Teléfono no válido|Código de país no válido/).first().waitFor();
    expect(await rowsPanel.textContent()).not.toMatch(/\b(duplicatePhone|phoneNormalized|invalidPhone|invalidCountryCode)\b/);

    // A test to one number, before the launch: the Tests tab shows it delivered.
    await page.getByRole('button', { name: 'Enviar prueba' }).click();
    await page.waitForURL(`**/Campaigns/campaigns/${campaignId}/test`);
    await page.getByRole('textbox', { name: /^Números de prueba/ }).fill('315 777 8899');
    await expect.poll(() => page.getByTestId('phone-list-count').textContent()).toBe('Números leídos: 1');
    await page.getByRole('button', { name: 'Enviar prueba' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${campaignId}\\?tab=5$`));
    const tests = page.getByRole('tabpanel');
    await tests.getByRole('cell', { name: '+573157778899' }).waitFor();
    await tests.getByRole('cell', { name: 'Tu pedido está listo para recoger.' }).waitFor();
    await tests.getByText('Entregado', { exact: true }).first().waitFor({ timeout: 60_000 });

    // Launch: the pasted recipients go; the test is not part of the deployment.
    // The confirmation states the recipients, the credits the launch reserves and the balance.
    await page.getByRole('button', { name: 'Lanzar' }).click();
    const confirmation = page.getByRole('dialog');
    await confirmation.waitFor();
    expect(await confirmation.textContent()).toMatch(/los 4 destinatarios válidos y se reservarán [1-9][\d.]* créditos de su saldo de [1-9][\d.]*/);
    await confirmation.getByRole('button', { name: 'Lanzar' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${campaignId}\\?tab=3$`));
    await page.getByRole('tabpanel').getByRole('img', { name: /Entregados 4$/ }).waitFor({ timeout: 60_000 });
    const token = await sessionToken(page);
    const answer = await fetch(`${e2e.product.url}/v1/deployments?campaignId=${campaignId}`, { headers: { 'X-Auth-Token': token } });
    const runs = (await answer.json()) as { items: { total: number }[] };
    expect(runs.items.map((r) => r.total)).toEqual([4]);
    await context.close();
  });

  it('a saved list of numbers and ranges is kept, then fills a campaign\'s pasted recipients', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const token = await sessionToken(page);
    const campaign = await api(e2e.product, token, 'POST', '/v1/campaigns', { name: 'Lista guardada e2e', kind: 'open', purpose: 'transactional', channelId: await notificationsChannel(e2e.product, token), content: 'Hola.' });
    await page.goto('/profile/numberLists/new');
    await page.getByLabel(/^Nombre/).fill('Sede norte');
    await page.getByLabel(/^Números y rangos/).fill('315 777 8830-315 777 8832\n3157778840');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/profile/numberLists').catch(async (e) => {
      throw new Error(`${e}\n${page.url()}\n${await page.locator('main').innerText()}`);
    });
    await page.getByRole('row').filter({ hasText: 'Sede norte' }).waitFor().catch(async (e) => {
      throw new Error(`${e}\n${await page.locator('main').innerText()}`);
    });
    await page.goto(`/Campaigns/campaigns/${campaign.id}/paste`);
    await page.getByRole('combobox', { name: /^Lista guardada/ }).click();
    await page.getByRole('option', { name: 'Sede norte', exact: true }).click();
    await expect.poll(() => page.getByTestId('phone-list-count').textContent()).toBe('Números leídos: 4');
    await context.close();
  });
});
