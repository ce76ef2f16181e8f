// /Reports/General's three reports (GetTransactionsSummary, GetOperatorsSummary, GetTrafficByState)
// as functions of the company they read. The report center asks them for the caller's company; the
// provider's SMS reports tool (modules/platformReports) asks them for the company its staff chose,
// so both answers are one computation and cannot drift apart. Each checks its scope as every report
// does (report-scope.ts: the accounts are the company's, the days, the periods) and reads the
// rollups once (trafficSets, GROUPING SETS).
import type { Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import type { TrafficReport } from '../../../generated/types.gen.ts';
import { listOperators } from '../platformSms/reference-lists.ts';
import { operatorIdsOf } from './declared-traffic.ts';
import { reportScope, type Level, type ScopeRequest } from './report-scope.ts';
import { emptyRow, trafficSets } from './traffic.ts';

/** The traffic per period and account, per account, per area and per period, with the totals. */
export async function transactionsSummary(db: Kysely<Database>, request: ScopeRequest & { level: Level }): Promise<TrafficReport & { level: Level }> {
  const { level } = request;
  const scope = await reportScope(db, request);
  const [items, accounts, areas, periods, [totals = emptyRow()]] = await trafficSets(db, { scope, level }, [
    { by: ['period', 'account'], order: 'keys' }, { by: ['account'] }, { by: ['area'] }, { by: ['period'], order: 'keys' }, { by: [] },
  ]);
  return { level, items, accounts, areas, periods, totals };
}

/** The traffic per operator and how it is known, optionally of some operators (GetOperators' names; an unknown one 99931). */
export async function operatorsSummary(db: Kysely<Database>, request: ScopeRequest, operatorsNames?: string[]): Promise<TrafficReport> {
  const operatorIds = operatorIdsOf(operatorsNames, await listOperators(db));
  const scope = await reportScope(db, request);
  const query = { scope, ...(operatorIds ? { operatorIds } : {}) };
  const [items, [totals = emptyRow()]] = await trafficSets(db, query, [{ by: ['operator'] }, { by: [] }]);
  return { items, totals };
}

/** The traffic per SMS status code and account, and per status code, optionally of some status codes. */
export async function trafficByState(db: Kysely<Database>, request: ScopeRequest, statusCodes?: number[]): Promise<TrafficReport> {
  const scope = await reportScope(db, request);
  const query = { scope, ...(statusCodes?.length ? { statusCodes } : {}) };
  const [items, states, [totals = emptyRow()]] = await trafficSets(db, query, [{ by: ['statusCode', 'account'] }, { by: ['statusCode'] }, { by: [] }]);
  return { items, states, totals };
}
