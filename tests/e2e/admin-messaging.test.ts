// Company administration screens declared in YAML, in a real browser against
// the real product: a manager creates and enables a channel and runs the try-channel test; an
// analista reads channels but may not change them (the console hides the actions, the server
// refuses with 99982); the block list's 24-hour rule as the screen shows it; an API credential's
// key is shown once.
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, productAndBrowser } from './harness.ts';
import { signedInPage } from './steps.ts';

const e2e = productAndBrowser();

const DAY = 24 * 60 * 60 * 1000;

/** Picks an option of an MUI select by the field's label. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A "YYYY/MM/DD h:mma" date-time as the console shows it, read in the browser's own time zone. */
async function shownInstant(page: Page, text: string): Promise<number> {
  return page.evaluate((t) => {
    const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{1,2}):(\d{2})(am|pm)$/.exec(t.trim());
    if (!m) return Number.NaN;
    const hour = (Number(m[4]) % 12) + (m[6] === 'pm' ? 12 : 0);
    return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), hour, Number(m[5])).getTime();
  }, text);
}

/** The server's answer to a call made with a demo user's own token (what a hand-made request gets). */
async function apiAs(email: string, method: string, path: string, body?: unknown): Promise<{ status: number; code?: string }> {
  const signin = await fetch(`${e2e.product.url}/v1/clientAuth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
  const { clientToken } = (await signin.json()) as { clientToken: string };
  const { token } = JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as { token: string };
  const res = await fetch(`${e2e.product.url}${path}`, { method, headers: { 'content-type': 'application/json', 'X-Auth-Token': token }, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await res.json().catch(() => ({}))) as { code?: string };
  return { status: res.status, code: answer.code };
}

describe('channels', () => {
  it('a manager creates an SMS channel, enables it and runs the try-channel test (DELIVERED)', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/profile/channels');
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.waitForURL('**/profile/channels/new');

    await page.getByLabel(/^Nombre/).fill('SMS Cobranza');
    await choose(page, 'Tipo de canal', 'SMS');
    await choose(page, 'Tipo', 'MT (una vía)');
    await page.getByLabel(/^Remitente/).fill('+573004445566');
    await page.getByLabel(/^Token de autorización/).fill('sandbox-token-cobranza-2026');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/channels');

    const row = page.getByRole('row', { name: /SMS Cobranza/ });
    await row.waitFor();
    await row.getByRole('button', { name: 'Habilitar' }).click();
    await page.getByText('Canal habilitado.').waitFor();
    await row.getByRole('button', { name: 'Deshabilitar' }).waitFor();
    expect(await row.getByText('Sí', { exact: true }).count()).toBe(1);

    // A second channel with the same name (any case): the catalogue's 99987 on the name field.
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('sms cobranza');
    await choose(page, 'Tipo de canal', 'SMS');
    await choose(page, 'Tipo', 'MT (una vía)');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Ya existe un canal con ese nombre.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/profile/channels/new');
    // Leaving with unsaved changes asks first.
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('dialog', { name: 'Tienes cambios sin guardar' }).getByRole('button', { name: 'Salir sin guardar' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/channels');

    // The detail: the token is masked, then the try-channel test answers its delivery status.
    await page.getByRole('row', { name: /SMS Cobranza/ }).getByText('SMS Cobranza').click();
    await page.waitForURL(/\/profile\/channels\/\d+$/);
    await page.getByRole('tab', { name: 'Credenciales' }).click();
    const token = page.locator('[data-field="authorizationToken"]');
    await expect.poll(() => token.textContent()).toMatch(/^••••/);
    expect(await page.getByText('sandbox-token-cobranza-2026').count()).toBe(0);

    await page.getByRole('button', { name: 'Probar canal' }).click();
    await page.waitForURL(/\/profile\/channels\/\d+\/try$/);
    await page.getByLabel(/^Destinatario/).fill('3001234567');
    await page.getByRole('button', { name: 'Enviar prueba' }).click();
    // The result has its own box under the form (translated status), not the "shown once" copy box.
    await page.getByTestId('form-result').locator('[data-field=status]').getByText('Entregado').waitFor();
    expect(await page.getByTestId('secret-status').count()).toBe(0);
    await context.close();
  });

  it('an analista sees the channels without New, Edit or Delete, and the server refuses a change (99982)', async () => {
    const { context, page } = await signedInPage(e2e, 'analista@demo.colibri.co');
    await page.goto('/profile/channels');
    await page.getByRole('row', { name: /SMS Notificaciones/ }).waitFor();
    for (const name of ['Nuevo', 'Editar', 'Eliminar', 'Habilitar', 'Deshabilitar']) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    }
    // Straight to the create form: the form is drawn, the server says no.
    await page.goto('/profile/channels/new');
    await page.getByLabel(/^Nombre/).fill('Canal del analista');
    await choose(page, 'Tipo de canal', 'SMS');
    await choose(page, 'Tipo', 'MT (una vía)');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('No tienes permisos suficientes para esta acción.').waitFor();
    await context.close();

    expect(await apiAs('analista@demo.colibri.co', 'POST', '/v1/channels', { name: 'Canal del analista', platform: 'sms', type: 'MT' })).toEqual({ status: 403, code: '99982' });
    expect(await apiAs('analista@demo.colibri.co', 'POST', '/v1/channels/1/disable')).toEqual({ status: 403, code: '99982' });
  });
});

describe('block list', () => {
  it('a number added today is pending and its effective date is 24 hours later; refused values say why', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/profile/blockList');
    await page.getByRole('button', { name: 'Agregar números' }).click();
    await page.waitForURL('**/profile/blockList/add');
    await page.getByLabel(/^Números/).fill('315 765 4321, 12345');
    const before = Date.now();
    await page.getByRole('button', { name: 'Agregar', exact: true }).click();
    const refused = page.getByRole('row', { name: /12345/ });
    await refused.waitFor();
    const after = Date.now();
    expect(await refused.getByText('Número no válido').count()).toBe(1);

    await page.goto('/profile/blockList?status=pending');
    const row = page.getByRole('row', { name: /\+573157654321/ });
    await row.waitFor();
    expect(await row.getByText('Pendiente', { exact: true }).count()).toBe(1);
    const cells = await row.locator('td').allTextContents();
    const instants = await Promise.all(cells.map((c) => shownInstant(page, c)));
    const [created, effective] = instants.filter((n) => !Number.isNaN(n));
    // Shown to the minute: the effective date is the addition plus 24 hours, the addition is now.
    expect(effective - created).toBe(DAY);
    expect(effective).toBeGreaterThanOrEqual(Math.floor(before / 60000) * 60000 + DAY - 60000);
    expect(effective).toBeLessThanOrEqual(after + DAY);
    await context.close();
  });
});

describe('API credentials', () => {
  it('a new key is shown once: after closing the box the list shows it masked and nothing shows it again', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/profile/apiPermissions');
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('Integración ERP');
    await page.getByRole('button', { name: 'Crear credencial' }).click();

    const box = page.getByRole('dialog', { name: 'Guarda este dato ahora' });
    await box.waitFor();
    const key = await box.getByTestId('secret-apiKey').inputValue();
    expect(key).toMatch(/^ck_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{20,}$/);
    await box.getByRole('button', { name: 'Ya lo guardé' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/apiPermissions');

    const row = page.getByRole('row', { name: /Integración ERP/ });
    await row.waitFor();
    expect(await row.getByText(`••••${key.slice(-4)}`).count()).toBe(1);
    expect(await page.getByText(key.split('.')[1]).count()).toBe(0);
    expect(await page.content()).not.toContain(key.split('.')[1]);
    await page.reload();
    await page.getByRole('row', { name: /Integración ERP/ }).waitFor();
    expect(await page.content()).not.toContain(key.split('.')[1]);

    // Rotating shows a new key once; the old one is gone.
    await page.getByRole('row', { name: /Integración ERP/ }).getByRole('button', { name: 'Rotar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotar' }).click();
    const again = page.getByRole('dialog', { name: 'Guarda este dato ahora' });
    const rotated = await again.getByTestId('secret-apiKey').inputValue();
    expect(rotated).not.toBe(key);
    await again.getByRole('button', { name: 'Ya lo guardé' }).click();
    expect(await page.content()).not.toContain(rotated.split('.')[1]);
    await context.close();
  });

  it('the API settings take authorised IPs as CIDR (refused in the browser otherwise) and save without an FTP box', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.goto('/profile/apiPermissions/settings');
    const ips = page.getByLabel(/^IP autorizadas/);
    await ips.fill('300.1.1.1/33');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Escribe una IP o un rango CIDR válido', { exact: false }).waitFor();
    // Backspace in the empty input takes the refused range off.
    await ips.press('Backspace');
    await expect.poll(() => page.getByText('300.1.1.1/33').count()).toBe(0);
    await ips.fill('190.24.10.0/24');
    await page.keyboard.press('Enter');
    await page.getByLabel(/^Correo de notificaciones/).fill('ti@demo.colibri.co');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados.').waitFor();
    await context.close();
  });
});
