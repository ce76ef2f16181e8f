// The company's FTP folder as the settings keep it (schemas/api/credentials.yaml updateSettings):
// the one place that knows how its password is sealed, for the settings' handlers and for the FTP
// intake (messaging/ftp-intake.ts) that logs in with it.
import type { Selectable } from 'kysely';
import type { ApiSettingsTable } from '../../../engine/database.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { openSealed } from '../../security/secret-writes.ts';

/** The sealing context of a company's FTP password (another company's sealed value does not open). */
export const ftpPasswordContext = (companyId: number) => `api_settings.ftp_password:${companyId}`;

export interface FtpAccess { host: string; port: number; user: string; password: string; directory: string }

/** The folder to visit, or null when the settings do not name one completely (host, user and password). */
export function ftpAccessOf(secrets: SecretBox, row: Pick<Selectable<ApiSettingsTable>, 'company_id' | 'ftp_host' | 'ftp_port' | 'ftp_user' | 'ftp_password' | 'ftp_directory'>): FtpAccess | null {
  const password = openSealed(secrets, row.ftp_password, ftpPasswordContext(row.company_id));
  if (!row.ftp_host || !row.ftp_user || password === null) return null;
  return { host: row.ftp_host, port: row.ftp_port ?? 21, user: row.ftp_user, password, directory: row.ftp_directory ?? '/' };
}
