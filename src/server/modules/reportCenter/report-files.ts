// Report files (schemas/api/report-center.yaml: generateReport, reportFileListByReportTypeId,
// linkDownloadFile, downloadReportFile). A request is checked like every report (report-scope.ts),
// then becomes a report_files row (enlist) and a durable job (engine/jobs, kind reportFile) in one
// transaction, and the answer goes back at once. Each job step appends the next chunk of rows
// after the cursor (the last message id written) to the file in the server's storage, then moves
// the cursor and the file's recorded length in one transaction: a step that died after writing is
// cut back to the recorded length by the next, so no row is written twice or lost. The file is
// downloaded through a link signed over (file, company, expiry) with a key derived from the
// server's master key, so a link names one file of one company for a few minutes and nothing else.
import { sql, type Kysely, type Transaction } from 'kysely';
import { BOM, csvField, csvSeparatorFor } from '../../../core/export-safety.ts';
import type { Database } from '../../../engine/database.ts';
import type { JobHandler } from '../../../engine/jobs/index.ts';
import { advanceJob, createJob, finishJob, lockJob, waitingJobs } from '../../../engine/lifecycle/index.ts';
import { appSettings } from '../../../generated/app.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { SpreadsheetFormat, ReportType } from '../../../generated/enums.gen.ts';
import type { ReportFile } from '../../../generated/types.gen.ts';
import { calendarDate, dayAfter, dayStart } from '../../../core/date-range.ts';
import { fail, failFields, fieldError, type FieldError } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { linkHolds, signLink } from '../../security/signed-links.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { requestLanguage, storedLanguage, wordsFor, type DocumentLanguage } from '../../i18n/document-words.ts';
import { fileNameOf, fileSources, headerOf, type FileParams, type SourcedReportType } from './report-file-sources.ts';
import { writeXlsxFile } from './report-file-xlsx.ts';
import { SCREEN_REPORT_TYPE } from './report-screens.ts';
import { dateProblems, reportScope } from './report-scope.ts';

export type { FileParams };

const TIME_ZONE = constants.sendWindow.timeZone;
const LINK_PURPOSE = 'report-file-link';


type FileRow = {
  id: number | string; report_type_id: number; application_id: number; format: string; state: string; rows: number | string; bytes: number | string;
  params: unknown; storage_key: string; company_id: number; error: string | null; created_at: Date; finished_at: Date | null;
};

const storageKey = (companyId: number, id: number, format: SpreadsheetFormat) => `reports/${companyId}/${id}.${format}`;
const CONTENT_TYPES: Record<SpreadsheetFormat, string> = { csv: 'text/csv; charset=utf-8', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };

function toReportFile(r: FileRow): ReportFile {
  const p = r.params as FileParams;
  return {
    processId: Number(r.id), reportTypeId: r.report_type_id as ReportFile['reportTypeId'], applicationId: r.application_id, format: r.format as ReportFile['format'],
    state: r.state as ReportFile['state'], rows: Number(r.rows), bytes: Number(r.bytes), dateStart: p.dateStart, dateEnd: p.dateEnd, accountIds: p.accountIds,
    campaignIds: p.campaignIds ?? [], deploymentId: p.deploymentId ?? null,
    createdAt: new Date(r.created_at).toISOString(), finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null, error: r.error,
  };
}

/** A file request as every call that makes one states it (generateReport, the log events, a batch). */
export interface FileRequest {
  reportTypeId: SourcedReportType;
  applicationId: number;
  accountIds?: number[];
  campaignIds?: number[];
  deploymentId?: number;
  /** The kinds of message kept (the spec's "transactions"); none: all. */
  purposes?: string[];
  dateStart: string;
  dateEnd: string;
  format?: SpreadsheetFormat;
}

/**
 * Checks a file request like every report and enlists it: a type read by accounts (its source says:
 * report-file-sources.ts) needs the company's accounts (99961) and may narrow to its campaigns or
 * one run (99931 otherwise); a type of the company's whole activity takes no narrowing. The answer
 * goes back at once.
 */
