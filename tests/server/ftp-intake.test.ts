// The FTP intake (getImpFtpReport) against a real FTP server on loopback (the sandbox's):
// a recipients file named after a campaign becomes one deployment of it and moves to processed/;
// a file it cannot take is refused with its catalogue code and moves to refused/; other files stay;
// a file is launched once, also when it is met again or a visit was cut before its launch; a
// folder that cannot be read says why; outside the sandbox a private host is not visited.
// PGlite, or PostgreSQL with DATABASE_URL.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxFtp, type SandboxFtp } from '../../src/sandbox/ftp/server.ts';
import type { ServerDeps } from '../../src/server/context.ts';
import { visitDueFtpFolders, type FtpIntakeDeps } from '../../src/server/messaging/ftp-intake.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import { databaseOutboxStore } from '../../src/server/composition.ts';
import { sandboxMessageProvider } from '../../src/sandbox/outbox.ts';
import { constants } from '../../src/generated/constants.gen.ts';
import { OutboundPolicy } from '../../src/server/security/outbound-guard.ts';
import { createHarness, type Harness } from './harness.ts';
import { workbookBomb } from './zip-bytes.ts';

let h: Harness;
let manager: string;
let companyId: number;
let smsChannelId: number;
let ftp: SandboxFtp;
let home: string;
const PASSWORD = 'clave-ftp-2026';
// The sandbox reaches the FTP servers these tests start, and nothing else on this machine.
const outbound = new OutboundPolicy({ sandbox: true });

