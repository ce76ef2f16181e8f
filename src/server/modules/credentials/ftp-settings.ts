// The company's FTP folder as the settings keep it (schemas/api/credentials.yaml updateSettings):
// the one place that knows how its password is sealed, for the settings' handlers and for the FTP
// intake (messaging/ftp-intake.ts) that logs in with it.
import type { Selectable } from 'kysely';
import type { ApiSettingsTable } from '../../../engine/database.ts';
import { isMasked } from '../../../core/secret-mask.ts';
import { failFields, fieldError, type FieldError } from '../../errors/api-error.ts';
import type { OutboundPolicy } from '../../security/outbound-guard.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { openSealed } from '../../security/secret-writes.ts';
import { ftpPasswordContext } from '../../security/sealing-contexts.ts';

/** The sealing context of a company's FTP password (another company's sealed value does not open). */
export interface FtpAccess { host: string; port: number; user: string; password: string; directory: string }

/** The folder to visit, or null when the settings do not name one completely (host, user and password). */
export function ftpAccessOf(secrets: SecretBox, row: Pick<Selectable<ApiSettingsTable>, 'company_id' | 'ftp_host' | 'ftp_port' | 'ftp_user' | 'ftp_password' | 'ftp_directory'>): FtpAccess | null {
  const password = openSealed(secrets, row.ftp_password, ftpPasswordContext(row.company_id));
  if (!row.ftp_host || !row.ftp_user || password === null) return null;
  return { host: row.ftp_host, port: row.ftp_port ?? 21, user: row.ftp_user, password, directory: row.ftp_directory ?? '/' };
}

/** The folder a settings form posts: the password may be the stored one's mask (kept). */
export interface FtpForm { host: string | null; port: number | null; user: string | null; password: string | null | undefined }

/**
 * Refuses settings that would send the stored password somewhere new: a changed host, port or user
 * with the password left as it was (its mask, or absent) would hand the company's FTP password to
 * whoever the new host is, so it must be typed again (99999 on ftp.password). Refuses a host the
 * intake may not connect to (security/outbound-guard.ts: a private or loopback address in any
 * spelling, this server itself) with 99931 on ftp.host.
 */
export function checkFtpForm(form: FtpForm, stored: Pick<Selectable<ApiSettingsTable>, 'ftp_host' | 'ftp_port' | 'ftp_user' | 'ftp_password'>, outbound: OutboundPolicy): void {
  const errors: FieldError[] = [];
  if (form.host) {
    const refusal = outbound.targetRefusal(form.host, form.port ?? 21);
    if (refusal) errors.push(fieldError('ftp.host', '99931', `the FTP folder must be on a public address (${refusal})`));
  }
  const same = (a: string | null, b: string | null) => (a ?? '').toLowerCase() === (b ?? '').toLowerCase();
  const moved = !same(form.host, stored.ftp_host) || (form.port ?? 21) !== (stored.ftp_port ?? 21) || (form.user ?? '') !== (stored.ftp_user ?? '');
  const keepsStored = form.password === undefined || (typeof form.password === 'string' && isMasked(form.password));
  if (moved && stored.ftp_password !== null && keepsStored) {
    errors.push(fieldError('ftp.password', '99999', 'type the password again: the host, port or user changed, and the stored password goes only where it was given for'));
  }
  if (errors.length) throw failFields(errors);
}