export async function requestReportFile(ctx: Pick<HandlerContext<'reportCenter.generateReport'>, 'session' | 'deps' | 'request'>, r: FileRequest): Promise<ReportFile> {
  const me = caller(ctx);
  const db = ctx.deps.db;
  const now = ctx.deps.now();
  const byAccounts = fileSources[r.reportTypeId].byAccounts;
  const problems: FieldError[] = [];
  if (!byAccounts) {
    problems.push(...dateProblems(r.dateStart, r.dateEnd, now));
    if (r.accountIds?.length) problems.push(fieldError('ClientsIds', '99931'));
    if (r.campaignIds?.length) problems.push(fieldError('CampaignsIds', '99931'));
    if (r.deploymentId !== undefined) problems.push(fieldError('DeploymentId', '99931'));
    if (r.purposes?.length) problems.push(fieldError('Transactions', '99931'));
    if (problems.length) throw failFields(problems);
  }
  const scope = byAccounts
    ? await reportScope(db, { companyId: me.companyId, accounts: { field: 'ClientsIds', ids: r.accountIds ?? [] }, dateStart: r.dateStart, dateEnd: r.dateEnd, now })
    : { channelIds: [], from: dayStart(r.dateStart, TIME_ZONE), to: dayAfter(r.dateEnd, TIME_ZONE) };
  // Campaigns and a run narrow the file; each must be the company's.
  if (r.campaignIds?.length) {
    const owned = await db.selectFrom('campaigns').select('id').where('company_id', '=', me.companyId).where('id', 'in', r.campaignIds).execute();
    const foreign = r.campaignIds.filter((id) => !owned.some((o) => o.id === id));
    if (foreign.length) problems.push(fieldError('CampaignsIds', '99931', foreign.join(', ')));
  }
  if (r.deploymentId !== undefined) {
    const run = await db.selectFrom('deployments').select('id').where('company_id', '=', me.companyId).where('id', '=', r.deploymentId).executeTakeFirst();
    if (!run) problems.push(fieldError('DeploymentId', '99931', String(r.deploymentId)));
  }
  if (problems.length) throw failFields(problems);
  const params: FileParams = {
    accountIds: scope.channelIds, campaignIds: r.campaignIds ?? [], deploymentId: r.deploymentId ?? null, purposes: r.purposes ?? [],
    dateStart: r.dateStart, dateEnd: r.dateEnd, from: scope.from.toISOString(), to: scope.to.toISOString(),
  };
  const id = await db.transaction().execute(async (trx) => {
    // A person's request waits its turn behind the company's files still being written, up to a bound.
    if (await waitingJobs(trx, 'reportFile', me.companyId) >= constants.reports.waitingFilesPerCompany) {
      throw fail('99946', `${constants.reports.waitingFilesPerCompany} report files are still being written: ask again when one is ready`);
    }
    return enlistReportFile(trx, { companyId: me.companyId, requestedBy: me.userId, reportTypeId: r.reportTypeId, applicationId: r.applicationId, params, now, format: r.format, language: requestLanguage(ctx.request) });
  });
  ctx.deps.messaging.wakeJobs?.();
  return toReportFile(await fileOf(db, me.companyId, id));
}

export async function generateReport(ctx: HandlerContext<'reportCenter.generateReport'>): Promise<ReportFile> {
  const b = ctx.body;
  return requestReportFile(ctx, {
    reportTypeId: b.ReportsTypeId, applicationId: b.applicationId ?? constants.reports.advancedQueryApplicationId, accountIds: b.ClientsIds,
    campaignIds: b.CampaignsIds, deploymentId: b.DeploymentId, purposes: b.Transactions, dateStart: b.DateStart, dateEnd: b.DateEnd, format: b.format,
  });
}

/** A report file row (enlist) and its job, in the caller's transaction: a request's and a schedule's run alike. */
export async function enlistReportFile(
  trx: Transaction<Database>,
  f: { companyId: number; requestedBy: number | null; reportTypeId: number; applicationId: number; params: FileParams; now: Date; scheduleId?: number; format?: SpreadsheetFormat; language: DocumentLanguage },
): Promise<number> {
  const row = await trx.insertInto('report_files').values({
    company_id: f.companyId, report_type_id: f.reportTypeId, application_id: f.applicationId, requested_by: f.requestedBy,
    params: JSON.stringify(f.params), format: f.format ?? 'csv', rows: 0, bytes: 0, storage_key: '', created_at: f.now, language: f.language, ...(f.scheduleId ? { schedule_id: f.scheduleId } : {}),
  }).returning('id').executeTakeFirstOrThrow();
  const fileId = Number(row.id);
  await trx.updateTable('report_files').set({ storage_key: storageKey(f.companyId, fileId, f.format ?? 'csv') }).where('id', '=', fileId).execute();
  // A report screen's table is written by writeScreenFiles (report-screens.ts), not by a job.
  if (f.reportTypeId !== SCREEN_REPORT_TYPE) await createJob(trx, 'reportFile', { fileId, companyId: f.companyId }, f.now);
  return fileId;
}

