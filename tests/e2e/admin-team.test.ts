// Company administration on the generic runtime, in a real browser against the real product
//: a manager creates a team member (who gets a one-time code by e-mail), a role with a
// few permissions ticked in the tree, an area and a cost center, and finds them in the lists; the
// server's role rules (99942, 99943, 99944) show on the screens; an analista gets none of it (no
// menu entry, no New button, and 99982 from the server when calling directly); the provider's
// staff activate a newly registered company and its user reaches the full app.
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { serverErrors } from '../../src/generated/errors.gen.ts';
import { newPage, latestCode, DEMO_PASSWORD, signIn, productAndBrowser } from './harness.ts';

const e2e = productAndBrowser();

const es = Object.fromEntries(
  ['errors', 'screens'].flatMap((ns) => Object.entries(JSON.parse(readFileSync(`locales/es/${ns}.json`, 'utf8')) as Record<string, string>).map(([k, v]) => [`${ns}.${k}`, v])),
);
/** The Spanish text the console shows for a server error code. */
const errorText = (code: keyof typeof serverErrors) => es[serverErrors[code].key];

const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Opens a settings entry through the side menu (groups are opened on the way). */
async function openMenu(page: Page, ...path: string[]) {
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  for (const group of path.slice(0, -1)) {
    const button = nav.getByRole('button', { name: group });
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  }
  await nav.getByRole('link', { name: path.at(-1), exact: true }).click();
}

