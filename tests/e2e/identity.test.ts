// The walking skeleton in a real browser against the real product (issue: Foundation §5):
// register → OTP → sign in; each demo state user's redirect; menus by role; language persistence;
// an expired token back to /signin?expired=true.
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, latestCode, DEMO_PASSWORD, productAndBrowser } from './harness.ts';

const e2e = productAndBrowser();

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/signin');
  await page.getByLabel(/^Correo corporativo/).fill(email);
  await page.getByLabel(/^Contraseña/).fill(password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
}

describe('register with a corporate e-mail, validate the OTP, sign in', () => {
  it('walks the whole path against the server and the sandbox outbox', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    const email = `laura.gomez@tiendas-andinas.com.co`;
    await page.goto('/register');
    await page.getByLabel(/^Nombre completo/).fill('Laura Gómez');
    await page.getByLabel(/^Correo corporativo/).fill('laura@gmail.com');
    await page.getByLabel(/^Teléfono celular/).fill('3001234567');
    await page.getByLabel(/^Nombre de la empresa/).fill('Tiendas Andinas S.A.S.');
    await page.getByLabel(/^NIT/).fill('901234567-1');
    await page.getByLabel(/^Contraseña/).fill('Andinas#2026');
    await page.getByLabel(/^Repite la contraseña/).fill('Andinas#2026');
    await page.getByLabel(/^Acepto los términos/).check();
    await page.getByLabel('No soy un robot').check();
    await page.getByRole('button', { name: 'Registrarme' }).click();
    // A public mailbox is refused: the page stays on /register and says why.
    await expect.poll(() => page.getByText(/correo corporativo|Dominio no permitido/i).count()).toBeGreaterThan(0);
    expect(pathOf(page)).toBe('/register');

    await page.getByLabel(/^Correo corporativo/).fill(email);
    await page.getByRole('button', { name: 'Registrarme' }).click();
    await page.waitForURL(/\/userValidation\?email=/);

    const code = await latestCode(e2e.product, email);
    await page.getByLabel(/^Código de verificación/).fill(code);
    await page.getByRole('button', { name: 'Validar' }).click();
    await page.waitForURL('**/signin');

    await signIn(page, email, 'Andinas#2026');
    // A new company waits for the provider's verification: the reduced screen says so.
    await page.waitForURL('**/validation');
    await expect.poll(() => page.getByText('Tu cuenta está en verificación', { exact: false }).count()).toBe(1);
    await context.close();
  });
});

describe('each demo user lands where its state sends it', () => {
  const table: [string, RegExp][] = [
    ['superadmin@demo.colibri.co', /^\/User$/],
    ['pending@demo.colibri.co', /^\/userValidation$/],
    ['validation@demo.colibri.co', /^\/validation$/],
    ['needsNewPassword@demo.colibri.co', /^\/resetPassword$/],
    ['ExpiredPassword@demo.colibri.co', /^\/resetPassword$/],
    ['disabled@demo.colibri.co', /^\/notActive$/],
  ];
  it.each(table)('%s', async (email, want) => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, email);
    await page.waitForURL((url) => url.pathname !== '/signin');
    expect(pathOf(page)).toMatch(want);
    await context.close();
  });
});

describe('the menu follows the role', () => {
  async function settingsEntries(email: string) {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, email);
    await page.waitForURL((url) => url.pathname !== '/signin');
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await nav.getByRole('button', { name: 'Configuración' }).click();
    await nav.getByRole('link', { name: 'Empresa' }).waitFor();
    const text = await nav.innerText();
    await context.close();
    return text;
  }
  it('an analista sees channels but not the settings that need a manager', async () => {
    const text = await settingsEntries('analista@demo.colibri.co');
    expect(text).toContain('Canales');
    expect(text).not.toContain('Equipo');
    expect(text).not.toContain('Áreas');
    expect(text).not.toContain('Lista de bloqueo');
  });
  it('a manager sees them', async () => {
    const text = await settingsEntries('manager@demo.colibri.co');
    expect(text).toContain('Equipo');
    expect(text).toContain('Áreas');
    expect(text).toContain('Lista de bloqueo');
  });
});

describe('language', () => {
  it('the English choice survives a reload', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await page.goto('/signin');
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
    await page.getByRole('button', { name: 'Inglés' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Iniciar sesión' }).count()).toBe(0);
    await context.close();
  });
});

describe('an expired token', () => {
  it('sends the user to /signin?expired=true', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'admin@demo.colibri.co');
    await page.waitForURL('**/User');
    // Revoke the session's token on the server, as expiry would.
    const token = await page.evaluate(() => JSON.parse(atob(localStorage.getItem('clientToken') ?? '')).token as string);
    const res = await fetch(`${e2e.product.url}/v1/clientAuth/signout`, { headers: { 'X-Auth-Token': token } });
    expect(res.status).toBe(200);
    await page.reload();
    await page.waitForURL(/\/signin\?expired=true/);
    await expect.poll(() => page.getByText('Tu sesión expiró', { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => localStorage.getItem('clientToken'))).toBeNull();
    await context.close();
  });
});
