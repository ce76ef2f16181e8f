// The provider's FTP queries tool (platformFtp, /smsPlatformTools/FtpQueries): every company's FTP
// folder and the files the intake met, in one place. Staff (role platform) see every company's;
// a develop user only their own company's; anyone naming another company is refused with 99982,
// and so is anyone the menu entry is not for. A folder the intake could not read is answered with
// the catalogue's 99983 and the error its visit met; the FTP user and password never show. Days
// are refused as the company's own report (getImpFtpReport) refuses them, and counted in Bogotá.
// The folders' visits are the real intake's, against a real FTP server on loopback (the sandbox's).
// PGlite, or PostgreSQL with DATABASE_URL.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, formatYmd, parseYmd } from '../../src/core/bogota-time.ts';
import { calendarDate, dayStart } from '../../src/core/date-range.ts';
import { appSettings } from '../../src/generated/app.gen.ts';
import { constants } from '../../src/generated/constants.gen.ts';
import { startSandboxFtp, type SandboxFtp } from '../../src/sandbox/ftp/server.ts';
import { sandboxMessageProvider } from '../../src/sandbox/outbox.ts';
import { databaseOutboxStore } from '../../src/server/composition.ts';
import type { ServerDeps } from '../../src/server/context.ts';
import { DEMO_COMPANY } from '../../src/server/db/demo-seed.ts';
import { visitDueFtpFolders, type FtpIntakeDeps } from '../../src/server/messaging/ftp-intake.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { OutboundPolicy } from '../../src/server/security/outbound-guard.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { demoCompanyId, userWithGrants } from './messaging-fixtures.ts';

// The sandbox reaches the FTP server this file starts, and nothing else on this machine.
const outbound = new OutboundPolicy({ sandbox: true });
const h = fileHarness({ outbound });
const tokens = signedIn(h, 'platform', 'develop', 'manager', 'admin');

const TIME_ZONE = constants.sendWindow.timeZone;
const OUR_USER = 'carpeta-demo';
const OUR_PASSWORD = 'clave-demo-2026';
const THEIR_USER = 'carpeta-andina';
const THEIR_PASSWORD = 'clave-andina-2026';
const THEIR_NAME = 'Transportes del Páramo S.A.S.';

let ftp: SandboxFtp;
let ours: string;
let theirs: string;
let demoId: number;
let their: { companyId: number; superadmin: string; develop: string };
let campaignId: number;
/** Bogotá days: three and four days before today, and when the one three days back starts. */
let threeDaysAgo: string;
let fourDaysAgo: string;

type Folder = { companyId: number; companyName: string; companyState: string; host: string; port: number; directory: string; configured: boolean; visitedAt: string | null; encrypted: boolean | null; imported: number; refused: number; code: string | null; lastError: string | null };
type File = { companyId: number; companyName: string; fileName: string; state: string; campaignId: number | null; campaign: string | null; deploymentId: number | null; rows: number; sendable: number; refused: number; code: string | null; createdAt: string };

const folders = async (token: string, query: Record<string, string | number> = {}) => h.op('platformFtp.ftpFolders', { token, query });
const files = async (token: string, body: Record<string, unknown> = {}) => h.op('platformFtp.ftpFiles', { token, body });
const foldersOf = async (token: string, query: Record<string, string | number> = {}) => {
  const res = await folders(token, query);
  expect(res.statusCode).toBe(200);
  return res.json() as { items: Folder[]; total: number };
};
const filesOf = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await files(token, body);
  expect(res.statusCode).toBe(200);
  return res.json() as { items: File[]; truncated: boolean };
};

const deps = (): FtpIntakeDeps => ({
  db: h.db, now: () => h.clock.now, secrets: defaultSecretBox(), sandbox: true, outbound, messages: sandboxMessageProvider(databaseOutboxStore(h.db)),
  messaging: { wake: () => {}, sendWindow: companySendWindow(h.db), shortBaseUrls: [] },
} as unknown as ServerDeps);

async function saveFolder(token: string, user: string, password: string) {
  const res = await h.op('credentials.updateSettings', { token, body: { allowedIps: [], notificationEmail: null, ftp: { host: '127.0.0.1', port: ftp.port, user, directory: '/', password } } });
  expect(res.statusCode).toBe(200);
}

