// The report center's catalogue and its per-kind requests (schemas/api/report-center.yaml):
// GetPackages and getReportsByPackageId read the report types' packages (report-type.yaml's
// x-values, typed once); a batch's MT file and the log-event files are report files like any other
// (report-files.ts), asked for by their own calls.
import { addDays, calendarDateOf, dayNumber, formatYmd } from '../../../core/bogota-time.ts';
import { reportPackages, reportTypeMeta, reportTypes, type ReportPackage } from '../../../generated/enums.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { fileLink, reportFileRows, requestReportFile } from './report-files.ts';

const TIME_ZONE = constants.sendWindow.timeZone;
const typesOf = (p: ReportPackage) => reportTypes.filter((t) => reportTypeMeta[t].package === p);

export async function getPackages(_ctx: HandlerContext<'reportCenter.getPackages'>) {
  return reportPackages.map((packageId) => ({ packageId, reportTypeIds: typesOf(packageId) }));
}

export async function getReportsByPackageId(ctx: HandlerContext<'reportCenter.getReportsByPackageId'>) {
  return typesOf(ctx.body.packageId).map((reportTypeId) => ({ reportTypeId, packageId: ctx.body.packageId }));
}

/** A batch (a run of the company)'s messages: its account, from the day it was made to the day it ended (today while it goes on). */
export async function mtMessagesFromBatch(ctx: HandlerContext<'reportCenter.requestReportMtMessagesFromBatch'>) {
  const me = caller(ctx);
  const b = ctx.body;
  const run = await ctx.deps.db.selectFrom('deployments').select(['channel_id', 'created_at', 'finished_at'])
    .where('id', '=', b.DeploymentId).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!run) throw failFields([fieldError('DeploymentId', '99931', String(b.DeploymentId))]);
  const today = calendarDateOf(ctx.deps.now(), TIME_ZONE);
  const end = run.finished_at ? calendarDateOf(new Date(run.finished_at), TIME_ZONE) : today;
  const start = calendarDateOf(new Date(run.created_at), TIME_ZONE);
  // A run older than the report history is cut to it; the rule's own 99962 says so otherwise.
  const oldest = addDays(today, -(constants.reports.historyDays - 1));
  return requestReportFile(ctx, {
    reportTypeId: 1, applicationId: b.applicationId ?? constants.reports.advancedQueryApplicationId, accountIds: [run.channel_id], deploymentId: b.DeploymentId,
    dateStart: formatYmd(dayNumber(start) < dayNumber(oldest) ? oldest : start), dateEnd: formatYmd(end),
  });
}

export async function logEventFiles(ctx: HandlerContext<'reportCenter.getItLogEventReportFileList'>) {
  const me = caller(ctx);
  if (ctx.body?.companyId !== undefined && ctx.body.companyId !== me.companyId) throw failFields([fieldError('companyId', '99961', String(ctx.body.companyId))]);
  return reportFileRows(ctx.deps.db, me.companyId, { reportTypeId: 2 });
}

export async function requestLogEvents(ctx: HandlerContext<'reportCenter.getItLogEvent'>) {
  return requestReportFile(ctx, { reportTypeId: 2, applicationId: constants.reports.advancedQueryApplicationId, dateStart: ctx.body.DateStart, dateEnd: ctx.body.DateEnd });
}

export async function logEventFileLink(ctx: HandlerContext<'reportCenter.getLinkDownloadLogEventFile'>) {
  const me = caller(ctx);
  const file = await ctx.deps.db.selectFrom('report_files').select(['id', 'state']).where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).where('report_type_id', '=', 2).executeTakeFirst();
  if (!file) throw fail('99959');
  if (file.state !== 'ready') throw fail('99927');
  return fileLink(ctx.deps.secrets, Number(file.id), me.companyId, ctx.deps.now(), constants.reports.downloadLinkMinutes);
}