async function fileOf(db: Kysely<Database>, companyId: number, id: number): Promise<FileRow> {
  const row = await db.selectFrom('report_files').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
  if (!row) throw fail('99959');
  return row as FileRow;
}

/** The company's newest 200 files of a type (and application), optionally about some accounts (narrowed in SQL, before the limit). */
export async function reportFileRows(db: Kysely<Database>, companyId: number, f: { reportTypeId: number; applicationId?: number; accountIds?: number[] }): Promise<ReportFile[]> {
  let q = db.selectFrom('report_files').selectAll().where('company_id', '=', companyId).where('report_type_id', '=', f.reportTypeId);
  if (f.applicationId !== undefined) q = q.where('application_id', '=', f.applicationId);
  if (f.accountIds?.length) q = q.where(sql<boolean>`exists (select 1 from jsonb_array_elements_text(params -> 'accountIds') a where a::int = any(${f.accountIds}::int[]))`);
  const rows = await q.orderBy('id', 'desc').limit(200).execute();
  return (rows as FileRow[]).map(toReportFile);
}

export async function reportFileList(ctx: HandlerContext<'reportCenter.reportFileListByReportTypeId'>): Promise<ReportFile[]> {
  const b = ctx.body;
  return reportFileRows(ctx.deps.db, caller(ctx).companyId, { reportTypeId: b.ReportsTypeId, applicationId: b.applicationId ?? constants.reports.advancedQueryApplicationId, accountIds: b.ClientsId });
}

/** The console's list of the same files (list convention): newest first, filter state. */
export async function reportFilesPage(ctx: HandlerContext<'reportCenter.reportFiles'>) {
  const me = caller(ctx);
  let base = ctx.deps.db.selectFrom('report_files as f').selectAll('f').where('f.company_id', '=', me.companyId);
  if (ctx.query.state) base = base.where('f.state', '=', ctx.query.state);
  return paginate(base, ctx.query, {
    sortable: { createdAt: 'f.created_at' },
    defaultSort: { column: 'f.created_at', order: 'desc' },
    tieBreaker: 'f.id',
    search: [],
    map: (r) => toReportFile(r as FileRow),
  });
}

/** The path of a file's download, signed for its company and valid `minutes` from `now`. */
export function fileLink(secrets: SecretBox, id: number, companyId: number, now: Date, minutes: number): { url: string; expiresAt: string } {
  const link = signLink(secrets, LINK_PURPOSE, `${id}.${companyId}`, now, minutes);
  return { url: `/v1/${appSettings.product.key}/reportCenter/files/${id}?expires=${link.expires}&signature=${link.signature}`, expiresAt: link.expiresAt };
}

export async function linkDownloadFile(ctx: HandlerContext<'reportCenter.linkDownloadFile'>) {
  const me = caller(ctx);
  const id = ctx.query.processId;
  if (id === undefined) throw fail('99999');
  const file = await fileOf(ctx.deps.db, me.companyId, id);
  if (file.state !== 'ready') throw fail('99927');
  return fileLink(ctx.deps.secrets, id, me.companyId, ctx.deps.now(), constants.reports.downloadLinkMinutes);
}