beforeAll(async () => {
  demoId = await demoCompanyId(h);
  ours = mkdtempSync(join(tmpdir(), 'colibri-ftp-ours-'));
  theirs = mkdtempSync(join(tmpdir(), 'colibri-ftp-theirs-'));
  ftp = await startSandboxFtp({ accounts: [{ user: OUR_USER, password: OUR_PASSWORD, home: ours }, { user: THEIR_USER, password: THEIR_PASSWORD, home: theirs }] });
  outbound.allow({ host: '127.0.0.1', port: ftp.port });

  // A second company with its own superadmin and a developer (the tool's roles: develop and the SMS flag).
  const created = await h.addCompany(THEIR_NAME, [
    { email: 'jefe@paramo.co', roles: ['superadmin'] },
    { email: 'dev@paramo.co', roles: ['develop', `${appSettings.product.key}Sms`] },
  ]);
  their = { companyId: created.companyId, superadmin: (await h.signin('jefe@paramo.co')).token, develop: (await h.signin('dev@paramo.co')).token };

  // Ours: a file named after a campaign (sent) and one named after none (refused, 99985).
  await saveFolder(tokens.manager, OUR_USER, OUR_PASSWORD);
  const sms = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0].id;
  const created2 = await h.op('campaigns.create', { token: tokens.manager, body: { kind: 'open', purpose: 'transactional', channelId: sms, name: 'Pedidos FTP plataforma', content: 'Hola {{nombre}}, tu pedido salió' } });
  campaignId = created2.json().id;
  writeFileSync(join(ours, `${campaignId}_pedidos.csv`), 'telefono;nombre\n3105550001;Ana\n3105550002;Luis\n');
  writeFileSync(join(ours, 'sin-campania.csv'), 'telefono;nombre\n3105550003;Eva\n');
  // Theirs: the wrong password, so the folder cannot be read.
  await saveFolder(their.superadmin, THEIR_USER, 'no-es-la-clave');
  // Files settle (constants.ftp.settleSeconds) and the folders are due.
  h.clock.now = new Date(Math.max(h.clock.now.getTime(), Date.now()) + (constants.ftp.visitSeconds + 1) * 1000);
  expect(await visitDueFtpFolders(deps())).toBe(2);

  // What their folder held before, when it could still be read: a file met at the first instant of a
  // Bogotá day and one a moment before it (the day before, in Bogotá; the same UTC date).
  const today = parseYmd(calendarDate(h.clock.now, TIME_ZONE));
  threeDaysAgo = formatYmd(addDays(today, -3));
  fourDaysAgo = formatYmd(addDays(today, -4));
  const dayBegins = dayStart(threeDaysAgo, TIME_ZONE);
  await h.db.insertInto('ftp_imports').values([
    { company_id: their.companyId, file_name: 'despachos-lunes.csv', bytes: 120, modified_at: null, state: 'refused', code: '99985', detail: 'no campaign', created_at: dayBegins, finished_at: dayBegins },
    { company_id: their.companyId, file_name: 'despachos-domingo.csv', bytes: 80, modified_at: null, state: 'refused', code: '99985', detail: 'no campaign', created_at: new Date(dayBegins.getTime() - 1000), finished_at: dayBegins },
  ]).execute();
});

