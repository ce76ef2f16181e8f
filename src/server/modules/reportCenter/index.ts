// The report center's traffic calls (schemas/api/report-center.yaml): /Reports/General's three
// reports over the rollups, and the operator and state lists their filters offer.
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { listMessageStates, listOperators } from '../platformSms/reference-lists.ts';
import { billingBoard, billingBoardWorkbook } from './billing-board.ts';
import { callCenterHistory } from './call-center.ts';
import { declaredTraffic } from './declared-traffic.ts';
import { operatorsSummary, trafficByState, transactionsSummary } from './general-traffic.ts';
import { downloadReportFile, generateReport, linkDownloadFile, reportFileList, reportFilesPage } from './report-files.ts';
import { deploymentsSummary, platformTraffic } from './deployments-and-platforms.ts';
import { ftpImportReport } from './ftp-imports.ts';
import { getPackages, getReportsByPackageId, logEventFileLink, logEventFiles, mtMessagesFromBatch, requestLogEvents } from './report-packages.ts';
import { createSchedule, deleteSchedule, scheduleGet, schedulesPage, updateSchedule } from './report-schedules.ts';
import { companyAccounts, reportScope, yearMonths, type Level } from './report-scope.ts';
import { emptyRow, trafficSets } from './traffic.ts';

export const reportCenterHandlers: DomainHandlers<'reportCenter'> = {
  // The caller's company: the same functions answer the provider's staff for any company (platformReports).
  'reportCenter.getTransactionsSummary': async (ctx) => {
    const b = ctx.body;
    const level = (b.AggregationLevel ?? 1) as Level;
    return transactionsSummary(ctx.deps.db, { companyId: caller(ctx).companyId, accounts: { field: 'ClientId', ids: b.ClientId }, dateStart: b.DateStart, dateEnd: b.DateEnd, level, now: ctx.deps.now() });
  },

  'reportCenter.getOperatorsSummary': async (ctx) => {
    const b = ctx.body;
    return operatorsSummary(ctx.deps.db, { companyId: caller(ctx).companyId, accounts: { field: 'ClientsIds', ids: b.ClientsIds }, dateStart: b.DateStart, dateEnd: b.DateEnd, now: ctx.deps.now() }, b.OperatorsNames);
  },

  'reportCenter.getTrafficByState': async (ctx) => {
    const b = ctx.body;
    return trafficByState(ctx.deps.db, { companyId: caller(ctx).companyId, accounts: { field: 'ClientsIds', ids: b.ClientsIds }, dateStart: b.DateStart, dateEnd: b.DateEnd, now: ctx.deps.now() }, b.StatesIds);
  },

  'reportCenter.messagesCountPerMonth': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const db = ctx.deps.db;
    const now = ctx.deps.now();
    const months = yearMonths(b.year, now);
    const scope = await reportScope(db, { companyId: me.companyId, accounts: { field: 'clientId', ids: [b.clientId] }, dateStart: months.dateStart, dateEnd: months.dateEnd, level: 2, now });
    const query = { scope, ...(b.state !== undefined ? { statusCodes: [b.state] } : {}) };
    const [rows, [totals = emptyRow()]] = await trafficSets(db, { ...query, level: 2 }, [{ by: ['period'], order: 'keys' }, { by: [] }]);
    // Every month of the range, the quiet ones as zeros: a year read at a glance.
    const items = months.list.map((period) => rows.find((r) => r.period === period) ?? { ...emptyRow(), period });
    return { level: 2, items, totals };
  },

  'reportCenter.queryCallCenter': callCenterHistory,

  'reportCenter.getPackages': getPackages,
  'reportCenter.getReportsByPackageId': getReportsByPackageId,
  'reportCenter.requestReportMtMessagesFromBatch': mtMessagesFromBatch,
  'reportCenter.getItLogEventReportFileList': logEventFiles,
  'reportCenter.getItLogEvent': requestLogEvents,
  'reportCenter.getLinkDownloadLogEventFile': logEventFileLink,
  'reportCenter.getImpFtpReport': ftpImportReport,

  'reportCenter.schedules': schedulesPage,
  'reportCenter.schedule': scheduleGet,
  'reportCenter.createSchedule': createSchedule,
  'reportCenter.updateSchedule': updateSchedule,
  'reportCenter.deleteSchedule': deleteSchedule,

  'reportCenter.connectinInfoBillingBoard': billingBoard,

  'reportCenter.connectinExcelInfoBillingBoard': billingBoardWorkbook,

  'reportCenter.generateReport': generateReport,

  'reportCenter.reportFiles': reportFilesPage,

  'reportCenter.getCampaigns': async (ctx) => {
    const me = caller(ctx);
    return ctx.deps.db.selectFrom('campaigns').select(['id', 'name']).where('company_id', '=', me.companyId).orderBy('id', 'desc').limit(500).execute();
  },

  'reportCenter.reportFileListByReportTypeId': reportFileList,

  'reportCenter.linkDownloadFile': linkDownloadFile,

  'reportCenter.downloadReportFile': downloadReportFile,

  'reportCenter.getDeploymentsSummary': deploymentsSummary,

  'reportCenter.getCampaignsSummary': async (ctx) => {
    const me = caller(ctx);
    const b = ctx.body;
    const db = ctx.deps.db;
    const scope = await reportScope(db, { companyId: me.companyId, accounts: { field: 'ClientsIds', ids: b.ClientsIds }, dateStart: b.DateStart, dateEnd: b.DateEnd, now: ctx.deps.now() });
    const query = { scope, inDeployments: true };
    const [items, [totals = emptyRow()]] = await trafficSets(db, query, [{ by: ['campaign'] }, { by: [] }]);
    return { items, totals };
  },

  'reportCenter.getWhatsAppTraffic': (ctx) => platformTraffic(ctx, 'whatsapp'),
  'reportCenter.getRcsTraffic': (ctx) => platformTraffic(ctx, 'rcs'),

  'reportCenter.getAccounts': async (ctx) => companyAccounts(ctx.deps.db, caller(ctx).companyId, ctx.query.platform),

  'reportCenter.getTraffic': declaredTraffic,

  'reportCenter.getOperators': async (ctx) => listOperators(ctx.deps.db),
  'reportCenter.getMessageStates': async (ctx) => listMessageStates(ctx.deps.db),
};
