// The demo's FTP drop box (sandbox mode): the sandbox FTP server (src/sandbox/ftp) serves a folder
// under DATA_DIR, and the demo company's FTP settings point at it, so a file dropped there
// ("<campaign id>_<name>.csv") is picked up by the FTP intake like a customer's would be. The
// sandbox's port and password are new at each start: the settings are rewritten at each start,
// unless someone pointed the demo company at another FTP server meanwhile.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../engine/database.ts';
import { lockSettings } from '../modules/credentials/api-user.ts';
import { ftpPasswordContext } from '../security/sealing-contexts.ts';
import type { SecretBox } from '../security/secrets.ts';
import { DEMO_COMPANY } from './demo-seed.ts';

export const DEMO_FTP_USER = 'demo';
const SANDBOX_HOST = '127.0.0.1';

/** A password for this start's sandbox account. */
export const demoFtpPassword = () => randomBytes(18).toString('base64url');

/** Points the demo company's FTP settings at the sandbox; answers false when they name another server (left alone). */
export async function ensureDemoFtpFolder(db: Kysely<Database>, secrets: SecretBox, sandbox: { port: number; password: string }, now: Date = new Date()): Promise<boolean> {
  const company = await db.selectFrom('companies').select('id').where('name', '=', DEMO_COMPANY.name).where('nit', '=', DEMO_COMPANY.nit).executeTakeFirst();
  if (!company) return false;
  return db.transaction().execute(async (trx) => {
    const settings = await lockSettings(trx, company.id, now);
    const ours = settings.ftp_host === null || (settings.ftp_host === SANDBOX_HOST && settings.ftp_user === DEMO_FTP_USER);
    if (!ours) return false;
    await trx.updateTable('api_settings').set({
      ftp_host: SANDBOX_HOST, ftp_port: sandbox.port, ftp_user: DEMO_FTP_USER, ftp_directory: '/',
      ftp_password: secrets.seal(sandbox.password, ftpPasswordContext(company.id)), ftp_next_visit_at: null, ftp_last_error: null, updated_at: now,
    }).where('company_id', '=', company.id).execute();
    return true;
  });
}
