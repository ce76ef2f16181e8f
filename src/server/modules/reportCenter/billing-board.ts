// The billing dashboards (ConnectinInfoBillingBoard and its Excel twin, schemas/api/report-center.yaml):
// a month or a year of the company's traffic from the rollups. pOption 1, the billing board
// (/Reports/FactuDashboard): credits per account, per channel type and per day or month.
// pOption 2, the SMS board (/Reports/SmsxDashboard): the SMS accounts' outcomes per day or month,
// per account and per operator. The Excel twin writes the board's rows and totals (sheet
// `recipient`, spec 9), every cell through export-safety.
import ExcelJS from 'exceljs';
import { parseYmd } from '../../../core/bogota-time.ts';
import { calendarDate } from '../../../core/date-range.ts';
import { safeCell } from '../../../core/export-safety.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { TrafficReport, TrafficRow } from '../../../generated/types.gen.ts';
import { fail, failFields, fieldError, type FieldError } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { requestLanguage, wordsFor, type Words } from '../../i18n/document-words.ts';
import { monthDays, reportScope } from './report-scope.ts';
import { emptyRow, trafficSets } from './traffic.ts';

type BoardOperation = 'reportCenter.connectinInfoBillingBoard' | 'reportCenter.connectinExcelInfoBillingBoard';
type BoardQuery = HandlerContext<'reportCenter.connectinInfoBillingBoard'>['query'];

/** The board asked for, its accounts and days checked (every problem listed). */
export async function billingBoard<K extends BoardOperation>(ctx: HandlerContext<K>): Promise<TrafficReport> {
  const me = caller(ctx);
  const q = ctx.query as BoardQuery;
  const db = ctx.deps.db;
  if (q.pOption === undefined) throw failFields([fieldError('pOption', '99999')]);
  if (q.connectinUserId !== undefined) {
    const user = await db.selectFrom('users').select('id').where('id', '=', q.connectinUserId).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!user) throw fail('99959');
  }
  const problems: FieldError[] = [];
  // The client is the company (its NIT's): another client is not this caller's to read.
  if (q.pClientId !== undefined && q.pClientId !== me.companyId) problems.push(fieldError('pClientId', '99961', String(q.pClientId)));
  const sms = q.pOption === 2;
  let accounts = db.selectFrom('channels').select('id').where('company_id', '=', me.companyId);
  if (sms) accounts = accounts.where('platform', '=', 'sms');
  if (q.pAccountId !== undefined) accounts = accounts.where('id', '=', q.pAccountId);
  const ids = (await accounts.orderBy('id').execute()).map((a) => a.id);
  if (q.pAccountId !== undefined && !ids.length) problems.push(fieldError('pAccountId', '99961', String(q.pAccountId)));
  if (problems.length) throw failFields(problems);
  // This Bogotá year unless told.
  const year = q.pYear ?? parseYmd(calendarDate(ctx.deps.now(), constants.sendWindow.timeZone)).year;
  const days = monthDays(year, q.pMonth, ctx.deps.now());
  // A company without accounts (of that kind) has an empty board, not a refusal.
  if (!ids.length) return { level: days.level, items: [], periods: [], accounts: [], totals: emptyRow() };
  const scope = await reportScope(db, { companyId: me.companyId, accounts: { field: 'pAccountId', ids }, dateStart: days.dateStart, dateEnd: days.dateEnd, level: days.level, now: ctx.deps.now() });
  const query = { scope, ...(sms ? { platform: 'sms' } : {}) };
  const byDay = { ...query, level: days.level };
  if (!sms) {
    // The channel type and the account answer the same field from two joins: two reads.
    const [[items, byPeriod, [all = emptyRow()]], [platforms]] = await Promise.all([
      trafficSets(db, byDay, [{ by: ['account'] }, { by: ['period'], order: 'keys' }, { by: [] }]),
      trafficSets(db, byDay, [{ by: ['platform'] }]),
    ]);
    return { level: days.level, items, platforms, periods: byPeriod, totals: all };
  }
  const [byPeriod, accountsRows, operators, [all = emptyRow()]] = await trafficSets(db, byDay, [{ by: ['period'], order: 'keys' }, { by: ['account'] }, { by: ['operator'] }, { by: [] }]);
  return { level: days.level, items: byPeriod, periods: byPeriod, accounts: accountsRows, operators, totals: all };
}

const BILLING_COLUMNS = ['account', 'platform', 'messages', 'parts', 'credits'] as const;
const SMS_COLUMNS = ['period', 'messages', 'delivered', 'failed', 'sent', 'pending', 'blocked', 'successRate', 'credits'] as const;
// The titles the dashboards' tables show (their YAML's column labels), in the asker's language.
const SCREEN_TITLES: Record<string, string> = { credits: 'reportsGeneral.credits', parts: 'billingBoard.parts' };
const label = (words: Words, field: string) => (SCREEN_TITLES[field] ? words.screenText(SCREEN_TITLES[field]) : words.fieldTitle(field));
const cellOf = (words: Words, row: TrafficRow, field: string) => {
  if (field === 'platform') return row.platform ? words.enumLabel('channel-platform', row.platform) : '';
  return (row as unknown as Record<string, unknown>)[field] ?? '';
};

/** The board as an XLSX workbook: a header row, the board's rows, and the totals. */
export async function billingBoardWorkbook<K extends BoardOperation>(ctx: HandlerContext<K>): Promise<{ contentType: string; bytes: Buffer }> {
  const board = await billingBoard(ctx);
  const sms = (ctx.query as BoardQuery).pOption === 2;
  const columns: readonly string[] = sms ? SMS_COLUMNS : BILLING_COLUMNS;
  const words = wordsFor(requestLanguage(ctx.request));
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(constants.reports.xlsxSheetName);
  sheet.addRow(columns.map((c) => label(words, c)));
  for (const row of board.items) sheet.addRow(columns.map((c) => safeCell(cellOf(words, row, c))));
  sheet.addRow(columns.map((c, i) => (i === 0 ? words.text('reportFile.total') : c === 'platform' || c === 'period' || c === 'account' ? '' : safeCell(cellOf(words, board.totals, c)))));
  const q = ctx.query as BoardQuery;
  const name = `${sms ? 'tablero-sms' : 'tablero-facturacion'}-${q.pYear ?? board.periods?.[0]?.period?.slice(0, 4) ?? 'actual'}${q.pMonth ? `-${String(q.pMonth).padStart(2, '0')}` : ''}.xlsx`;
  ctx.reply.header('content-disposition', `attachment; filename="${name}"`);
  return { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes: Buffer.from(await book.xlsx.writeBuffer()) };
}
