// The deployments report (/Reports/Deployments: per run, or one run by its id) and the reports of
// one platform's accounts (/Reports/WhatsApp, /Reports/RCS), over the rollups.
import { sql } from 'kysely';
import { addDays, calendarDateOf, instantAtMinutes } from '../../../core/bogota-time.ts';
import type { TrafficReport } from '../../../generated/types.gen.ts';
import { fail, failFields, fieldError, type FieldError } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { reportScope, type Level, type ReportScope } from './report-scope.ts';
import { emptyRow, trafficSets } from './traffic.ts';

/**
 * Spec 5: a deployment id, or both dates (99999 names the missing one) with at least one account.
 * With an id, the scope is that run's accounts and days (it must be the company's: 99959).
 */
export async function deploymentsSummary(ctx: HandlerContext<'reportCenter.getDeploymentsSummary'>): Promise<TrafficReport> {
  const me = caller(ctx);
  const b = ctx.body;
  const db = ctx.deps.db;
  let scope: ReportScope;
  if (b.DeploymentId !== undefined) {
    const run = await sql<{ channel_id: number; first: Date | null; last: Date | null }>`
      select d.channel_id, span.first, span.last
      from deployments d
      cross join lateral (select min(m.created_at) as first, max(m.created_at) as last from messages m where m.deployment_id = d.id) span
      where d.id = ${b.DeploymentId} and d.company_id = ${me.companyId}`.execute(db);
    const row = run.rows[0];
    if (!row) throw fail('99959');
    const now = ctx.deps.now();
    const first = row.first ? new Date(row.first) : now;
    const last = row.last ? new Date(row.last) : now;
    // The run's own days: every message it made, whatever the report history says (whole Bogotá
    // days, as every scope is; the deployment filter keeps the other runs of those days out).
    scope = { companyId: me.companyId, channelIds: [row.channel_id], from: instantAtMinutes(calendarDateOf(first), 0), to: instantAtMinutes(addDays(calendarDateOf(last), 1), 0) };
  } else {
    const missing: FieldError[] = (['DateStart', 'DateEnd'] as const).filter((k) => !b[k]).map((k) => fieldError(k, '99999'));
    if (missing.length) throw failFields(missing);
    scope = await reportScope(db, { companyId: me.companyId, accounts: { field: 'ClientsIds', ids: b.ClientsIds ?? [] }, dateStart: b.DateStart!, dateEnd: b.DateEnd!, now: ctx.deps.now() });
  }
  const query = { scope, inDeployments: true, ...(b.DeploymentId !== undefined ? { deploymentIds: [b.DeploymentId] } : {}) };
  const [items, states, [totals = emptyRow()]] = await trafficSets(db, query, [{ by: ['deployment'] }, { by: ['statusCode'] }, { by: [] }]);
  // Newest run first (the deployment key's time), then by id.
  items.sort((x, y) => (y.deployedAt ?? '').localeCompare(x.deployedAt ?? '') || (y.deploymentId ?? 0) - (x.deploymentId ?? 0));
  return { items, states, totals };
}

type PlatformOperation = 'reportCenter.getWhatsAppTraffic' | 'reportCenter.getRcsTraffic' | 'mtReports.trafficSuccess' | 'mtReports.reportCenterTrafficSuccess';

/** One platform's report: every account must be a channel of that platform (99961). */
export async function platformTraffic<K extends PlatformOperation>(ctx: HandlerContext<K>, platform: 'sms' | 'whatsapp' | 'rcs'): Promise<TrafficReport> {
  const me = caller(ctx);
  const b = ctx.body as HandlerContext<'reportCenter.getWhatsAppTraffic'>['body'];
  const db = ctx.deps.db;
  const level = (b.AggregationLevel ?? 1) as Level;
  const others = b.ClientsIds.length
    ? await db.selectFrom('channels').select('id').where('company_id', '=', me.companyId).where('id', 'in', b.ClientsIds).where('platform', '<>', platform).execute()
    : [];
  if (others.length) throw failFields([fieldError('ClientsIds', '99961', others.map((o) => o.id).join(', '))]);
  const scope = await reportScope(db, { companyId: me.companyId, accounts: { field: 'ClientsIds', ids: b.ClientsIds }, dateStart: b.DateStart, dateEnd: b.DateEnd, level, now: ctx.deps.now() });
  const query = { scope, platform };
  const [items, periods, errors, [totals = emptyRow()]] = await trafficSets(db, { ...query, level }, [
    { by: ['period', 'account'], order: 'keys' }, { by: ['period'], order: 'keys' }, { by: ['errorCode'] }, { by: [] },
  ]);
  // The error codes of what did not go (a delivered message's '000' or none is no error).
  const failedErrors = errors.filter((e) => e.errorCode && e.failed + e.blocked + e.cancelled > 0);
  return { level, items, periods, errors: failedErrors, totals };
}
