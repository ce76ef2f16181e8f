// Scheduling and links walked as a marketing coordinator: a scheduled campaign reads
// as one (its date in the list and the detail, "Programar para el …", the run it makes waits with
// "Enviar ahora" and not "Reanudar", which only a paused run offers) and the default list does not
// hide it; at 1366 px each action of the run is reachable without sideways scrolling. Short links
// from the wizard: "Acortar" replaces a pasted URL in place, short links can be copied, and the
// campaign's opens give the click rate and which recipients clicked.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { newPage, signIn, choose, sessionToken, productAndBrowser } from './harness.ts';
import { api, campaignFirstStep, field, notificationsChannel, signedInPage } from './steps.ts';

const e2e = productAndBrowser();
let files: string;
beforeAll(() => { files = mkdtempSync(join(tmpdir(), 'colibri-schedule-')); });
afterAll(() => { if (files) rmSync(files, { recursive: true, force: true }); });

/** Writes a campaign through the wizard and uploads its recipients; answers its id. */
async function writeCampaign(page: Page, name: string, kind: 'Programada' | 'Abierta (ahora)', content: string, date?: string): Promise<number> {
  await page.goto('/Campaigns/campaigns/new');
  await page.getByLabel(/^Nombre/).fill(name);
  await choose(page, /^Tipo/, kind);
  await choose(page, /^Propósito/, 'Transaccional');
  await choose(page, /^Canal/, 'SMS Notificaciones');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByRole('textbox', { name: /^Contenido del mensaje/ }).fill(content);
  if (date) {
    await page.getByRole('button', { name: 'Siguiente' }).click();
    await page.getByLabel(/^Fecha de envío/).fill(date);
  }
  await page.getByRole('button', { name: 'Crear campaña' }).click();
  await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
  const id = Number(/campaigns\/(\d+)/.exec(page.url())![1]);
  const csv = join(files, `${id}.csv`);
  writeFileSync(csv, 'telefono;nombre\n3157778811;Ana\n3157778812;Luis\n');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('tabpanel').getByRole('button', { name: 'Subir destinatarios' }).click()]);
  await chooser.setFiles(csv);
  await page.getByTestId('action-result').waitFor();
  return id;
}

