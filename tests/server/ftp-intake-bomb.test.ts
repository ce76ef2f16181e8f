// The FTP intake reads a company's recipients files through the same reader and zip guard as an
// upload (engine/recipients/file-rows.ts): a zip bomb dropped in the folder (its sheet declares
// 5,000 bytes and inflates to megabytes) is refused at once (99932), moved to refused/, and
// launches nothing. Against the sandbox's real FTP server on loopback; PGlite, or PostgreSQL with DATABASE_URL.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxFtp, type SandboxFtp } from '../../src/sandbox/ftp/server.ts';
import type { ServerDeps } from '../../src/server/context.ts';
import { visitDueFtpFolders } from '../../src/server/messaging/ftp-intake.ts';
import { companySendWindow } from '../../src/server/messaging/send-window.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
import { databaseOutboxStore } from '../../src/server/composition.ts';
import { sandboxMessageProvider } from '../../src/sandbox/outbox.ts';
import { constants } from '../../src/generated/constants.gen.ts';
import { OutboundPolicy } from '../../src/server/messaging/outbound-guard.ts';
import { createHarness, type Harness } from './harness.ts';
import { workbookBomb } from './zip-bytes.ts';

let h: Harness;
let manager: string;
let ftp: SandboxFtp;
let home: string;
const PASSWORD = 'clave-ftp-2026';
const outbound = new OutboundPolicy({ sandbox: true });

beforeAll(async () => {
  h = await createHarness({ outbound });
  manager = (await h.as('manager')).token;
  home = mkdtempSync(join(tmpdir(), 'colibri-ftp-bomb-'));
  ftp = await startSandboxFtp({ accounts: [{ user: 'empresa', password: PASSWORD, home }] });
  outbound.allow({ host: '127.0.0.1', port: ftp.port });
});
afterAll(async () => {
  await ftp?.close();
  rmSync(home, { recursive: true, force: true });
  await h?.close();
});

describe('the FTP intake', () => {
  it('refuses a zip bomb at once (99932) and launches nothing', async () => {
    const saved = await h.op('credentials.updateSettings', { token: manager, body: { allowedIps: [], notificationEmail: null, ftp: { host: '127.0.0.1', port: ftp.port, user: 'empresa', directory: '/', password: PASSWORD } } });
    expect(saved.statusCode, saved.body).toBe(200);
    const sms = (await h.op('channels.list', { token: manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0];
    const campaign = (await h.op('campaigns.create', { token: manager, body: { kind: 'open', purpose: 'transactional', channelId: sms.id, name: 'Bomba FTP', content: 'Hola' } })).json() as { id: number };
    writeFileSync(join(home, `${campaign.id}_bomba.xlsx`), workbookBomb(8 * 1024 * 1024));
    // Past the next visit, and past the time a file must have been still (constants.ftp.settleSeconds).
    h.clock.now = new Date(Math.max(h.clock.now.getTime(), Date.now()) + (constants.ftp.visitSeconds + 1) * 1000);
    const deps = {
      db: h.db, now: () => h.clock.now, secrets: defaultSecretBox(), sandbox: true, outbound, messages: sandboxMessageProvider(databaseOutboxStore(h.db)),
      messaging: { wake: () => {}, sendWindow: companySendWindow(h.db), shortBaseUrls: [] },
    } as unknown as ServerDeps;
    await visitDueFtpFolders(deps);
    const items = (await h.op('reportCenter.getImpFtpReport', { token: manager, body: {} })).json().items;
    expect(items).toMatchObject([{ fileName: `${campaign.id}_bomba.xlsx`, state: 'refused', code: '99932', deploymentId: null }]);
    expect(await h.db.selectFrom('deployments').select('id').where('campaign_id', '=', campaign.id).execute()).toEqual([]);
    expect(readdirSync(join(home, 'refused'))).toHaveLength(1);
  });
});
