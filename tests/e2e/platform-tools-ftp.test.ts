// The provider's FTP queries tool as its staff meet it (Plataforma SMS → Consultas FTP,
// /smsPlatformTools/FtpQueries): the demo company's folder (the sandbox's drop box) takes a file
// it refuses, and Andina's folder names the same server with a wrong password, so its visits
// fail; the platform user sees both companies' folders — Andina's with the FTP error in the
// catalogue's words (99983) and what the visit met — and the demo's file with its refusal.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, newPage, productAndBrowser, signIn } from './harness.ts';
import { api } from './steps.ts';

// Rounds every half second: the visits the saves ask for come at once.
const e2e = productAndBrowser({ env: { SCHEDULER_ROUND_MS: '500' } });

async function apiToken(email: string): Promise<string> {
  const res = await fetch(`${e2e.product.url}/v1/clientAuth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: DEMO_PASSWORD }) });
  const { clientToken } = (await res.json()) as { clientToken: string };
  return (JSON.parse(Buffer.from(clientToken, 'base64').toString()) as { token: string }).token;
}

type Settings = { allowedIps: string[]; notificationEmail: string | null; ftp: { host: string | null; port: number | null; user: string | null; directory: string | null; password: string | null } };

describe('the FTP queries tool', () => {
  it('shows the platform user every company\'s folder, one with its FTP error, and the files met', async () => {
    // The demo's drop box: a file named after no campaign (refused); saving the settings as they are asks for a visit.
    const manager = await apiToken('manager@demo.colibri.co');
    const name = 'sin-campania-e2e.csv';
    writeFileSync(join(e2e.product.dataDir, 'ftp', name), 'telefono;nombre\n3157770011;Ana\n');
    const demo = (await api(e2e.product, manager, 'GET', '/v1/credentials/settings')) as unknown as Settings;
    await api(e2e.product, manager, 'PUT', '/v1/credentials/settings', demo);
    // Andina points at the same server with a password that is not the account's: 530 at every visit.
    const andina = await apiToken('superadmin@andina.demo.colibri.co');
    await api(e2e.product, andina, 'PUT', '/v1/credentials/settings', {
      allowedIps: [], notificationEmail: null, ftp: { host: demo.ftp.host, port: demo.ftp.port, user: demo.ftp.user, directory: '/', password: 'no-es-la-clave' },
    });

    // Staff land on the campaign list (their first working page).
    const { context, page } = await newPage(e2e.browser, e2e.product);
    await signIn(page, 'platform@demo.colibri.co');
    await page.goto('/smsPlatformTools/FtpQueries');
    await page.getByRole('heading', { name: 'Consultas FTP de las empresas' }).waitFor();
    const andinaFolder = page.getByRole('row').filter({ hasText: 'Andina Logística S.A.S.' }).filter({ hasText: 'Error de FTP. (99983)' });
    const file = page.getByRole('row').filter({ hasText: name });
    // Asked again until both visits have happened (the tool answers what the intake met so far).
    await expect.poll(async () => {
      await page.getByRole('button', { name: 'Consultar' }).click();
      return (await andinaFolder.count()) + (await file.filter({ hasText: 'Rechazado' }).count());
    }, { timeout: 40_000 }).toBe(2);
    // What the visit met, beside the code; never the FTP user's password.
    await expect.poll(() => andinaFolder.textContent()).toMatch(/530/);
    expect(await page.locator('body').textContent()).not.toContain('no-es-la-clave');
    // The demo's own folder was read, and the file's row says why it was refused, with its company.
    await page.getByRole('row').filter({ hasText: 'Demo S.A.S.' }).first().waitFor();
    expect(await file.textContent()).toContain('Demo S.A.S.');
    expect(await file.textContent()).toContain('(99985)');
    // The chart of files per day by state is drawn.
    await page.getByRole('img', { name: 'Archivos por día y estado' }).locator('svg .mark-rect path').first().waitFor();
    await page.screenshot({ path: '/tmp/platform-ftp-queries.png', fullPage: true });
    await context.close();
  });
});