afterAll(async () => {
  await ftp?.close();
  for (const dir of [ours, theirs]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the FTP queries tool, for the provider\'s staff', () => {
  it('lists every company\'s folder: where it is, its last visit and the files it met, never its user or password', async () => {
    const { items, total } = await foldersOf(tokens.platform);
    expect(total).toBe(2);
    expect(items.map((f) => f.companyName)).toEqual([DEMO_COMPANY.name, THEIR_NAME].sort((a, b) => a.localeCompare(b)));
    const demo = items.find((f) => f.companyId === demoId)!;
    expect(demo).toMatchObject({ companyState: 'active', host: '127.0.0.1', port: ftp.port, directory: '/', configured: true, encrypted: false, imported: 1, refused: 1, code: null, lastError: null });
    expect(demo.visitedAt).not.toBeNull();
    const text = JSON.stringify(items);
    for (const secret of [OUR_USER, OUR_PASSWORD, THEIR_USER, THEIR_PASSWORD, 'no-es-la-clave']) expect(text).not.toContain(secret);
    // Settings in the database, sealed: still nothing of them in the answer.
    const sealed = await h.db.selectFrom('api_settings').select('ftp_password').where('company_id', '=', demoId).executeTakeFirstOrThrow();
    expect(text).not.toContain(sealed.ftp_password!);
  });

  it('answers a folder that could not be read with 99983 and the error its visit met', async () => {
    const { items } = await foldersOf(tokens.platform, { companyId: their.companyId });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ companyId: their.companyId, companyName: THEIR_NAME, configured: true, code: '99983', encrypted: null, imported: 0, refused: 2 });
    expect(items[0].lastError).toMatch(/530/);
    // Read again once it is fixed: the code goes with the error.
    await saveFolder(their.superadmin, THEIR_USER, THEIR_PASSWORD);
    h.clock.advance((constants.ftp.visitSeconds + 1) * 1000);
    await visitDueFtpFolders(deps());
    expect((await foldersOf(tokens.platform, { companyId: their.companyId })).items[0]).toMatchObject({ code: null, lastError: null, encrypted: false });
    await saveFolder(their.superadmin, THEIR_USER, 'no-es-la-clave');
    h.clock.advance((constants.ftp.visitSeconds + 1) * 1000);
    await visitDueFtpFolders(deps());
    expect((await foldersOf(tokens.platform, { companyId: their.companyId })).items[0]).toMatchObject({ code: '99983', lastError: expect.stringMatching(/530/) });
  });

  it('searches folders by company name and host, and lists a folder whose settings are not complete', async () => {
    expect((await foldersOf(tokens.platform, { q: 'páramo' })).items.map((f) => f.companyId)).toEqual([their.companyId]);
    expect((await foldersOf(tokens.platform, { q: '127.0.0' })).total).toBe(2);
    const third = await h.addCompany('Tercera Carpeta S.A.S.', []);
    await h.db.insertInto('api_settings').values({
      company_id: third.companyId, api_user_id: null, allowed_ips: '[]', notification_email: null, ftp_host: 'ftp.tercera.co', ftp_port: null, ftp_user: null,
      ftp_directory: null, ftp_password: null, updated_at: h.clock.now,
    }).execute();
    const { items } = await foldersOf(tokens.platform, { companyId: third.companyId });
    expect(items).toEqual([expect.objectContaining({ host: 'ftp.tercera.co', port: 21, directory: '/', configured: false, visitedAt: null, imported: 0, refused: 0, code: null })]);
    expect((await foldersOf(tokens.platform)).total).toBe(3);
    await h.db.deleteFrom('api_settings').where('company_id', '=', third.companyId).execute();
  });

  it('lists every company\'s files, newest first, each with its company; or one company\'s', async () => {
    const { items, truncated } = await filesOf(tokens.platform);
    expect(truncated).toBe(false);
    expect(items.map((f) => f.companyName)).toEqual([DEMO_COMPANY.name, DEMO_COMPANY.name, THEIR_NAME, THEIR_NAME]);
    const byName = Object.fromEntries(items.map((f) => [f.fileName, f]));
    expect(byName[`${campaignId}_pedidos.csv`]).toMatchObject({ companyId: demoId, state: 'imported', campaignId, campaign: 'Pedidos FTP plataforma', rows: 2, sendable: 2, refused: 0, code: null });
    expect(byName[`${campaignId}_pedidos.csv`].deploymentId).not.toBeNull();
    expect(byName['sin-campania.csv']).toMatchObject({ companyId: demoId, state: 'refused', code: '99985', deploymentId: null });
    expect(byName['despachos-lunes.csv']).toMatchObject({ companyId: their.companyId, companyName: THEIR_NAME, state: 'refused', code: '99985' });
    // Newest first: today's (ours), then theirs of three days ago, then the one a moment before.
    const instants = items.map((f) => new Date(f.createdAt).getTime());
    expect([...instants].sort((a, b) => b - a)).toEqual(instants);
    expect(items.slice(-2).map((f) => f.fileName)).toEqual(['despachos-lunes.csv', 'despachos-domingo.csv']);

    expect((await filesOf(tokens.platform, { companyId: their.companyId })).items.map((f) => f.companyId)).toEqual([their.companyId, their.companyId]);
    expect((await filesOf(tokens.platform, { companyId: demoId })).items.map((f) => f.fileName).sort()).toEqual([`${campaignId}_pedidos.csv`, 'sin-campania.csv'].sort());
  });

  it('counts days in Bogotá, as the company\'s own report does', async () => {
    const day = async (ymd: string) => (await filesOf(tokens.platform, { companyId: their.companyId, DateStart: ymd, DateEnd: ymd })).items.map((f) => f.fileName);
    // The same UTC date, two Bogotá days.
    expect(await day(threeDaysAgo)).toEqual(['despachos-lunes.csv']);
    expect(await day(fourDaysAgo)).toEqual(['despachos-domingo.csv']);
    expect((await filesOf(tokens.platform, { DateStart: fourDaysAgo, DateEnd: threeDaysAgo })).items.map((f) => f.fileName)).toEqual(['despachos-lunes.csv', 'despachos-domingo.csv']);
  });

  it('refuses days as the company\'s own report refuses them', async () => {
    const today = parseYmd(calendarDate(h.clock.now, TIME_ZONE));
    const cases = [
      { DateStart: threeDaysAgo, DateEnd: fourDaysAgo },
      { DateStart: formatYmd(addDays(today, 1)), DateEnd: formatYmd(addDays(today, 2)) },
      { DateStart: formatYmd(addDays(today, -(constants.reports.historyDays + 1))), DateEnd: formatYmd(today) },
      { DateEnd: formatYmd(addDays(today, 1)) },
    ];
    for (const body of cases) {
      const ours = await files(tokens.platform, body);
      const theirs = await h.op('reportCenter.getImpFtpReport', { token: tokens.manager, body });
      expect(ours.statusCode).toBe(400);
      expect(ours.statusCode).toBe(theirs.statusCode);
      expect(ours.json().errors).toEqual(theirs.json().errors);
    }
    const reversed = (await files(tokens.platform, cases[0])).json();
    expect(reversed.errors.map((e: { code: string; field: string }) => [e.code, e.field])).toEqual([['99958', 'DateEnd']]);
    const future = (await files(tokens.platform, cases[1])).json();
    expect(future.errors.map((e: { code: string }) => e.code)).toEqual(['99962', '99962']);
    expect((await files(tokens.platform, { DateStart: 'ayer' })).json().code).toBe('99931');
  });
});

