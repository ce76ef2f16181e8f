// The sign-in page's first load: what the browser fetches for /signin, signed out, until
// the form can be used. Bytes are deterministic for a build, so the budget is asserted here (the
// bench, tests/bench/run.ts `console`, records the same figure against its React anchor). The page
// must not pay for the router, the route and operation tables, the schema form (rjsf + Ajv), the
// shell, other screens or other languages (src/console/app/FirstLoadPage.tsx), and the plain form
// it draws must still check, answer and sign in, and its links and language switch still work.
import { gzipSync } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import { newPage, DEMO_PASSWORD, productAndBrowser } from './harness.ts';

const e2e = productAndBrowser();

/** The first load's goal, KB gzip (423.9 before its first-load work, 249.1 before the first-load page, 197.3 after). */
const BUDGET_KB = 200;

describe('the sign-in first load', () => {
  it(`fetches at most ${BUDGET_KB} KB gzip of scripts, without the router, the schema form, the shell or English`, async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    // The script URLs the page requested, read again here (the browser does not always hand a
    // preloaded module's body back to the test).
    const urls = new Set<string>();
    page.on('request', (req) => {
      if (req.resourceType() === 'script' || req.url().endsWith('.js')) urls.add(req.url());
    });
    await page.goto('/signin', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Ingresar' }).waitFor();
    const scripts = new Map<string, number>();
    for (const url of urls) scripts.set(url, gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length);
    const names = [...scripts.keys()].map((u) => new URL(u).pathname.replace(/^\/assets\//, ''));
    const kb = [...scripts.values()].reduce((a, b) => a + b, 0) / 1024;
    // Not the schema form (rjsf + Ajv and its pickers), not the shell, not another kind of screen.
    expect(names.filter((n) => /^(SchemaForm|validation|DefaultLayout|ReducedLayout|ListScreen|DetailScreen|VegaView|xlsx|MenuItem)-/.test(n))).toEqual([]);
    // Not the console's router and route table (App), nor the operation table: the page is drawn
    // without them and they come with the first page load after it.
    expect(names.filter((n) => /^(App|routes\.gen|operations\.gen)-/.test(n))).toEqual([]);
    // English loads only when chosen, and Spanish's deferred namespaces with the first other route (locale files are chunks named by namespace).
    expect(names.filter((n) => /^(common|screens|fields|errors|enums|menu|shell|validation)-[\w-]+\.js$/.test(n))).toEqual([]);
    expect(kb, `${names.length} scripts: ${names.join(', ')}`).toBeLessThanOrEqual(BUDGET_KB);
    await context.close();
  });

  it('checks the fields, shows the server answer and signs in, with the plain form', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await page.goto('/signin');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    // Nothing typed: both fields say they are required, and the e-mail field takes the focus.
    await expect.poll(() => page.getByText('Este campo es obligatorio.').count()).toBe(2);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('root_email');
    await page.getByLabel(/^Correo corporativo/).fill('no-es-un-correo');
    await page.getByLabel(/^Contraseña/).focus();
    await expect.poll(() => page.getByText('Escribe un correo electrónico válido.').count()).toBe(1);
    await page.getByLabel(/^Correo corporativo/).fill('superadmin@demo.colibri.co');
    await page.getByLabel(/^Contraseña/).fill('Wrong-Password-1!');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await expect.poll(() => page.getByText(/el usuario o la contraseña no son correctos/).count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/signin');
    await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
    await expect.poll(() => page.getByLabel(/^Contraseña/).getAttribute('type')).toBe('text');
    await page.getByLabel(/^Contraseña/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL((url) => url.pathname !== '/signin');
    await context.close();
  });

  it('leads into the full console: its links, its language switch, and back to the sign-in', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await page.goto('/signin?expired=true');
    await expect.poll(() => page.getByText('Tu sesión expiró. Inicia sesión de nuevo.').count()).toBe(1);
    // English, chosen on the first-load page, loads its strings and stays for the next page.
    await page.getByRole('button', { name: /^EN/ }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByRole('link', { name: 'No account yet? Register' }).click();
    await page.waitForURL((url) => url.pathname === '/register');
    await page.getByRole('button', { name: 'Register' }).waitFor();
    // In the full console the sign-in is a route again: its link goes there without a page load.
    await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    await page.getByRole('link', { name: 'Already have an account? Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await context.close();
  });
});
