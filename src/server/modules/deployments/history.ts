// GET /v1/deployments/history (schemas/api/deployments.yaml `history`, screen /Campaigns/history):
// the company's deployments between two Bogotá calendar days with their messages per outcome,
// aggregated in SQL in one pass over the messages of the matching deployments (the index
// messages_deployment_idx), the totals and the messages per day and outcome. The deployments are
// found by their day through deployments_day_idx (migration 0340_history).
import { sql, type Expression, type SqlBool } from 'kysely';
import { dayNumber, parseYmd } from '../../../core/bogota-time.ts';
import { calendarDate, dateRangeProblem, dayAfter, dayStart } from '../../../core/date-range.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { DeploymentHistory, DeploymentHistoryRow } from '../../../generated/types.gen.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { outcomeSql } from '../../../engine/lifecycle/index.ts';

const TIME_ZONE = constants.sendWindow.timeZone;
/** At most this many deployments come back (newest first); totals and perDay cover every match. */
export const HISTORY_ROWS = 5000;

/** The day a deployment belongs to: when it started, else when it is scheduled, else when it was made. */
const DEPLOYMENT_AT = sql`coalesce(d.started_at, d.scheduled_at, d.created_at)`;

/** Each message in exactly one outcome (enum message-outcome; the lifecycle owns the mapping). */
const OUTCOME = sql.raw(outcomeSql('m.state'));

type Outcome = DeploymentHistory['perDay'][number]['outcome'];
type Counts = Record<'total' | 'accepted' | Outcome | 'credits', number>;
const zero = (): Counts => ({ total: 0, accepted: 0, pending: 0, sent: 0, delivered: 0, failed: 0, blocked: 0, cancelled: 0, credits: 0 });
const n = (v: string | number | null | undefined) => Number(v ?? 0);

interface HistoryQuery { dateStart?: string; dateEnd?: string; campaignId?: number; platform?: string; state?: string }

export async function deploymentHistory(ctx: HandlerContext<'deployments.history'>): Promise<DeploymentHistory> {
  const me = caller(ctx);
  const f: HistoryQuery = ctx.query;
  const missing = (['dateStart', 'dateEnd'] as const).filter((k) => !f[k]);
  if (missing.length) throw failFields(missing.map((k) => fieldError(k, '99999')));
  const problem = dateRangeProblem({ start: f.dateStart, end: f.dateEnd }, calendarDate(ctx.deps.now(), TIME_ZONE));
  if (problem === 'afterToday') throw fail('99962');
  if (problem === 'endBeforeStart') throw fail('99958');
  const start = parseYmd(f.dateStart!);
  const end = parseYmd(f.dateEnd!);
  if (dayNumber(end) - dayNumber(start) + 1 > constants.reports.historyDays) throw fail('99962');

  const where: Expression<SqlBool>[] = [
    sql<SqlBool>`d.company_id = ${me.companyId}`,
    sql<SqlBool>`${DEPLOYMENT_AT} >= ${dayStart(f.dateStart!, TIME_ZONE)}`,
    sql<SqlBool>`${DEPLOYMENT_AT} < ${dayAfter(f.dateEnd!, TIME_ZONE)}`,
  ];
  if (f.campaignId) where.push(sql<SqlBool>`d.campaign_id = ${f.campaignId}`);
  if (f.state) where.push(sql<SqlBool>`d.state = ${f.state}`);
  if (f.platform) where.push(sql<SqlBool>`exists (select 1 from channels ch where ch.id = d.channel_id and ch.platform = ${f.platform})`);
  const matching = sql`select d.id from deployments d where ${sql.join(where, sql` and `)}`;
  const db = ctx.deps.db;

  // Every matching deployment (newest first) with what it shows; the rows are the first HISTORY_ROWS.
  const deployments = await sql<{
    id: string | number; campaign_id: number | null; campaign_name: string | null; kind: string | null; channel_name: string; platform: string;
    purpose: string; state: string; day: string; started_at: Date | null; finished_at: Date | null;
  }>`
    select d.id, d.campaign_id, c.name as campaign_name, c.kind, ch.name as channel_name, ch.platform, d.purpose, d.state,
      to_char(${DEPLOYMENT_AT} at time zone ${TIME_ZONE}, 'YYYY-MM-DD') as day, d.started_at, d.finished_at
    from deployments d
    join channels ch on ch.id = d.channel_id
    left join campaigns c on c.id = d.campaign_id and c.company_id = d.company_id
    where ${sql.join(where, sql` and `)}
    order by ${DEPLOYMENT_AT} desc, d.id desc`.execute(db);

  // One pass over their messages (messages_deployment_idx): counts per deployment, day and outcome;
  // the rows, the totals and the per-day series are sums of these groups.
  const groups = await sql<{ deployment_id: string | number; day: string; outcome: Outcome; messages: string | number; accepted: string | number; credits: string | number }>`
    select m.deployment_id, to_char(coalesce(m.sent_at, m.done_at, m.created_at) at time zone ${TIME_ZONE}, 'YYYY-MM-DD') as day, ${OUTCOME} as outcome,
      count(*) as messages, count(m.sent_at) as accepted, coalesce(sum(m.cost) filter (where m.billed), 0) as credits
    from messages m where m.deployment_id in (${matching}) and m.company_id = ${me.companyId}
    group by 1, 2, 3`.execute(db);

  const perDeployment = new Map<number, Counts>();
  const totals = zero();
  const perDay = new Map<string, number>();
  for (const g of groups.rows) {
    const id = Number(g.deployment_id);
    const c = perDeployment.get(id) ?? zero();
    perDeployment.set(id, c);
    for (const target of [c, totals]) {
      target.total += n(g.messages);
      target.accepted += n(g.accepted);
      target[g.outcome] += n(g.messages);
      target.credits += n(g.credits);
    }
    const key = `${g.day} ${g.outcome}`;
    perDay.set(key, (perDay.get(key) ?? 0) + n(g.messages));
  }
  return {
    items: deployments.rows.slice(0, HISTORY_ROWS).map((r): DeploymentHistoryRow => ({
      id: Number(r.id),
      campaignId: r.campaign_id,
      campaignName: r.campaign_name,
      channelName: r.channel_name,
      platform: r.platform as DeploymentHistoryRow['platform'],
      kind: (r.kind ?? null) as DeploymentHistoryRow['kind'],
      purpose: r.purpose as DeploymentHistoryRow['purpose'],
      state: r.state as DeploymentHistoryRow['state'],
      day: r.day,
      startedAt: r.started_at ? new Date(r.started_at).toISOString() : null,
      finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
      ...(perDeployment.get(Number(r.id)) ?? zero()),
    })),
    totals: { deployments: deployments.rows.length, ...totals },
    perDay: [...perDay].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, messages]) => {
      const [day, outcome] = key.split(' ') as [string, Outcome];
      return { day, outcome, messages };
    }),
    truncated: deployments.rows.length > HISTORY_ROWS,
  };
}
