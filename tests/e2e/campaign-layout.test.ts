// Layout and limits walked as a marketing coordinator: a click on "Crear campaña"
// right after fixing a field lands the first time; at 1366 px every action of a row or record is
// reachable without sideways scrolling and at 390 px the header stays one row with the title in
// view; a 5,280-character paste is kept whole and refused with the limit named; the channel form
// shows only the chosen platform's fields; the API credentials have a menu entry and creating a key
// adds nobody to the team.
import { describe, it, expect } from 'vitest';
import { newPage, signIn, choose, productAndBrowser } from './harness.ts';
import { campaignFirstStep, signedInPage } from './steps.ts';

const e2e = productAndBrowser();

describe('campaign layout', () => {
  it('the first click on "Crear campaña" after fixing the date lands', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await campaignFirstStep(page, 'Programada e2e clic', 'Programada');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByRole('textbox', { name: /^Contenido del mensaje/ }).fill('Su cita es mañana a las 9.');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    const date = page.getByLabel(/^Fecha de envío/);
    await date.waitFor();
    // Without the date the wizard refuses and says why under the field.
    const create = page.getByRole('button', { name: 'Crear campaña' });
    await create.click();
    await page.getByText(/obligatorio/i).first().waitFor();
    await page.screenshot({ path: '/tmp/wtl/lost-click-error.png' });
    // The fix, then one click: the campaign is created (the message leaving must not move the button away).
    await date.fill('2030-03-15T09:30');
    await create.click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/, { timeout: 5000 });
    await context.close();
  });

  it('at 390 px the header stays one row and the page title stays in view', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'manager@demo.colibri.co', { lands: '**/User' });
    await page.goto('/Campaigns/campaigns');
    const heading = page.getByRole('heading', { level: 1, name: 'Lista de campañas' });
    await heading.waitFor();
    const bar = (await page.getByTestId('header-row').boundingBox())!;
    // One row: the toolbar's height, and the page's own title below it, not under it.
    expect(bar.height).toBeLessThanOrEqual(72);
    const title = (await heading.boundingBox())!;
    expect(title.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    const headerTitle = (await page.getByTestId('page-title').boundingBox())!;
    expect(headerTitle.width).toBeGreaterThan(40);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The page's subtabs fit the phone: the tab list stays inside it and its last tab is reached and chosen.
    const tabs = page.getByRole('tablist', { name: 'Lista de campañas' });
    const list = (await tabs.boundingBox())!;
    expect(list.x + list.width).toBeLessThanOrEqual(390);
    const lastTab = tabs.getByRole('tab').last();
    await lastTab.click();
    await expect.poll(() => lastTab.getAttribute('aria-selected')).toBe('true');
    const tab = (await lastTab.boundingBox())!;
    expect(tab.x + tab.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The area and language are one button away.
    await page.getByRole('button', { name: /^Más opciones/ }).click();
    await page.getByRole('dialog', { name: /^Más opciones/ }).getByRole('combobox', { name: /^Área/ }).waitFor();
    await context.close();
  });

  it('a 5,280-character paste stays whole and is refused with the limit named; 4 parts or more warn', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await campaignFirstStep(page, 'Pegado largo e2e');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    const content = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    const pasted = 'Oferta válida hasta agotar existencias. '.repeat(132);
    await content.focus();
    await content.fill(pasted);
    // Nothing is cut: the box holds every character, and the counter says so.
    expect(((await content.inputValue()) ?? '').length).toBe(5280);
    await expect.poll(() => page.getByTestId('sms-characters').textContent()).toBe('5.280');
    const limit = page.getByTestId('sms-limit');
    await limit.getByText(/el máximo es 4\.096/).waitFor();
    // Creating is refused with the catalogue's words, and the campaign is not created.
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.getByText(/como máximo 4\.096 caracteres/).first().waitFor();
    expect(page.url()).toMatch(/\/Campaigns\/campaigns\/new$/);
    // Shorter but 12 SMS parts: over the 10-part maximum.
    await content.fill('a'.repeat(153 * 12));
    await limit.getByText(/12 partes y el máximo es 10/).waitFor();
    // 4 parts: allowed, with a warning about what each part costs.
    await content.fill('a'.repeat(153 * 4));
    await limit.getByText(/tendrá 4 partes/).waitFor();
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
    await context.close();
  });

  it('the channel form shows only the chosen platform\'s fields', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/profile/channels/new');
    await page.getByLabel(/^Nombre/).first().waitFor();
    const shown = async (label: RegExp) => (await page.getByLabel(label).count()) > 0;
    // No platform yet: none of the platform-specific fields.
    expect(await shown(/^ID de la página de Facebook/)).toBe(false);
    expect(await shown(/^Llave privada/)).toBe(false);
    await choose(page, /^Tipo de canal/, 'Facebook Messenger');
    await page.getByLabel(/^ID de la página de Facebook/).waitFor();
    expect(await shown(/^Remitente/)).toBe(false);
    expect(await shown(/^Código corto/)).toBe(false);
    expect(await shown(/^Llave privada/)).toBe(false);
    await choose(page, /^Tipo de canal/, 'SMS');
    await page.getByLabel(/^Código corto/).waitFor();
    expect(await shown(/^ID de la página de Facebook/)).toBe(false);
    expect(await shown(/^Correo del cliente/)).toBe(false);
    await context.close();
  });

  it('API credentials have a menu entry, and creating a key puts nobody on the team', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    await menu.getByRole('button', { name: 'Configuración' }).click();
    await menu.getByRole('button', { name: 'Permisos de API' }).click();
    await menu.getByRole('link', { name: 'Credenciales de API' }).click();
    await page.waitForURL('**/profile/apiPermissions');
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('ERP e2e');
    await page.getByRole('button', { name: 'Crear credencial' }).click();
    await expect.poll(() => page.getByTestId('secret-apiKey').inputValue()).toMatch(/^ck_/);
    await page.getByRole('button', { name: 'Ya lo guardé' }).click();
    await page.goto('/profile/management');
    await page.getByRole('cell', { name: 'manager@demo.colibri.co' }).waitFor();
    expect(await page.getByRole('cell', { name: 'API', exact: true }).count()).toBe(0);
    expect(await page.getByRole('cell', { name: /@api\.colibri\.invalid$/ }).count()).toBe(0);
    await context.close();
  });
});
