// The FTP intake as a person meets it (getImpFtpReport): the demo's FTP drop box is the
// sandbox FTP server over DATA_DIR/ftp, and the demo company's settings point at it. A file named
// after a campaign is dropped there; saving the FTP settings asks for a visit at the next round;
// "Archivos por FTP" then shows the file sent, with its deployment and rows, and the folder's
// last visit; the file has moved to processed/.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productAndBrowser, sessionToken } from './harness.ts';
import { signedInPage } from './steps.ts';

// Rounds every half second: the visit the save asks for comes at once.
const e2e = productAndBrowser({ env: { SCHEDULER_ROUND_MS: '500' } });

describe('files dropped in the FTP folder', () => {
  it('become a deployment of their campaign, shown under Archivos por FTP', async () => {
    const { context, page } = await signedInPage(e2e, 'manager@demo.colibri.co');
    const token = await sessionToken(page);
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${e2e.product.url}${path}`, { method, headers: { 'x-auth-token': token, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      expect(res.status).toBe(200);
      return res.json() as Promise<Record<string, unknown> & { items?: { id: number }[] }>;
    };
    const channels = await api('GET', '/v1/channels?platform=sms&enabled=true');
    const campaign = await api('POST', '/v1/campaigns', { kind: 'open', purpose: 'transactional', channelId: channels.items![0].id, name: 'Pedidos por FTP e2e', content: 'Hola {{nombre}}, tu pedido va en camino' });
    const name = `${campaign.id}_pedidos-e2e.csv`;
    const box = join(e2e.product.dataDir, 'ftp');
    writeFileSync(join(box, name), 'telefono;nombre\n3157770001;Ana\n3157770002;Luis\n');

    // Saving the settings as they are (drawn once loaded, the password kept masked) asks for a visit now.
    await page.goto('/profile/apiPermissions/settings');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Cambios guardados').first().waitFor();

    await page.goto('/profile/apiPermissions/ftp');
    await page.getByRole('heading', { name: 'Archivos recibidos por FTP' }).waitFor();
    // Asked again until the visit has happened (the report answers what the folder held at the time).
    const row = page.getByRole('row').filter({ hasText: name });
    await expect.poll(async () => {
      await page.getByRole('button', { name: 'Consultar' }).click();
      return row.filter({ hasText: 'Enviado' }).count();
    }, { timeout: 40_000 }).toBe(1);
    await expect.poll(() => row.textContent()).toContain('Pedidos por FTP e2e');
    // The chart of files per day by state is drawn.
    await page.getByRole('img', { name: 'Archivos por día y estado' }).locator('svg .mark-rect path').first().waitFor();
    // The folder's last visit, with nothing wrong.
    await page.getByRole('region', { name: 'Carpeta FTP' }).getByText('Sí').waitFor();
    expect(existsSync(join(box, name))).toBe(false);
    expect(readdirSync(join(box, 'processed')).some((f) => f.endsWith(name))).toBe(true);
    await page.screenshot({ path: '/tmp/ftp-imports.png', fullPage: true });
    await context.close();
  });
});
