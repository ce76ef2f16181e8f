// Events (/Campaigns/events) in a real browser against the real product: a manager defines an
// event (key, name, channel, message with {{variables}} in the SMS content widget), lands on its
// read-only view with the ready-to-copy example call, and finds it in the list; an analista,
// whom menu.yaml lets write campaigns (component 2001), sees the list and its New button too.
import { describe, it, expect } from 'vitest';
import { choose, productAndBrowser } from './harness.ts';
import { signedInPage } from './steps.ts';

const e2e = productAndBrowser();

describe('events', () => {
  it('a manager creates an event, sees its example call and finds it listed', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');

    await page.goto('/Campaigns/events');
    await page.getByText('Todavía no hay eventos').waitFor();
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.waitForURL('**/Campaigns/events/new');
    // Before the event exists, the example call says when it will appear.
    await page.getByText('Aparece cuando guardes.').waitFor();

    await page.getByLabel(/^Clave/).fill('pedido.enviado');
    await page.getByLabel(/^Nombre/).fill('Pedido enviado <b>hoy</b>');
    await choose(page, /^Canal/, 'SMS Notificaciones');
    const content = page.getByRole('textbox', { name: /^Contenido del mensaje/ });
    await content.fill('Hola {{nombre}}, tu pedido {{pedido}} va en camino.');
    await expect.poll(() => page.getByTestId('sms-counter').getByTestId('sms-parts').textContent()).toBe('1');
    await page.getByRole('button', { name: 'Guardar' }).click();

    // The read-only view with the example call, ready to copy.
    await page.waitForURL(/\/Campaigns\/events\/\d+$/);
    const call = page.getByTestId('code-root_exampleCall');
    await call.waitFor();
    const text = (await call.textContent()) ?? '';
    expect(text).toContain(`curl -X POST '${e2e.product.url}/v1/events/pedido.enviado/fire'`);
    expect(text).toContain('Authorization: Bearer $COLIBRI_API_KEY');
    expect(text).toContain('"variables":{"nombre":"valor","pedido":"valor"}');
    expect(await page.getByRole('button', { name: 'Copiar' }).isVisible()).toBe(true);

    // The list: key, name (HTML shown as text), channel, purpose, enabled, fired.
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL(/\/Campaigns\/events$/);
    const row = page.getByRole('row', { name: /pedido\.enviado/ });
    await row.waitFor();
    const cells = (await row.getByRole('cell').allTextContents()).map((c) => c.trim());
    expect(cells.slice(0, 4)).toEqual(['pedido.enviado', 'Pedido enviado <b>hoy</b>', 'SMS Notificaciones', 'Transaccional']);
    expect(cells).toContain('0');
    await context.close();
  });

  it('an analista sees the events and may create them (component 2001 in menu.yaml)', async () => {
    const { context, page } = await signedInPage(e2e, 'analista@demo.colibri.co');
    await page.goto('/Campaigns/events');
    await page.getByRole('row', { name: /pedido\.enviado/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Nuevo' }).isVisible()).toBe(true);
    await context.close();
  });
});
