// The declared traffic report (GetTraffic): the rollups grouped by whatever dimensions a report's
// YAML names — operator and hour, campaign and state, channel and month — so a product owner shapes
// a new view of the traffic without a new query. The groupings are the traffic keys (traffic.ts);
// the checks are every traffic report's (report-scope.ts), plus the two a free grouping adds: keys
// that one read cannot combine, and an answer too long to read (refused, never cut short).
import type { SmsOperator } from '../../../generated/types.gen.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { ApiError, fieldError, failFields } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { listOperators } from '../platformSms/reference-lists.ts';
import { reportScope, type Level } from './report-scope.ts';
import { clashingKeys, dimensionKeys, emptyRow, trafficSets } from './traffic.ts';

/** Operator ids for names as GetOperators writes them (any case); an unknown name is refused. */
export function operatorIdsOf(names: string[] | undefined, operators: SmsOperator[]): number[] | undefined {
  if (!names?.length) return undefined;
  const unknown = names.filter((n) => !operators.some((o) => o.name.toLowerCase() === n.trim().toLowerCase()));
  if (unknown.length) throw failFields([fieldError('OperatorsNames', '99931', unknown.join(', '))]);
  return operators.filter((o) => names.some((n) => o.name.toLowerCase() === n.trim().toLowerCase())).map((o) => o.id);
}

export async function declaredTraffic(ctx: HandlerContext<'reportCenter.getTraffic'>) {
  const me = caller(ctx);
  const b = ctx.body;
  const db = ctx.deps.db;
  const by = b.GroupBy.map((d) => dimensionKeys[d]);
  const clash = clashingKeys(by);
  const byPeriod = by.includes('period');
  const level = (b.AggregationLevel ?? 1) as Level;
  // Every problem of the request in one answer: the grouping's beside the scope's.
  const scopeRequest = { companyId: me.companyId, accounts: { field: 'ClientsIds', ids: b.ClientsIds }, dateStart: b.DateStart, dateEnd: b.DateEnd, now: ctx.deps.now(), ...(byPeriod ? { level } : {}) };
  const clashProblem = clash ? fieldError('GroupBy', '99931', b.GroupBy.filter((d) => clash.includes(dimensionKeys[d])).join(' + ')) : null;
  const scope = await reportScope(db, scopeRequest).catch((error: unknown) => {
    throw clashProblem && error instanceof ApiError ? failFields([clashProblem, ...(error.errors ?? [])]) : error;
  });
  if (clashProblem) throw failFields([clashProblem]);
  const operatorIds = operatorIdsOf(b.OperatorsNames, await listOperators(db));
  const query = { scope, level, ...(operatorIds ? { operatorIds } : {}), ...(b.StatesIds?.length ? { statusCodes: b.StatesIds } : {}) };
  const [items, [totals = emptyRow()]] = await trafficSets(db, query, [{ by, order: b.OrderBy ?? 'keys' }, { by: [] }]);
  const limit = constants.reports.declaredRowsLimit;
  if (items.length > limit) throw failFields([fieldError('GroupBy', '99962', `> ${limit}`)]);
  return { ...(byPeriod ? { level } : {}), items, totals };
}