describe('who may use it', () => {
  it('shows a develop user only their own company\'s folder and files', async () => {
    const { items, total } = await foldersOf(tokens.develop);
    expect(total).toBe(1);
    expect(items.map((f) => f.companyId)).toEqual([demoId]);
    expect((await foldersOf(tokens.develop, { companyId: demoId })).items.map((f) => f.companyId)).toEqual([demoId]);
    const mine = await filesOf(tokens.develop);
    expect(mine.items.map((f) => f.fileName).sort()).toEqual([`${campaignId}_pedidos.csv`, 'sin-campania.csv'].sort());
    expect(new Set(mine.items.map((f) => f.companyId))).toEqual(new Set([demoId]));

    // The other company's developer: theirs alone, with its 99983.
    const theirsOnly = await foldersOf(their.develop);
    expect(theirsOnly.items).toEqual([expect.objectContaining({ companyId: their.companyId, code: '99983' })]);
    expect((await filesOf(their.develop)).items.map((f) => f.fileName)).toEqual(['despachos-lunes.csv', 'despachos-domingo.csv']);
  });

  it('refuses a company user who names another company with 99982, before reading anything', async () => {
    for (const [token, other] of [[tokens.develop, their.companyId], [their.develop, demoId]] as const) {
      const listed = await folders(token, { companyId: other });
      expect(listed.statusCode).toBe(403);
      expect(listed.json().code).toBe('99982');
      const met = await files(token, { companyId: other });
      expect(met.statusCode).toBe(403);
      expect(met.json().code).toBe('99982');
      // Named with days it would refuse: the company is refused first.
      expect((await files(token, { companyId: other, DateStart: '2999-01-02', DateEnd: '2999-01-01' })).json().code).toBe('99982');
    }
  });

  it('refuses anyone the menu entry is not for (roles platform and develop) with 99982, their own company too, whatever their grants', async () => {
    for (const token of [tokens.admin, tokens.manager, their.superadmin]) {
      expect((await folders(token)).json().code).toBe('99982');
      expect((await files(token)).json().code).toBe('99982');
    }
    expect((await folders(their.superadmin, { companyId: their.companyId })).json().code).toBe('99982');
    // The company's own FTP report's grant (6004 view) alone is not the tool's role.
    const granted = await userWithGrants(h, [{ id: 6004, actions: ['view'] }]);
    expect((await h.op('reportCenter.getImpFtpReport', { token: granted, body: {} })).statusCode).toBe(200);
    expect((await folders(granted)).json().code).toBe('99982');
    expect((await files(granted)).json().code).toBe('99982');
  });
});
