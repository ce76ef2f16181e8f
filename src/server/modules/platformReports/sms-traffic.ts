// The provider's SMS reports tool (/smsPlatformTools/reportsSms, schemas/api/platform-reports.yaml):
// one company's SMS traffic as the report center shows it to that company. The company is the
// tool's (auth/staff.ts: staff name any company, anyone else only their own, 99982), its accounts
// are its channels of platform sms, and the figures come from /Reports/General's own functions
// (reportCenter/general-traffic.ts) asked for that company, so the provider and the client read
// the same numbers.
import type { TrafficReport } from '../../../generated/types.gen.ts';
import { toolCompany } from '../../auth/staff.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { operatorsSummary, trafficByState, transactionsSummary } from '../reportCenter/general-traffic.ts';
import { companyAccounts, periodProblems, type Level } from '../reportCenter/report-scope.ts';
import { emptyRow } from '../reportCenter/traffic.ts';

export async function smsTraffic(ctx: HandlerContext<'platformReports.reportsSms'>): Promise<TrafficReport> {
  const me = caller(ctx);
  const b = ctx.body;
  const db = ctx.deps.db;
  const now = ctx.deps.now();
  const level = (b.AggregationLevel ?? 1) as Level;
  // Before anything of the company is read: a company user naming another company is refused.
  const companyId = toolCompany(me, b.companyId);
  if (companyId !== me.companyId) {
    const company = await db.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
    if (!company) throw fail('99959');
  }
  const sms = (await companyAccounts(db, companyId, 'sms')).map((a) => a.id);
  // Named accounts narrow the report; each must be one of the company's SMS accounts (99961).
  const ids = b.ClientsIds?.length ? b.ClientsIds : sms;
  const foreign = ids.filter((id) => !sms.includes(id));
  // Every problem in one answer, as every report lists them (spec 5).
  const problems = [...(foreign.length ? [fieldError('ClientsIds', '99961', foreign.join(', '))] : []), ...periodProblems(b.DateStart, b.DateEnd, level, now)];
  if (problems.length) throw failFields(problems);
  // A company without SMS accounts sent nothing: an empty report rather than the "choose an
  // account" refusal the report center gives a person who chose none.
  if (!ids.length) return { level, items: [], accounts: [], areas: [], periods: [], operators: [], states: [], totals: emptyRow() };
  const request = { companyId, accounts: { field: 'ClientsIds', ids }, dateStart: b.DateStart, dateEnd: b.DateEnd, now };
  const summary = await transactionsSummary(db, { ...request, level });
  const operators = await operatorsSummary(db, request);
  const states = await trafficByState(db, request);
  return { ...summary, operators: operators.items, states: states.states ?? [] };
}