export async function downloadReportFile(ctx: HandlerContext<'reportCenter.downloadReportFile'>) {
  const id = ctx.params.processId;
  const { expires, signature } = ctx.query;
  const row = await ctx.deps.db.selectFrom('report_files').select(['company_id', 'state', 'storage_key', 'created_at', 'report_type_id', 'format']).where('id', '=', id).executeTakeFirst();
  // One answer for a file that is not there and a link that is wrong: a link tells nothing of others' files.
  if (!row || !linkHolds(ctx.deps.secrets, LINK_PURPOSE, `${id}.${row.company_id}`, expires, signature, ctx.deps.now())) throw fail('99982');
  if (row.state !== 'ready') throw fail('99959');
  const day = calendarDate(new Date(row.created_at), TIME_ZONE);
  const format = row.format as SpreadsheetFormat;
  ctx.reply.header('content-disposition', `attachment; filename="${fileNameOf(row.report_type_id as ReportType)}-${id}-${day}.${format}"`);
  return { contentType: CONTENT_TYPES[format], bytes: ctx.deps.storage.read(row.storage_key) };
}

// ---- The job ----

/** One CSV line with the list separator the file's language's Excel expects (';' in Spanish). */
const csvLine = (cells: unknown[], separator: ',' | ';') => `${cells.map((c) => csvField(c, separator)).join(separator)}\r\n`;

/**
 * One step of a report file's job: the next chunk of rows, written at the file's recorded length,
 * then the cursor, the length and the row count moved in one transaction; the last (short) chunk
 * makes the file ready. A failure of the storage marks the file `error` with its reason.
 */
/** A file the storage failed: `error` with its reason, its job failed — never left waiting. */
async function failFile(deps: { db: Kysely<Database>; now: () => Date }, fileId: number | string, jobId: number, error: unknown): Promise<'done'> {
  const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  const now = deps.now();
  await deps.db.updateTable('report_files').set({ state: 'error', error: reason, finished_at: now }).where('id', '=', Number(fileId)).execute();
  await finishJob(deps.db, jobId, now, reason);
  return 'done';
}

export function reportFileStep(deps: { db: Kysely<Database>; now: () => Date; storage: FileStorage }, options: { leaseMs?: number; chunkRows?: number; rowsPerSheet?: number } = {}): JobHandler<'reportFile'> {
  const leaseMs = options.leaseMs ?? 60_000;
  const limit = options.chunkRows ?? constants.reports.fileChunkRows;
  return async (job) => {
    const { db } = deps;
    const file = await db.selectFrom('report_files').selectAll().where('id', '=', job.payload.fileId).executeTakeFirst();
    if (!file || file.state !== 'enlist') {
      await finishJob(db, job.id, deps.now());
      return 'done';
    }
    if (file.format === 'xlsx') {
      try {
        return (await writeXlsxFile(deps, job, file, { chunkRows: limit, leaseMs, rowsPerSheet: options.rowsPerSheet })) === 'done' ? 'done' : 'more';
      } catch (error) {
        return failFile(deps, file.id, job.id, error);
      }
    }
    const current = await db.selectFrom('jobs').select('cursor').where('id', '=', job.id).executeTakeFirstOrThrow();
    const cursor = Number(current.cursor);
    const offset = Number(file.bytes);
    try {
      const source = fileSources[file.report_type_id as SourcedReportType];
      const rows = await source.after(db, file.company_id, file.params as FileParams, cursor, limit);
      const language = storedLanguage(file.language);
      const words = wordsFor(language);
      const separator = csvSeparatorFor(language);
      let text = rows.map((r) => csvLine(source.cells(r, words), separator)).join('');
      if (offset === 0) text = BOM + csvLine(headerOf(source, language), separator) + text;
      const length = await deps.storage.writeAt(file.storage_key, offset, Buffer.from(text, 'utf8'));
      return await db.transaction().execute(async (trx) => {
        const locked = await lockJob(trx, job.id);
        if (!locked) return 'done' as const;
        // Another step moved first: what this one wrote is cut back by the next.
        if (locked.cursor !== cursor) return 'more' as const;
        const now = deps.now();
        const last = rows.length ? Number(rows[rows.length - 1].id) : cursor;
        const done = rows.length < limit;
        await trx.updateTable('report_files')
          .set({ bytes: length, rows: sql`rows + ${rows.length}`, ...(done ? { state: 'ready', finished_at: now } : {}) })
          .where('id', '=', file.id).execute();
        await advanceJob(trx, job.id, last, rows.length, now, leaseMs);
        if (!done) return 'more' as const;
        await finishJob(trx, job.id, now);
        return 'done' as const;
      });
    } catch (error) {
      return failFile(deps, file.id, job.id, error);
    }
  };
}
