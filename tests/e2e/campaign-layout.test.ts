// Issue 12 §5 (layout and limits) walked as a marketing coordinator: a click on "Crear campaña"
// right after fixing a field lands the first time; at 1366 px every action of a row or record is
// reachable without sideways scrolling and at 390 px the header stays one row with the title in
// view; a 5,280-character paste is kept whole and refused with the limit named; the channel form
// shows only the chosen platform's fields; the API credentials have a menu entry and creating a key
// adds nobody to the team.
import { describe, it, expect } from 'vitest';
import { newPage, signIn, choose, productAndBrowser } from './harness.ts';

const e2e = productAndBrowser();

describe('campaign layout', () => {
  it('the first click on "Crear campaña" after fixing the date lands', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'manager@demo.colibri.co', { lands: '**/User' });
    await page.goto('/Campaigns/campaigns/new');
    await page.getByLabel(/^Nombre/).fill('Programada e2e clic');
    await choose(page, /^Tipo/, 'Programada');
    await choose(page, /^Propósito/, 'Transaccional');
    await choose(page, /^Canal/, 'SMS Notificaciones');
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
});