/** Picks an option of a select or picker of the screen (not the header's) by its label. */
async function choose(page: Page, field: RegExp, option: string | RegExp) {
  await page.getByRole('main').getByRole('combobox', { name: field }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** The session token of a user, signed in through the API. */
async function tokenOf(email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await fetch(`${e2e.product.url}/v1/clientAuth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const { clientToken } = (await res.json()) as { clientToken: string };
  return (JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as { token: string }).token;
}

/** A demo user's id, from their own sign-in. */
async function idOf(email: string): Promise<number> {
  const res = await fetch(`${e2e.product.url}/v1/clientAuth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
  const { clientToken } = (await res.json()) as { clientToken: string };
  return (JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as { idUser: number }).idUser;
}

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${e2e.product.url}${path}`, { method, headers: { 'X-Auth-Token': token, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('a manager administers the company', () => {
  it('creates a team member, who gets a one-time code and sets their own password', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'manager@demo.colibri.co');
    await openMenu(page, 'Configuración', 'Equipo');
    await page.waitForURL('**/profile/management');
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.waitForURL('**/profile/management/new');

    const email = 'sofia.herrera@demo.colibri.co';
    // The spec's limits are checked before anything is sent.
    await page.getByLabel(/^Nombre/).fill('Sofía Herrera de la Torre Restrepo');
    await page.getByLabel(/^Número de documento/).fill('12');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Escribe como máximo 20 caracteres.').waitFor();
    await page.getByText('El número de documento tiene entre 4 y 10 dígitos.').waitFor();
    await page.getByText('Elige al menos un rol.').waitFor();

    await page.getByLabel(/^Nombre/).fill('Sofía Herrera');
    await choose(page, /^Tipo de documento/, 'Cédula de ciudadanía');
    await page.getByLabel(/^Número de documento/).fill('1020304050');
    await page.getByLabel(/^Correo corporativo/).fill(email);
    await page.getByLabel(/^Teléfono celular/).fill('3105551234');
    await page.getByLabel(/^Dirección/).fill('Calle 80 # 10-20, Bogotá');
    await choose(page, /^Roles/, 'Analista');
    await choose(page, /^Envío de códigos OTP/, 'Correo electrónico');
    await choose(page, /^Área/, /.+/);
    await choose(page, /^Centro de costo/, 'Mercadeo');
    await page.getByRole('button', { name: 'Guardar' }).click();

    // Saved: the member's detail, with what was entered.
    await page.waitForURL(/\/profile\/management\/\d+$/);
    const detail = page.getByRole('tabpanel');
    await detail.getByText(email).waitFor();
    await detail.getByText('Mercadeo').waitFor();
    await detail.getByText('Debe cambiar la contraseña').waitFor();

    // In the list, found by the search.
    await page.getByRole('link', { name: 'Equipo', exact: true }).click();
    await page.waitForURL('**/profile/management');
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('Herrera');
    await page.getByRole('row', { name: /Sofía Herrera/ }).waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await context.close();

    // The new member got a one-time code by e-mail and sets their own password with it.
    const code = await latestCode(e2e.product, email);
    const member = await newPage(e2e.browser, e2e.product);
    await member.page.goto(`/resetPassword?email=${encodeURIComponent(email)}`);
    await member.page.getByLabel(/^Código de verificación/).fill(code);
    await member.page.getByLabel(/^Contraseña/).fill('Herrera#2026');
    await member.page.getByLabel(/^Repite la contraseña/).fill('Herrera#2026');
    await member.page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await member.page.waitForURL('**/signin');
    await signIn(member.page, email, { password: 'Herrera#2026' });
    expect(pathOf(member.page)).toBe('/User');
    await member.context.close();
  });

  it('creates a role with permissions ticked in the tree; the server\'s role rules show', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'manager@demo.colibri.co');
    await openMenu(page, 'Configuración', 'Roles');
    await page.waitForURL('**/profile/Roles');
    await page.getByRole('button', { name: 'Nuevo' }).click();

    await page.getByLabel(/^Nombre/).fill('Supervisores');
    await choose(page, /^Usuarios visibles/, 'Yo y mis dependientes');
    await page.getByRole('checkbox', { name: 'Inicio: Ver', exact: true }).check();
    await page.getByRole('button', { name: 'Mostrar Reportes' }).click();
    await page.getByRole('checkbox', { name: 'Registros: todos los permisos' }).check();
    // What the manager does not hold cannot be handed out.
    expect(await page.getByRole('checkbox', { name: 'Reporte MT exitosos: Ver' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Guardar' }).click();

    // Saved: the role in view mode, its tree read-only with what was ticked.
    await page.waitForURL(/\/profile\/Roles\/\d+$/);
    await page.getByRole('link', { name: 'Volver' }).waitFor();
    const logsDownload = page.getByRole('checkbox', { name: 'Registros: Descargar' });
    await expect.poll(() => logsDownload.isChecked()).toBe(true);
    expect(await logsDownload.isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Inicio: Ver', exact: true }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Inicio: Reportar' }).isChecked()).toBe(false);

    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL('**/profile/Roles');

    // A company role is changed from its row: the tree comes loaded, open where it grants.
    await page.getByRole('row', { name: /Supervisores/ }).getByRole('button', { name: 'Editar' }).click();
    await page.waitForURL(/\/profile\/Roles\/\d+\/edit$/);
    await expect.poll(() => page.getByRole('checkbox', { name: 'Registros: Descargar' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Inicio: Reportar' }).check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/profile\/Roles\/\d+$/);
    // Saved: the form is back in view mode at the view address, showing the role as stored.
    await page.getByRole('link', { name: 'Volver' }).waitFor();
    await expect.poll(() => page.getByTestId('form-mode').getAttribute('data-mode')).toBe('view');
    expect(await page.getByRole('button', { name: 'Guardar' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('checkbox', { name: 'Inicio: Reportar' }).isChecked()).toBe(true);
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL('**/profile/Roles');

    // The same name again: 99942 on the form.
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('supervisores');
    await choose(page, /^Usuarios visibles/, 'Solo yo');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText(errorText('99942')).first().waitFor();
    // Leaving with unsaved changes asks first.
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Salir sin guardar' }).click();
    await page.waitForURL('**/profile/Roles');

    // A role held by users stays: 99944.
    await page.getByRole('row', { name: /Coordinador/ }).getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText(errorText('99944')).waitFor();

    // System roles are read-only: no Edit or Delete on their rows nor in their view, and a change
    // (the edit address typed by hand) answers 99943.
    // System roles show by their names in words, not their keys.
    const system = page.getByRole('row', { name: /^Analista/ });
    await system.waitFor();
    expect(await system.getByRole('button', { name: 'Eliminar' }).count()).toBe(0);
    expect(await system.getByRole('button', { name: 'Editar' }).count()).toBe(0);
    await system.click();
    await page.waitForURL(/\/profile\/Roles\/\d+$/);
    await expect.poll(() => page.getByTestId('form-mode').getAttribute('data-mode')).toBe('view');
    expect(await page.getByRole('button', { name: 'Editar' }).count()).toBe(0);
    await page.goto(`${pathOf(page)}/edit`);
    await page.waitForURL(/\/profile\/Roles\/\d+\/edit$/);
    await page.getByRole('checkbox', { name: 'Inicio: Reportar' }).check();
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText(errorText('99943')).waitFor();
    await context.close();
  });

  it('creates an area and a cost center', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'manager@demo.colibri.co');
    await openMenu(page, 'Configuración', 'Áreas y centros de costo', 'Áreas');
    await page.waitForURL('**/profile/account/areas');
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('Sucursal Cali');
    // The picture is not part of POST /v1/account: it goes through its own upload after the save.
    await page.getByLabel(/^Imagen/).setInputFiles({ name: 'cali.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/profile/account/areas');
    await page.getByRole('row', { name: /Sucursal Cali/ }).waitFor();

    // Area names are unique in the company (99930).
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('sucursal cali');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText(errorText('99930')).first().waitFor();
    // Leaving with unsaved changes asks first.
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Salir sin guardar' }).click();

    // Renamed from its row.
    await page.waitForURL('**/profile/account/areas');
    await page.getByRole('row', { name: /Sucursal Cali/ }).getByRole('button', { name: 'Renombrar' }).click();
    await expect.poll(() => page.getByLabel(/^Nombre/).inputValue()).toBe('Sucursal Cali');
    // The stored picture came with the area and shows in the form.
    const picture = new URL(page.url()).searchParams.get('picture') ?? '';
    expect(picture).toMatch(/^\/v1\/files\//);
    expect((await fetch(`${e2e.product.url}${picture}`)).status).toBe(200);
    await expect.poll(() => page.getByRole('img', { name: 'Vista previa' }).getAttribute('src')).toBe(picture);
    await page.getByLabel(/^Nombre/).fill('Sucursal Cali Norte');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/profile/account/areas');
    await page.getByRole('row', { name: /Sucursal Cali Norte/ }).waitFor();

    await openMenu(page, 'Configuración', 'Áreas y centros de costo', 'Centros de costo');
    await page.waitForURL('**/profile/account/costCenters');
    await page.getByRole('button', { name: 'Nuevo' }).click();
    await page.getByLabel(/^Nombre/).fill('Logística');
    // The code has its own label (not the sign-in's "verification code") and its own message.
    await page.getByLabel(/^Código del centro de costo/).fill('LOG 400');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText(/El código empieza por una letra o un número/).waitFor();
    // Pressing Save leaves the field: its message goes and the button moves up under the pointer
    // before the release. The click still lands (no Tab first).
    await page.getByLabel(/^Código del centro de costo/).fill('LOG-400');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL(/\/profile\/account\/costCenters\/\d+$/);
    await page.getByRole('link', { name: 'Volver' }).click();
    await page.waitForURL('**/profile/account/costCenters');
    await page.getByRole('row', { name: /Logística.*LOG-400/ }).waitFor();

    // The new area and cost center are choices of the team-member form.
    await page.goto('/profile/management/new');
    await page.getByRole('main').getByRole('combobox', { name: /^Área/ }).click();
    await page.getByRole('option', { name: 'Sucursal Cali Norte' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('main').getByRole('combobox', { name: /^Centro de costo/ }).click();
    await page.getByRole('option', { name: 'Logística' }).waitFor();
    await context.close();
  });
});

describe('a manager edits a member\'s associations one at a time', () => {
  it('adds one from the detail tab, changes it and removes it', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'manager@demo.colibri.co');
    const analista = await idOf('analista@demo.colibri.co');
    await page.goto(`/profile/management/${analista}?tab=2`);
    await page.getByRole('button', { name: 'Agregar asociación' }).click();
    await page.waitForURL(`**/profile/management/AssociationsAddForm/${analista}`);
    await choose(page, /^Cliente/, 'Demo S.A.S.');
    // The responsibles are the chosen client's.
    await choose(page, /^Responsable/, 'Mercadeo Digital');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL((url) => url.pathname === `/profile/management/${analista}` && url.search === '?tab=2');
    const row = page.getByRole('row', { name: /Demo S\.A\.S\..*Mercadeo Digital/ });
    await row.waitFor();

    await row.getByRole('button', { name: 'Editar' }).click();
    await page.waitForURL(/\/profile\/management\/AssociationsUpdateForm\/\d+\?userId=\d+$/);
    await expect.poll(() => page.getByRole('main').getByRole('combobox', { name: /^Responsable/ }).inputValue()).toBe('Mercadeo Digital');
    await page.getByLabel(/^Nombre/).fill('Campañas Bogotá');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL((url) => url.pathname === `/profile/management/${analista}`);
    const renamed = page.getByRole('row', { name: /Campañas Bogotá/ });
    await renamed.waitFor();

    await renamed.getByRole('button', { name: 'Eliminar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
    await page.getByText('Sin asociaciones con clientes de la plataforma.').waitFor();
    await context.close();
  });
});

describe('an analista is refused the same', () => {
  it('has no menu entries and no New button', async () => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'analista@demo.colibri.co');
    const nav = page.getByRole('navigation', { name: 'Menú principal' });
    await nav.getByRole('button', { name: 'Configuración' }).click();
    await nav.getByRole('link', { name: 'Roles' }).waitFor();
    for (const entry of ['Equipo', 'Áreas y centros de costo', 'Empresas clientes']) expect(await nav.getByText(entry, { exact: true }).count()).toBe(0);
    // Roles are readable by everyone; only managers change them.
    await nav.getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('row', { name: /Superadministrador/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Nuevo' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Eliminar' }).count()).toBe(0);
    // Team management is not theirs, even by address.
    await page.goto('/profile/management/new');
    await page.waitForURL('**/User');
    await context.close();
  });

  it('is answered 99982 by the server when calling directly', async () => {
    const token = await tokenOf('analista@demo.colibri.co');
    const calls: [string, string, unknown][] = [
      ['POST', '/v1/team', { name: 'Intruso', documentType: 'CC', documentId: '12345678', email: 'intruso@demo.colibri.co', phone: '3001112233', address: 'Calle 1', roleIds: [1], otpMethod: 'email' }],
      ['POST', '/v3/roles', { name: 'Intrusos', permissions: [{ id: 10, actions: ['view'] }], scope: 'onlyMe' }],
      ['POST', '/v1/account', { name: 'Área intrusa' }],
      ['POST', '/v1/costCenters', { name: 'Intruso', code: 'INT-1' }],
      ['GET', '/v1/companies', undefined],
    ];
    for (const [method, path, body] of calls) {
      const answer = await api(token, method, path, body);
      expect({ path, status: answer.status, code: answer.body.code }).toEqual({ path, status: 403, code: '99982' });
    }
  });
});

describe('the provider activates a newly registered company', () => {
  it('and its user reaches the full app', async () => {
    const email = 'camilo.rojas@cafeteria-la-montana.com.co';
    const password = 'Montana#2026';
    const registered = await fetch(`${e2e.product.url}/v1/clientAuth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fullName: 'Camilo Rojas', email, password, companyName: 'Cafetería La Montaña S.A.S.', nit: '900555123-4', phone: '3157778899', acceptTerms: true, captchaToken: 'sandbox-ok', sendEmail: true }),
    });
    expect(registered.status).toBe(200);
    const validated = await fetch(`${e2e.product.url}/v1/clientAuth/validateOtp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, code: await latestCode(e2e.product, email) }) });
    expect(validated.status).toBe(200);

    // Before: "account being verified".
    const user = await newPage(e2e.browser, e2e.product);
    await signIn(user.page, email, { password });
    expect(pathOf(user.page)).toBe('/validation');
    await user.context.close();

    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'platform@demo.colibri.co');
    await openMenu(page, 'Configuración', 'Empresas clientes');
    await page.waitForURL('**/profile/companies');
    await choose(page, /^Estado/, 'En verificación');
    const row = page.getByRole('row', { name: /Cafetería La Montaña/ });
    await row.getByRole('button', { name: 'Activar' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Activar' }).click();
    await page.getByText(es['screens.companies.activated']).waitFor();
    // It leaves the companies in verification; among the active ones it can be disabled.
    await expect.poll(() => row.count()).toBe(0);
    await choose(page, /^Estado/, 'Activa');
    const active = page.getByRole('row', { name: /Cafetería La Montaña/ });
    await active.getByRole('button', { name: 'Deshabilitar' }).waitFor();
    // Its plan: a pilot (as registered) moves to subscription.
    expect(await active.innerText()).toContain('Piloto');
    await active.getByRole('button', { name: 'Plan' }).click();
    await page.waitForURL(/\/profile\/companies\/\d+\/plan\?planType=pilot$/);
    await choose(page, /^Tipo de plan/, 'Suscripción');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.waitForURL('**/profile/companies');
    await page.getByText(es['screens.companies.planSet']).waitFor();
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('Montaña');
    await expect.poll(() => page.getByRole('row', { name: /Cafetería La Montaña.*Suscripción/ }).count()).toBe(1);
    await context.close();

    // After: the full app.
    const after = await newPage(e2e.browser, e2e.product);
    await signIn(after.page, email, { password });
    expect(pathOf(after.page)).toBe('/User');
    await after.page.getByRole('navigation', { name: 'Menú principal' }).getByRole('link', { name: 'Inicio' }).waitFor();
    await after.context.close();
  });
});