beforeAll(async () => {
  h = await createHarness({ outbound });
  const signed = await h.as('manager');
  manager = signed.token;
  companyId = (await h.db.selectFrom('users').select('company_id').where('id', '=', signed.session.idUser).executeTakeFirstOrThrow()).company_id;
  smsChannelId = (await h.op('channels.list', { token: manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0].id;
  home = mkdtempSync(join(tmpdir(), 'colibri-ftp-'));
  ftp = await startSandboxFtp({ accounts: [{ user: 'empresa', password: PASSWORD, home }] });
  outbound.allow({ host: '127.0.0.1', port: ftp.port });
});
afterAll(async () => {
  await ftp.close();
  rmSync(home, { recursive: true, force: true });
  await h.close();
});

const deps = (sandbox = true, tlsCa?: Buffer): FtpIntakeDeps => ({
  db: h.db, now: () => h.clock.now, secrets: defaultSecretBox(), sandbox, outbound: sandbox ? outbound : new OutboundPolicy({ sandbox: false }), tlsCa, messages: sandboxMessageProvider(databaseOutboxStore(h.db)),
  messaging: { wake: () => {}, sendWindow: companySendWindow(h.db), shortBaseUrls: [] },
} as unknown as ServerDeps);

async function saveFolder(ftpSettings: Record<string, unknown>, notificationEmail: string | null = null) {
  const res = await h.op('credentials.updateSettings', { token: manager, body: { allowedIps: [], notificationEmail, ftp: ftpSettings } });
  expect(res.statusCode).toBe(200);
}

const folder = (password = PASSWORD, host = '127.0.0.1') => ({ host, port: ftp.port, user: 'empresa', directory: '/', password });

let base = 3104000000;
async function campaign(name: string) {
  const res = await h.op('campaigns.create', { token: manager, body: { kind: 'open', purpose: 'transactional', channelId: smsChannelId, name, content: 'Hola {{nombre}}, tu pedido salió hoy' } });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number };
}
function recipients(n: number): string {
  base += 1000;
  return `telefono;nombre\n${Array.from({ length: n }, (_, i) => `${base + i};Cliente ${i}`).join('\n')}\n`;
}

const report = async (body: Record<string, unknown> = {}) => {
  const res = await h.op('reportCenter.getImpFtpReport', { token: manager, body });
  expect(res.statusCode).toBe(200);
  return res.json() as { items: { fileName: string; state: string; code: string | null; campaignId: number | null; deploymentId: number | null; rows: number; sendable: number; refused: number }[]; truncated: boolean; folder: { configured: boolean; visitedAt: string | null; lastError: string | null; encrypted: boolean | null } };
};
const deploymentsOf = async (campaignId: number) => (await h.db.selectFrom('deployments').select('id').where('campaign_id', '=', campaignId).execute()).map((d) => ({ id: Number(d.id) }));
const messagesOf = async (deploymentId: number) => Number((await sql<{ n: string | number }>`select count(*) as n from messages where deployment_id = ${deploymentId}`.execute(h.db)).rows[0].n);
/**
 * Moves the clock past the next visit, and ahead of the real time the files get as their
 * modification instant, so the files a test writes have settled (constants.ftp.settleSeconds).
 */
const later = () => {
  h.clock.now = new Date(Math.max(h.clock.now.getTime(), Date.now()) + (constants.ftp.visitSeconds + 1) * 1000);
};

beforeEach(async () => {
  for (const entry of readdirSync(home)) rmSync(join(home, entry), { recursive: true, force: true });
  await h.db.deleteFrom('ftp_imports').execute();
  later();
});

describe('the FTP intake', () => {
  it('launches a file named after a campaign, refuses what it cannot take, and moves both out of the way', async () => {
    await saveFolder(folder(), 'integraciones@demo.colibri.co');
    const sale = await campaign('Pedidos por FTP');
    writeFileSync(join(home, `${sale.id}_pedidos-noviembre.csv`), recipients(3) + 'abc;Sin número\n');
    writeFileSync(join(home, 'sin-campania.csv'), recipients(2));
    writeFileSync(join(home, '99999999_otra-empresa.csv'), recipients(2));
    writeFileSync(join(home, 'leeme.txt'), 'no es un archivo de destinatarios');
    const other = await campaign('Columnas que faltan');
    writeFileSync(join(home, `${other.id}-sin-nombre.csv`), 'telefono\n3001112233\n');

    expect(await visitDueFtpFolders(deps())).toBe(1);

    const [deployment] = await deploymentsOf(sale.id);
    expect(deployment).toBeDefined();
    expect(await messagesOf(deployment.id)).toBe(3);
    expect(await deploymentsOf(other.id)).toEqual([]);
    const { items, folder: seen } = await report();
    const byName = Object.fromEntries(items.map((i) => [i.fileName, i]));
    expect(byName[`${sale.id}_pedidos-noviembre.csv`]).toMatchObject({ state: 'imported', campaignId: sale.id, deploymentId: deployment.id, rows: 4, sendable: 3, refused: 1, code: null });
    expect(byName['sin-campania.csv']).toMatchObject({ state: 'refused', code: '99985', deploymentId: null });
    // Another company's campaign, or none: the same answer (nothing about other companies shows).
    expect(byName['99999999_otra-empresa.csv']).toMatchObject({ state: 'refused', code: '99985', campaignId: 99999999 });
    // The content's {{nombre}} has no column: the upload's own refusal.
    expect(byName[`${other.id}-sin-nombre.csv`]).toMatchObject({ state: 'refused', code: '99955' });
    expect(items).toHaveLength(4);
    // The sandbox offers no TLS: read in plain FTP, and the report says so.
    expect(seen).toMatchObject({ configured: true, lastError: null, encrypted: false });
    expect(seen.visitedAt).not.toBeNull();

    // Launched → processed/, refused → refused/, each named after its import; other files stay.
    const id = (name: string) => (items.find((i) => i.fileName === name) as unknown as { id: number }).id;
    expect(readdirSync(home).sort()).toEqual(['leeme.txt', 'processed', 'refused']);
    expect(readdirSync(join(home, 'processed'))).toEqual([`${id(`${sale.id}_pedidos-noviembre.csv`)}-${sale.id}_pedidos-noviembre.csv`]);
    expect(readdirSync(join(home, 'refused')).sort()).toHaveLength(3);

    // Each refusal is e-mailed once to the notification address, in words with its code.
    const notices = await h.outbox('integraciones@demo.colibri.co');
    expect(notices).toHaveLength(3);
    const notice = notices.find((n) => n.subject.includes('sin-campania.csv'))!;
    expect(notice.body).toContain('(99985)');
    expect(notice.body).toContain(`refused/${id('sin-campania.csv')}-sin-campania.csv`);

    // Not due again until its interval passed; then nothing new to do.
    expect(await visitDueFtpFolders(deps())).toBe(0);
    later();
    expect(await visitDueFtpFolders(deps())).toBe(1);
    expect(await deploymentsOf(sale.id)).toHaveLength(1);
    expect(await h.outbox('integraciones@demo.colibri.co')).toHaveLength(3);
  });

  it('launches a file once: met again it is only moved, and a visit cut before the launch reads it again', async () => {
    await saveFolder(folder());
    const c = await campaign('Una sola vez');
    const name = `${c.id}_una-vez.csv`;
    const file = join(home, name);
    writeFileSync(file, recipients(2));
    const instant = new Date('2026-11-20T10:00:00Z');
    utimesSync(file, instant, instant);
    expect(await visitDueFtpFolders(deps())).toBe(1);
    expect(await deploymentsOf(c.id)).toHaveLength(1);

    // The same file (name, size, instant) back in the folder, as when the move after a launch failed: moved, not sent again.
    const [moved] = readdirSync(join(home, 'processed'));
    writeFileSync(file, readFileSync(join(home, 'processed', moved)));
    utimesSync(file, instant, instant);
    later();
    await visitDueFtpFolders(deps());
    expect(await deploymentsOf(c.id)).toHaveLength(1);
    expect(existsSync(file)).toBe(false);

    // A visit cut after the file was recorded and before its launch committed: the next visit launches it, once.
    const cut = `${c.id}_cortado.csv`;
    writeFileSync(join(home, cut), recipients(2));
    const cutAt = new Date('2026-11-21T10:00:00Z');
    utimesSync(join(home, cut), cutAt, cutAt);
    const size = Buffer.byteLength(readFileSync(join(home, cut)));
    await h.db.insertInto('ftp_imports').values({ company_id: companyId, file_name: cut, bytes: size, modified_at: cutAt, state: 'reading', created_at: h.clock.now }).execute();
    later();
    await visitDueFtpFolders(deps());
    expect(await deploymentsOf(c.id)).toHaveLength(2);
    const rows = await h.db.selectFrom('ftp_imports').select(['file_name', 'state']).where('file_name', '=', cut).execute();
    expect(rows).toEqual([{ file_name: cut, state: 'imported' }]);
  });

  it('leaves a file still being written until it has been still long enough, then takes it at once', async () => {
    await saveFolder(folder());
    const c = await campaign('Archivo en camino');
    const file = join(home, `${c.id}_subiendo.csv`);
    writeFileSync(file, recipients(2));
    // Modified "now": it may still be on its way up.
    const now = new Date(Math.floor(h.clock.now.getTime() / 1000) * 1000);
    utimesSync(file, now, now);
    expect(await visitDueFtpFolders(deps())).toBe(1);
    expect(existsSync(file)).toBe(true);
    expect((await report()).items).toEqual([]);
    // Its next visit is when it will have been still long enough, not a whole interval later.
    const settings = await h.db.selectFrom('api_settings').select('ftp_next_visit_at').where('company_id', '=', companyId).executeTakeFirstOrThrow();
    expect(new Date(settings.ftp_next_visit_at!).getTime()).toBe(now.getTime() + constants.ftp.settleSeconds * 1000);
    h.clock.advance(constants.ftp.settleSeconds * 1000 - 1000);
    expect(await visitDueFtpFolders(deps())).toBe(0);
    h.clock.advance(1000);
    expect(await visitDueFtpFolders(deps())).toBe(1);
    expect((await report()).items).toMatchObject([{ state: 'imported', campaignId: c.id }]);
  });

  it('refuses a file over the upload limit from its listed size, without reading it', async () => {
    await saveFolder(folder());
    const c = await campaign('Archivo enorme');
    const big = join(home, `${c.id}_enorme.csv`);
    writeFileSync(big, 'telefono;nombre\n');
    truncateSync(big, constants.uploads.campaignFileBytes + 1);
    await visitDueFtpFolders(deps());
    const [item] = (await report()).items;
    expect(item).toMatchObject({ state: 'refused', code: '99937' });
    expect(await deploymentsOf(c.id)).toEqual([]);
  });

  it('refuses a zip bomb at once (99932) through the uploads\' zip guard, and launches nothing', async () => {
    await saveFolder(folder());
    const c = await campaign('Bomba FTP');
    // The sheet declares 5,000 bytes and inflates to 8 MB.
    writeFileSync(join(home, `${c.id}_bomba.xlsx`), workbookBomb(8 * 1024 * 1024));
    await visitDueFtpFolders(deps());
    expect((await report()).items).toMatchObject([{ fileName: `${c.id}_bomba.xlsx`, state: 'refused', code: '99932', deploymentId: null }]);
    expect(await deploymentsOf(c.id)).toEqual([]);
    expect(readdirSync(join(home, 'refused'))).toHaveLength(1);
  });

  it('says why a folder could not be read, and visits it at once when its settings change', async () => {
    const c = await campaign('Clave equivocada');
    writeFileSync(join(home, `${c.id}_espera.csv`), recipients(1));
    await saveFolder(folder('otra-clave'));
    expect(await visitDueFtpFolders(deps())).toBe(1);
    const wrong = await report();
    expect(wrong.items).toEqual([]);
    expect(wrong.folder.lastError).toMatch(/530/);
    // Fixed settings are visited at the next round, not after the interval, and the old error goes.
    await saveFolder(folder());
    expect((await report()).folder.lastError).toBeNull();
    expect(await visitDueFtpFolders(deps())).toBe(1);
    expect((await report()).items).toMatchObject([{ state: 'imported', campaignId: c.id }]);
  });

  it('reports a file whose name holds a line break as refused, with why, once, and leaves it and the rest of the folder working', async () => {
    await saveFolder(folder(), 'integraciones@demo.colibri.co');
    const c = await campaign('Nombre con salto');
    writeFileSync(join(home, `${c.id}_a\nb.csv`), recipients(2));
    writeFileSync(join(home, `${c.id}_bien.csv`), recipients(1));
    expect(await visitDueFtpFolders(deps())).toBe(1);
    const { items } = await report();
    expect(items.find((i) => i.fileName === `${c.id}_a\uFFFDb.csv`)).toMatchObject({ state: 'refused', code: '99931', deploymentId: null });
    expect(items.find((i) => i.fileName === `${c.id}_bien.csv`)).toMatchObject({ state: 'imported' });
    expect(readdirSync(home)).toContain(`${c.id}_a\nb.csv`);
    const notices = (await h.outbox('integraciones@demo.colibri.co')).filter((n) => n.subject.includes('\uFFFD'));
    expect(notices).toHaveLength(1);
    expect(notices[0].body).toMatch(/line break/);
    // Met again at the next visit: not reported twice.
    later();
    expect(await visitDueFtpFolders(deps())).toBe(1);
    expect((await report()).items.filter((i) => i.fileName.includes('\uFFFD'))).toHaveLength(1);
    expect((await h.outbox('integraciones@demo.colibri.co')).filter((n) => n.subject.includes('\uFFFD'))).toHaveLength(1);
    expect(await deploymentsOf(c.id)).toHaveLength(1);
  });

  it('outside the sandbox, does not visit a folder on a private address', async () => {
    const c = await campaign('Red privada');
    writeFileSync(join(home, `${c.id}_privado.csv`), recipients(1));
    await saveFolder(folder(PASSWORD, '127.0.0.1'));
    expect(await visitDueFtpFolders(deps(false))).toBe(1);
    const seen = await report();
    expect(seen.items).toEqual([]);
    expect(seen.folder.lastError).toMatch(/refused/);
    expect(existsSync(join(home, `${c.id}_privado.csv`))).toBe(true);
  });

  it('logs in over TLS when the server offers it, and never past a certificate it cannot verify', async () => {
    const cert = readFileSync('tests/fixtures/ftp-tls/cert.pem');
    const secureHome = mkdtempSync(join(tmpdir(), 'colibri-ftps-'));
    const secure = await startSandboxFtp({ accounts: [{ user: 'empresa', password: PASSWORD, home: secureHome }], tls: { cert, key: readFileSync('tests/fixtures/ftp-tls/key.pem') } });
    outbound.allow({ host: '127.0.0.1', port: secure.port });
    try {
      const c = await campaign('Por FTPS');
      writeFileSync(join(secureHome, `${c.id}_cifrado.csv`), recipients(2));
      await saveFolder({ ...folder(), port: secure.port });
      // A certificate nobody vouches for: no visit, and no falling back to plain FTP either.
      expect(await visitDueFtpFolders(deps())).toBe(1);
      const untrusted = await report();
      expect(untrusted.items).toEqual([]);
      expect(untrusted.folder).toMatchObject({ encrypted: null });
      expect(untrusted.folder.lastError).toMatch(/self[- ]signed|certificate/i);
      expect(existsSync(join(secureHome, `${c.id}_cifrado.csv`))).toBe(true);
      // Trusted: the file travels encrypted and is sent.
      later();
      expect(await visitDueFtpFolders(deps(true, cert))).toBe(1);
      const trusted = await report();
      expect(trusted.folder).toMatchObject({ encrypted: true, lastError: null });
      expect(trusted.items).toMatchObject([{ state: 'imported', campaignId: c.id, sendable: 2 }]);
    } finally {
      await secure.close();
      rmSync(secureHome, { recursive: true, force: true });
    }
  });

  it('refuses report days in the future or reversed, with their codes', async () => {
    const res = await h.op('reportCenter.getImpFtpReport', { token: manager, body: { DateStart: '2026-11-20', DateEnd: '2026-11-10' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { code: string }) => e.code)).toContain('99958');
  });
});
