// The home and the landings in a real browser against the real product, in Spanish.
// A manager's home shows the company's real credits (it once showed "$ 0" beside 1,000,000
// credits); after a campaign is sent, its last 7 days (sent, delivered, delivery rate, a chart per
// day) and the campaign among the recent ones with its state in words; the campaign opens headed
// by its name, not "Envíos", with its edit lock explained. Every demo role signs in and lands on a
// page that works, never "aún no está disponible" (develop and platform once landed on /Campaigns).
import { describe, expect, it } from 'vitest';
import { demoRoleUsers } from '../../src/server/db/demo-seed.ts';
import { newPage, productAndBrowser, sessionToken, signIn } from './harness.ts';
import { api, launchUntilDelivered, signedInPage } from './steps.ts';

const e2e = productAndBrowser();
const NOT_AVAILABLE = /aún no está disponible/;

describe('the home', () => {
  it("a manager's home shows the real credits, the last 7 days with a chart after a send, and the recent campaigns", async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    await page.getByRole('heading', { level: 1, name: 'Inicio' }).waitFor();

    // The demo company's 1,000,000 credits, in pesos as Colombia writes them; nothing held yet.
    const card = (label: string) => page.getByTestId(`card-screens.home.${label}`);
    await expect.poll(() => card('balance').textContent()).toMatch(/^\$\s1\.000\.000$/);
    await expect.poll(() => card('reserved').textContent()).toMatch(/^\$\s0$/);
    await expect.poll(() => card('sent').textContent()).toBe('0');
    await expect(await card('deliveryRate').textContent()).toBe('—');

    // A campaign sent to two numbers over the sandbox SMSC, until both are DELIVERED.
    const token = await sessionToken(page);
    const { campaign } = await launchUntilDelivered(e2e.product, token, { name: 'Bienvenida inicio e2e', content: 'Hola {{nombre}}, bienvenido.' }, 'telefono;nombre\n3157778821;Ana\n3157778822;Luis\n', 2);
    const { balance } = await api(e2e.product, token, 'GET', '/v1/credits');
    expect(balance).toBeLessThan(1_000_000);

    // The home again: the credits left, the week's figures, the chart and the campaign in words.
    await page.reload();
    await expect.poll(() => card('balance').textContent()).toBe(new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', maximumFractionDigits: 0 }).format(balance as number));
    await expect.poll(() => card('sent').textContent()).toBe('2');
    await expect(await card('delivered').textContent()).toBe('2');
    await expect(await card('failed').textContent()).toBe('0');
    await expect(await card('deliveryRate').textContent()).toMatch(/^100\s?%$/);
    const chart = page.getByTestId('chart');
    await expect(await chart.getAttribute('data-points')).toBe('21'); // 7 days × sent, delivered, failed
    await expect(await chart.textContent()).toContain('Mensajes de los últimos 7 días');
    await chart.locator('svg.marks').waitFor({ timeout: 20_000 });
    // The legend speaks Spanish, not the outcome values.
    await expect.poll(() => chart.locator('svg').textContent()).toContain('Entregados');
    const recent = page.getByRole('table', { name: 'Campañas recientes' });
    const row = recent.getByRole('row').filter({ hasText: 'Bienvenida inicio e2e' });
    await expect(await row.textContent()).toContain('Procesado');
    await expect(await row.textContent()).not.toContain('completed');

    // The campaign opens headed by its name; its runs and its edit lock say what they are.
    await row.getByRole('link', { name: 'Bienvenida inicio e2e' }).click();
    await page.waitForURL(`**/Campaigns/campaigns/${campaign.id}`);
    await page.getByRole('heading', { level: 1, name: 'Bienvenida inicio e2e' }).waitFor();
    await expect(await page.getByRole('heading', { level: 1, name: 'Envíos' }).count()).toBe(0);
    // Its last run in words (a nullable state once showed "completed").
    await expect.poll(() => page.locator('dd[data-field="lastDeploymentState"]').textContent()).toBe('Procesado');
    await page.getByRole('tab', { name: 'Ejecuciones' }).waitFor();
    await page.getByRole('button', { name: 'Solicitar bloqueo de edición' }).waitFor();
    await page.getByText(/nadie podrá editar su contenido, destinatarios ni fecha/).waitFor();
    await page.getByText(/cuántas personas pueden completar la conversación/).waitFor();
    await context.close();
  });
});

describe('words', () => {
  it('the roles list names the system roles in words, not by their keys', async () => {
    const { context, page } = await signedInPage(e2e, 'superadmin@demo.colibri.co');
    await page.goto('/profile/Roles');
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: 'Administrador', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'Coordinador', exact: true }).waitFor(); // a company role, as written
    for (const key of ['admin', 'analista', 'develop', 'superadmin']) await expect(await table.getByRole('cell', { name: key, exact: true }).count()).toBe(0);
    await context.close();
  });
});

describe('landings', () => {
  it.each(demoRoleUsers)('%s signs in and lands on a page that works', async (role) => {
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, `${role}@demo.colibri.co`);
    // The landing page has drawn its heading (the screen and its data loaded).
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect(await page.getByText(NOT_AVAILABLE).count()).toBe(0);
    const landed = new URL(page.url()).pathname;
    expect(landed).not.toBe('/Campaigns');
    // The Campaigns group's own address opens its first working entry, for every role that has it.
    await page.goto('/Campaigns');
    await page.waitForURL('**/Campaigns/campaigns');
    await page.getByRole('heading', { level: 1, name: 'Lista de campañas' }).waitFor();
    await expect(await page.getByText(NOT_AVAILABLE).count()).toBe(0);
    await context.close();
  });
});
