// getImpFtpReport: the files the FTP intake (messaging/ftp-intake.ts) met in the company's folder,
// newest first, with the folder's last visit, so a person can tell a file that was refused (and
// why) from one that was never seen (the folder could not be read: `folder.lastError`).
// The days and the files' query are shared with the provider's FTP queries tool
// (modules/platformFtp), which reads them for every company: one rule for both.
import type { Kysely } from 'kysely';
import { addDays, formatYmd, parseYmd } from '../../../core/bogota-time.ts';
import { calendarDate, dayAfter, dayStart } from '../../../core/date-range.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { FtpCompanyImport, FtpImport } from '../../../generated/types.gen.ts';
import type { Database } from '../../../engine/database.ts';
import { failFields } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { dateProblems, isoOrNull } from './report-scope.ts';

const TIME_ZONE = constants.sendWindow.timeZone;
/** The most files one answer lists (newest first). */
export const FTP_IMPORT_ROWS = 500;
/** The days shown when none are asked. */
const DEFAULT_DAYS = 30;

/** Two Bogotá calendar days, both included. */
export interface FtpDays { dateStart: string; dateEnd: string }

/**
 * The days a files report covers: the ones asked, else the last 30 up to the end (today when
 * absent); refused as every report's days are (99958 reversed, 99962 after today or before the
 * history), every problem listed.
 */
export function ftpReportDays(body: { DateStart?: string; DateEnd?: string }, now: Date): FtpDays {
  const today = calendarDate(now, TIME_ZONE);
  const dateEnd = body.DateEnd ?? today;
  const dateStart = body.DateStart ?? formatYmd(addDays(parseYmd(dateEnd < today ? dateEnd : today), -(DEFAULT_DAYS - 1)));
  const problems = dateProblems(dateStart, dateEnd, now);
  if (problems.length) throw failFields(problems);
  return { dateStart, dateEnd };
}

/**
 * The files the intake met on those days, newest first, at most FTP_IMPORT_ROWS (`truncated` when
 * more matched), each with its company: one company's (`companyId`), or every company's (null,
 * the provider's staff). A campaign is named only when it is the file's company's.
 */
export async function ftpImportsBetween(db: Kysely<Database>, companyId: number | null, days: FtpDays): Promise<{ items: FtpCompanyImport[]; truncated: boolean }> {
  let query = db.selectFrom('ftp_imports as f')
    .innerJoin('companies as co', 'co.id', 'f.company_id')
    .leftJoin('campaigns as c', (j) => j.onRef('c.id', '=', 'f.campaign_id').onRef('c.company_id', '=', 'f.company_id'))
    .select(['f.company_id', 'co.name as company_name', 'f.id', 'f.file_name', 'f.bytes', 'f.modified_at', 'f.campaign_id', 'c.name as campaign', 'f.state', 'f.deployment_id', 'f.rows', 'f.sendable', 'f.refused', 'f.code', 'f.detail', 'f.created_at', 'f.finished_at'])
    .where('f.created_at', '>=', dayStart(days.dateStart, TIME_ZONE)).where('f.created_at', '<', dayAfter(days.dateEnd, TIME_ZONE));
  if (companyId !== null) query = query.where('f.company_id', '=', companyId);
  const rows = await query.orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(FTP_IMPORT_ROWS + 1).execute();
  const items = rows.slice(0, FTP_IMPORT_ROWS).map((r): FtpCompanyImport => ({
    companyId: r.company_id, companyName: r.company_name,
    id: r.id, fileName: r.file_name, bytes: Number(r.bytes), modifiedAt: isoOrNull(r.modified_at), campaignId: r.campaign_id, campaign: r.campaign ?? null,
    state: r.state as FtpImport['state'], deploymentId: r.deployment_id === null ? null : Number(r.deployment_id), rows: r.rows, sendable: r.sendable, refused: r.refused, code: r.code, detail: r.detail,
    createdAt: new Date(r.created_at).toISOString(), finishedAt: isoOrNull(r.finished_at),
  }));
  return { items, truncated: rows.length > FTP_IMPORT_ROWS };
}

export async function ftpImportReport(ctx: HandlerContext<'reportCenter.getImpFtpReport'>) {
  const me = caller(ctx);
  const db = ctx.deps.db;
  const days = ftpReportDays(ctx.body, ctx.deps.now());
  const { items, truncated } = await ftpImportsBetween(db, me.companyId, days);
  const settings = await db.selectFrom('api_settings').select(['ftp_host', 'ftp_user', 'ftp_password', 'ftp_visited_at', 'ftp_next_visit_at', 'ftp_last_error', 'ftp_encrypted'])
    .where('company_id', '=', me.companyId).executeTakeFirst();
  return {
    // The company's own report names no company (it is the caller's).
    items: items.map(({ companyId: _company, companyName: _name, ...file }): FtpImport => file),
    truncated,
    folder: {
      configured: Boolean(settings?.ftp_host && settings.ftp_user && settings.ftp_password),
      visitedAt: isoOrNull(settings?.ftp_visited_at ?? null), nextVisitAt: isoOrNull(settings?.ftp_next_visit_at ?? null), lastError: settings?.ftp_last_error ?? null,
      encrypted: settings?.ftp_encrypted ?? null,
    },
  };
}
