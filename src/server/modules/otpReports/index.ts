// The OTP efficacy reports (schemas/api/otp-reports.yaml): one purpose's delivery times and
// success, by day, in all, by operator and by status code, over the rollups. The accounts and
// dates are checked by the report center's one rule (report-scope.ts).
import type { OtpReportsGetTimesOtpBody, TrafficRow } from '../../../generated/types.gen.ts';
import { caller, type DomainHandlers, type HandlerContext } from '../../http/handler.ts';
import { reportScope } from '../reportCenter/report-scope.ts';
import { emptyRow, trafficSets, type TrafficKey } from '../reportCenter/traffic.ts';

type OtpOperation = 'otpReports.getTimesOtpByDay' | 'otpReports.getTimesOtp' | 'otpReports.getTimesOtpByOperator' | 'otpReports.getTimesOtpByState' | 'otpReports.getSuccessByOperator';

/** One purpose's traffic in scope grouped by `by` (nothing: one row, the totals). */
async function purposeReport<K extends OtpOperation>(ctx: HandlerContext<K>, by: TrafficKey[]): Promise<{ items: TrafficRow[]; totals: TrafficRow }> {
  const me = caller(ctx);
  // The five operations take the same body.
  const b = ctx.body as OtpReportsGetTimesOtpBody;
  const db = ctx.deps.db;
  const scope = await reportScope(db, { companyId: me.companyId, accounts: { field: 'ClientsIds', ids: b.ClientsIds }, dateStart: b.DateStart, dateEnd: b.DateEnd, now: ctx.deps.now() });
  const query = { scope, purposes: [b.Purpose ?? 'otp'] };
  if (!by.length) {
    const [[totals = emptyRow()]] = await trafficSets(db, query, [{ by: [] }]);
    return { items: totals.messages ? [totals] : [], totals };
  }
  const [items, [totals = emptyRow()]] = await trafficSets(db, { ...query, level: 1 }, [{ by, order: by.includes('period') ? 'keys' : 'size' }, { by: [] }]);
  return { items, totals };
}

export const otpReportsHandlers: DomainHandlers<'otpReports'> = {
  'otpReports.getTimesOtpByDay': (ctx) => purposeReport(ctx, ['period']),
  'otpReports.getTimesOtp': (ctx) => purposeReport(ctx, []),
  'otpReports.getTimesOtpByOperator': (ctx) => purposeReport(ctx, ['operator']),
  'otpReports.getTimesOtpByState': (ctx) => purposeReport(ctx, ['statusCode']),
  'otpReports.getSuccessByOperator': (ctx) => purposeReport(ctx, ['operator']),
};