describe('a scheduled campaign', () => {
  it('reads as one in the list, the detail and its run; Reanudar only on a paused run; actions reachable at 1366 px', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await page.setViewportSize({ width: 1366, height: 768 });
    await signIn(page, 'manager@demo.colibri.co', { lands: '**/User' });
    const id = await writeCampaign(page, 'Recordatorio cita e2e', 'Programada', 'Su cita es el lunes a las 9.', '2030-03-15T09:30');

    // The default list (first subtab) shows it, with its date.
    await page.goto('/Campaigns/campaigns');
    const row = page.getByRole('row', { name: /Recordatorio cita e2e/ });
    await row.waitFor();
    await row.getByText('2030/03/15 9:30am').waitFor();

    // The detail names the date, and its launch says what it does.
    await page.goto(`/Campaigns/campaigns/${id}`);
    const general = page.getByRole('tabpanel');
    await field(general, 'scheduledAt').getByText('2030/03/15 9:30am').waitFor();
    // A Friday morning, inside the send window: it goes when scheduled, and the detail says so.
    expect(await field(general, 'firstSendAt').textContent()).toBe('2030/03/15 9:30am');
    await expect(await page.getByRole('button', { name: 'Lanzar', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Programar para el 2030/03/15 9:30am' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/saldrán el 2030\/03\/15 9:30am/).waitFor();
    await dialog.getByRole('button', { name: 'Programar para el 2030/03/15 9:30am' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${id}\\?tab=3$`));

    // The run waits for its date: it can be sent now, paused, cancelled or deleted, not "resumed".
    const runs = page.getByRole('tabpanel');
    const run = runs.getByRole('row').nth(1);
    await run.getByText('Programado', { exact: true }).waitFor();
    await run.getByText('2030/03/15 9:30am').waitFor();
    await expect(await run.getByRole('button', { name: 'Reanudar' }).count()).toBe(0);
    // At 1366 px every action of the row is in view: as a button or in the row's "Más acciones" menu.
    // The runs' table scroller, read from the page (an open menu hides the rest from the accessibility tree).
    const scroller = () => page.evaluate(() => {
      const el = document.querySelector('[role="tabpanel"] table')!.parentElement!;
      return { left: el.scrollLeft, right: el.getBoundingClientRect().right };
    });
    // Pressed where it is seen, as a person does (a scripted click would scroll the table first).
    const press = async (control: ReturnType<Page['locator']>) => {
      const b = (await control.boundingBox())!;
      await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
    };
    const visible = async (name: string) => {
      const button = run.getByRole('button', { name, exact: true });
      if (await button.count()) return button;
      await press(run.getByRole('button', { name: 'Más acciones' }));
      return page.getByRole('menuitem', { name, exact: true });
    };
    for (const name of ['Enviar ahora', 'Pausar', 'Cancelar envío', 'Eliminar']) {
      const control = await visible(name);
      await control.waitFor();
      const box = (await control.boundingBox())!;
      const table = await scroller();
      expect(table.left).toBe(0);
      const inMenu = (await page.getByRole('menuitem', { name }).count()) > 0;
      // A button in the row is inside the table's visible part; a menu entry inside the window.
      expect(box.x + box.width, `${name} is in view`).toBeLessThanOrEqual((inMenu ? 1366 : table.right) + 1);
      if (inMenu) {
        await page.keyboard.press('Escape');
        // Gone from the page, not only from the accessibility tree (its closing layer would take the next press).
        await page.locator('.MuiMenu-root').waitFor({ state: 'detached' });
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);

    // Paused, it offers "Reanudar" (and no longer "Enviar ahora").
    await press(await visible('Pausar'));
    await run.getByText('En pausa', { exact: true }).waitFor();
    await (await visible('Reanudar')).waitFor();
    await expect(await page.getByRole('menuitem', { name: 'Enviar ahora' }).count() + await run.getByRole('button', { name: 'Enviar ahora' }).count()).toBe(0);
    await context.close();
  });
});

describe('short links from the wizard', () => {
  it('"Acortar" replaces a pasted URL in place; the link can be copied; the opens say the click rate and who clicked', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, 'manager@demo.colibri.co', { lands: '**/User' });
    await campaignFirstStep(page, 'Promo acortada e2e');
    await page.getByRole('button', { name: 'Siguiente' }).click();
    const content = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    await content.fill('Hola {{nombre}}, tu promo: https://tienda.example.com/promo?utm=sms hoy');
    await page.getByRole('button', { name: /^Acortar https:\/\/tienda\.example\.com\/promo\?utm=sms/ }).click();
    // In place: the rest of the text as it was, the URL now our short link, and nothing to warn about.
    await expect.poll(() => content.inputValue()).toMatch(/^Hola \{\{nombre\}\}, tu promo: http:\/\/(localhost|127\.0\.0\.1):\d+\/s\/[0-9A-Za-z]{7} hoy$/);
    await page.getByTestId('sms-warnings').waitFor({ state: 'detached' });
    const shortUrl = /(http:\S+\/s\/[0-9A-Za-z]{7})/.exec(await content.inputValue())![1];
    await page.getByRole('button', { name: 'Crear campaña' }).click();
    await page.waitForURL(/\/Campaigns\/campaigns\/\d+\?tab=1$/);
    const id = Number(/campaigns\/(\d+)/.exec(page.url())![1]);

    // The campaign's short link in the shortener's list, with its Copy button.
    await page.goto('/Campaigns/campaigns/shorten');
    await page.getByLabel(/^URL/).first().fill('https://tienda.example.com/otra');
    await page.getByRole('button', { name: 'Acortar' }).click();
    const result = page.getByTestId('form-result');
    const copied = (await result.locator('dd[data-field="shortUrl"]').textContent())!.trim();
    await result.getByRole('button', { name: `Copiar ${copied}` }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(copied);

    // Recipients, launch, and one recipient opens their own link in a browser.
    const csv = join(files, `links-${id}.csv`);
    writeFileSync(csv, 'telefono;nombre\n3157778821;Ana\n3157778822;Luis\n');
    await page.goto(`/Campaigns/campaigns/${id}?tab=1`);
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('tabpanel').getByRole('button', { name: 'Subir destinatarios' }).click()]);
    await chooser.setFiles(csv);
    await page.getByTestId('action-result').waitFor();
    await page.getByRole('button', { name: 'Lanzar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Lanzar' }).click();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${id}\\?tab=3$`));
    const token = await sessionToken(page);
    const answer = await fetch(`${e2e.product.url}/v1/campaigns/${id}/messages`, { headers: { 'X-Auth-Token': token } });
    const bodies = ((await answer.json()) as { items: { toNumber: string; body: string }[] }).items;
    const ana = bodies.find((m) => m.toNumber.endsWith('3157778821'))!;
    const own = /(http:\S+\/s\/[0-9A-Za-z]+)/.exec(ana.body)![1];
    expect(own).not.toBe(shortUrl);
    // Ana, on her phone's browser (a headless browser would count as a bot), opens it.
    const phone = await e2e.browser.newContext({ userAgent: 'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36' });
    const visitor = await phone.newPage();
    // The shop is outside this machine: the click is what counts, not where it leads.
    await visitor.goto(own.replace('//localhost:', '//127.0.0.1:')).catch(() => undefined);
    await phone.close();

    // Opens: 1 of 2 recipients, 50 %; who clicked: Ana's number.
    await page.getByRole('tab', { name: 'Aperturas' }).click();
    const opens = page.getByRole('tabpanel');
    await expect.poll(async () => {
      await page.getByRole('tab', { name: 'Ejecuciones' }).click();
      await page.getByRole('tab', { name: 'Aperturas' }).click();
      return opens.locator('dd[data-field="clickRate"]').textContent();
    }).toMatch(/^50\s?%$/);
    await page.getByRole('tab', { name: 'Quién hizo clic' }).click();
    await page.getByRole('tabpanel').getByRole('cell', { name: ana.toNumber }).waitFor();
    expect(await page.getByRole('tabpanel').getByRole('cell', { name: /3157778822/ }).count()).toBe(0);
    await context.close();
  });
});

describe('a batch of numbers of a run', () => {
  it('cancels the messages of the numbers written, as people write them, from the run\'s row; an eleventh number is refused', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const token = await sessionToken(page);
    const campaign = await api(e2e.product, token, 'POST', '/v1/campaigns', {
      name: 'Lote de números e2e', kind: 'scheduled', purpose: 'transactional', channelId: await notificationsChannel(e2e.product, token),
      content: 'Su cita es el viernes.', scheduledAt: '2030-03-15T14:30:00.000Z',
    });
    const file = new FormData();
    file.append('file', new Blob(['telefono\n3004440201\n3004440202\n3004440203\n'], { type: 'text/csv' }), 'clientes.csv');
    await api(e2e.product, token, 'POST', `/v1/campaigns/${campaign.id}/recipients`, file);
    const run = await api(e2e.product, token, 'POST', `/v1/campaigns/${campaign.id}/launch`);
    await expect.poll(async () => (await api(e2e.product, token, 'GET', `/v1/deployments/${run.id}`)).state, { timeout: 30_000 }).toBe('scheduled');

    await page.goto(`/Campaigns/campaigns/${campaign.id}?tab=3`);
    const row = page.getByRole('tabpanel').getByRole('row').nth(1);
    await row.getByText('Programado', { exact: true }).waitFor();
    const inRow = row.getByRole('button', { name: 'Cancelar números', exact: true });
    if (await inRow.count()) await inRow.click();
    else {
      await row.getByRole('button', { name: 'Más acciones' }).click();
      await page.getByRole('menuitem', { name: 'Cancelar números', exact: true }).click();
    }
    await page.getByRole('heading', { level: 1, name: 'Números de un envío' }).waitFor();
    // Only a move to later asks when.
    expect(await page.getByLabel(/^Fecha y hora/).count()).toBe(0);
    const numbers = page.getByLabel(/^Números/);
    for (const n of ['300 444 0201', '+57 300 444 0203']) {
      await numbers.fill(n);
      await numbers.press('Enter');
    }
    await page.getByRole('button', { name: 'Aplicar a estos números' }).click();
    await page.getByText(/^Hecho: se aplicó a los mensajes de esos números/).waitFor();
    await page.waitForURL(new RegExp(`/Campaigns/campaigns/${campaign.id}\\?tab=3$`));
    // The run's progress counts them.
    await row.getByText(/Cancelados 2/).waitFor();
    const messages = (await api(e2e.product, token, 'GET', `/v1/campaigns/${campaign.id}/messages?pageSize=50`)) as { items: { toNumber: string; state: string }[] };
    const states = Object.fromEntries(messages.items.map((m) => [m.toNumber, m.state]));
    expect(states).toMatchObject({ '+573004440201': 'cancelled', '+573004440202': 'queued', '+573004440203': 'cancelled' });

    // Eleven numbers: the form refuses the eleventh before anything is sent.
    await page.goto(`/Campaigns/campaigns/${campaign.id}/runs/${run.id}/numbers?action=cancel`);
    await page.getByRole('heading', { level: 1, name: 'Números de un envío' }).waitFor();
    for (let i = 10; i <= 20; i++) {
      await numbers.fill(`30044402${i}`);
      await numbers.press('Enter');
    }
    await page.getByRole('button', { name: 'Aplicar a estos números' }).click();
    await page.getByText('Elige como máximo 10.').first().waitFor();
    expect(new URL(page.url()).pathname).toBe(`/Campaigns/campaigns/${campaign.id}/runs/${run.id}/numbers`);
    await context.close();
  });
});
