// Traffic read from the message rollups (the message_rollups_daily view, or message_rollups for a
// report by hour: folded totals plus the deltas not folded yet), grouped by the keys a report asks
// for. Never a scan of `messages`: the rollups' primary key starts with (company_id, bucket), so a
// report reads its company's days (or hours).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { outcomeSql, rawContributionsSql } from '../../../engine/lifecycle/index.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { messageOutcomes, type TrafficDimension } from '../../../generated/enums.gen.ts';
import type { TrafficRow } from '../../../generated/types.gen.ts';
import type { Level, ReportScope } from './report-scope.ts';

const TIME_ZONE = constants.sendWindow.timeZone;

/** The keys a report may group by. */
const TRAFFIC_KEYS = ['period', 'area', 'platform', 'account', 'operator', 'statusCode', 'errorCode', 'deployment', 'campaign'] as const;
export type TrafficKey = (typeof TRAFFIC_KEYS)[number];

/** A period's label in Bogotá time, per aggregation level. */
const PERIOD_FORMAT: Record<Level, string> = { 0: 'YYYY-MM-DD HH24:00', 1: 'YYYY-MM-DD', 2: 'YYYY-MM', 3: 'YYYY' };

/** What is read: the scope and its filters, and the level a period is grouped at (default 1, day). */
export interface TrafficQuery {
  scope: ReportScope;
  level?: Level;
  operatorIds?: number[];
  statusCodes?: number[];
  purposes?: string[];
  /** Only the accounts of this platform (the WhatsApp and RCS reports). */
  platform?: string;
  /** Only these deployments; `inDeployments`: only messages of a deployment (campaigns, not the API). */
  deploymentIds?: number[];
  inDeployments?: boolean;
}

/**
 * Where the traffic is read. The product reads the rollups, always; 'raw' asks the same questions
 * of the raw message rows (each row's contribution, grouped by the report): the benchmark's
 * anchor (`npm run bench -- report-queries`) and the tests that hold the two answers equal.
 */
export type TrafficSource = 'rollups' | 'raw';
let trafficSource: TrafficSource = 'rollups';
export function readTrafficFrom(source: TrafficSource): void {
  trafficSource = source;
}

/**
 * The rows a query reads as `r`: the day rollups unless it groups by hour (a scope is always whole
 * Bogotá days), the hour rollups then, or the scope's raw messages (only the company's days).
 */
function trafficFrom(q: TrafficQuery, by: TrafficKey[]): RawBuilder<unknown> {
  const { scope } = q;
  if (trafficSource === 'rollups') return by.includes('period') && q.level === 0 ? sql`message_rollups r` : sql`message_rollups_daily r`;
  // Only literals reach the SQL text: an integer and two ISO instants.
  const where = `r.company_id = ${Number(scope.companyId)} and r.created_at >= '${scope.from.toISOString()}'::timestamptz and r.created_at < '${scope.to.toISOString()}'::timestamptz`;
  return sql`(${sql.raw(rawContributionsSql(where))}) r`;
}

const OUTCOME = outcomeSql('r.state');
const OUTCOMES = messageOutcomes;

type Raw = Record<string, string | number | null>;
const int = (v: string | number | null | undefined) => Number(v ?? 0);

/** How a key is selected and grouped, which answer fields it fills, and what orders its rows (ids first, nulls last). */
interface KeySql { select: string; group: string[]; fields: string[]; sort: { field: string; numeric: boolean }[] }

function keySql(key: TrafficKey, level: Level): KeySql {
  const num = (field: string) => ({ field, numeric: true });
  const str = (field: string) => ({ field, numeric: false });
  switch (key) {
    case 'period': {
      const period = `to_char(r.bucket at time zone '${TIME_ZONE}', '${PERIOD_FORMAT[level]}')`;
      return { select: `${period} as period`, group: [period], fields: ['period'], sort: [str('period')] };
    }
    case 'area':
      return { select: 'r.area_id, ar.name as area', group: ['r.area_id', 'ar.name'], fields: ['area_id', 'area'], sort: [num('area_id')] };
    case 'platform':
      return { select: 'pl.platform', group: ['pl.platform'], fields: ['platform'], sort: [str('platform')] };
    case 'account':
      return { select: 'r.channel_id as account_id, c.name as account, c.platform', group: ['r.channel_id', 'c.name', 'c.platform'], fields: ['account_id', 'account', 'platform'], sort: [num('account_id')] };
    case 'operator':
      return { select: 'r.operator_id, o.name as operator, r.operator_basis as basis', group: ['r.operator_id', 'o.name', 'r.operator_basis'], fields: ['operator_id', 'operator', 'basis'], sort: [num('operator_id'), str('basis')] };
    case 'statusCode':
      return { select: 'r.status_code', group: ['r.status_code'], fields: ['status_code'], sort: [num('status_code')] };
    case 'errorCode':
      return { select: 'r.error_code', group: ['r.error_code'], fields: ['error_code'], sort: [str('error_code')] };
    case 'deployment':
      return {
        select: `r.deployment_id, d.campaign_id, cp.name as campaign, d.state as deployment_state, to_char(coalesce(d.started_at, d.scheduled_at, d.created_at) at time zone '${TIME_ZONE}', 'YYYY-MM-DD HH24:MI') as deployed_at`,
        group: ['r.deployment_id', 'd.campaign_id', 'cp.name', 'd.state', 'd.started_at', 'd.scheduled_at', 'd.created_at'],
        fields: ['deployment_id', 'campaign_id', 'campaign', 'deployment_state', 'deployed_at'], sort: [num('deployment_id')],
      };
    case 'campaign':
      return { select: 'd.campaign_id, cp.name as campaign', group: ['d.campaign_id', 'cp.name'], fields: ['campaign_id', 'campaign'], sort: [num('campaign_id')] };
  }
}

/** Keys that answer the same field from different joins: one query cannot group by both. */
const CLASHING: [TrafficKey, TrafficKey][] = [['platform', 'account'], ['deployment', 'campaign']];

/** The first pair of keys among `keys` that one read cannot group by together, or null. */
export function clashingKeys(keys: readonly TrafficKey[]): [TrafficKey, TrafficKey] | null {
  return CLASHING.find(([a, b]) => keys.includes(a) && keys.includes(b)) ?? null;
}

/** The key each dimension a report declares reads (schemas/enums/traffic-dimension.yaml). */
export const dimensionKeys: { [D in TrafficDimension]: TrafficKey } = {
  period: 'period', account: 'account', channel: 'platform', operator: 'operator', state: 'statusCode',
  errorCode: 'errorCode', campaign: 'campaign', deployment: 'deployment', area: 'area',
};

/** One grouping of the traffic a report asks for: its keys and its order ('size': biggest first, the top-N charts' and the default; 'keys': by the keys, periods in time order). */
export interface TrafficSet { by: TrafficKey[]; order?: 'size' | 'keys' }

/**
 * Several groupings of the same traffic in one read (GROUPING SETS): a report that shows its
 * traffic per period and account, per account, per period and in total scans its rollup rows
 * once instead of once per table. Each answer in the order asked ('size': biggest first; 'keys':
 * by the keys, periods in time order; equal rows by their keys, so the order is stable).
 */
export async function trafficSets(db: Kysely<Database>, q: TrafficQuery, sets: TrafficSet[]): Promise<TrafficRow[][]> {
  const level = q.level ?? 1;
  const used = [...new Set(sets.flatMap((s) => s.by))];
  const clash = clashingKeys(used);
  if (clash) throw new Error(`traffic: ${clash[0]} and ${clash[1]} cannot be grouped in one read`);
  const keys = new Map(used.map((k) => [k, keySql(k, level)] as const));
  const columns = [...new Set(used.flatMap((k) => keys.get(k)!.group))];
  const where: RawBuilder<unknown>[] = [
    sql`r.company_id = ${q.scope.companyId}`,
    sql`r.channel_id = any(${q.scope.channelIds}::int[])`,
    sql`r.bucket >= ${q.scope.from}::timestamptz`,
    sql`r.bucket < ${q.scope.to}::timestamptz`,
  ];
  if (q.operatorIds) where.push(sql`r.operator_id = any(${q.operatorIds}::int[])`);
  if (q.statusCodes) where.push(sql`r.status_code = any(${q.statusCodes}::int[])`);
  if (q.purposes) where.push(sql`r.purpose = any(${q.purposes}::text[])`);
  if (q.platform) where.push(sql`exists (select 1 from channels pc where pc.id = r.channel_id and pc.platform = ${q.platform})`);
  if (q.deploymentIds) where.push(sql`r.deployment_id = any(${q.deploymentIds}::bigint[])`);
  if (q.inDeployments) where.push(sql`r.deployment_id <> 0`);
  const selects = [
    ...used.map((k) => keys.get(k)!.select),
    'sum(r.messages) as messages', 'sum(r.parts) as parts', 'sum(r.credits) as credits',
    ...OUTCOMES.map((o) => `sum(case when ${OUTCOME} = '${o}' then r.messages else 0 end) as ${o}`),
    "sum(case when r.state = 'read' then r.messages else 0 end) as read",
    'sum(r.latency_ms) as latency_ms', 'sum(r.latency_count) as latency_count',
    'sum(r.latency_3s) as latency_3s', 'sum(r.latency_5s) as latency_5s', 'sum(r.latency_60s) as latency_60s', 'sum(r.latency_over) as latency_over',
    // Which grouping a row belongs to: a bit per column, set when the row is not grouped by it.
    ...(columns.length ? [`grouping(${columns.join(', ')}) as grouping_set`] : []),
  ];
  const groupingSets = sets.map((s) => `(${[...new Set(s.by.flatMap((k) => keys.get(k)!.group))].join(', ')})`);
  const result = await sql<Raw>`
    select ${sql.raw(selects.join(', '))}
    from ${trafficFrom(q, used)}
    ${sql.raw(used.includes('account') ? 'join channels c on c.id = r.channel_id' : '')}
    ${sql.raw(used.includes('platform') ? 'join channels pl on pl.id = r.channel_id' : '')}
    ${sql.raw(used.includes('area') ? 'left join areas ar on ar.id = r.area_id and ar.company_id = r.company_id' : '')}
    ${sql.raw(used.includes('operator') ? 'left join sms_operators o on o.id = r.operator_id' : '')}
    ${sql.raw(used.includes('deployment') || used.includes('campaign') ? 'left join deployments d on d.id = r.deployment_id left join campaigns cp on cp.id = d.campaign_id' : '')}
    where ${sql.join(where, sql` and `)}
    group by grouping sets (${sql.raw(groupingSets.join(', '))})
    having sum(r.messages) <> 0`.execute(db);
  const maskOf = (s: TrafficSet) => {
    const grouped = new Set(s.by.flatMap((k) => keys.get(k)!.group));
    return columns.reduce((mask, c, i) => mask | (grouped.has(c) ? 0 : 1 << (columns.length - 1 - i)), 0);
  };
  return sets.map((set) => {
    const mask = maskOf(set);
    const fields = new Set(set.by.flatMap((k) => keys.get(k)!.fields));
    const sorts = set.by.flatMap((k) => keys.get(k)!.sort);
    const rows = result.rows
      .filter((r) => int(r.grouping_set) === mask)
      .map((r) => Object.fromEntries(Object.entries(r).filter(([name]) => name !== 'grouping_set' && (!keyFields.has(name) || fields.has(name)))) as Raw);
    rows.sort((a, b) => ((set.order ?? 'size') === 'size' ? int(b.messages) - int(a.messages) : 0) || compareKeys(a, b, sorts));
    return rows.map(toRow);
  });
}

/** Every field a key may answer (kept only in the groupings that have the key). */
const keyFields = new Set(TRAFFIC_KEYS.flatMap((k) => keySql(k, 1).fields));

function compareKeys(a: Raw, b: Raw, sorts: { field: string; numeric: boolean }[]): number {
  for (const { field, numeric } of sorts) {
    const x = a[field];
    const y = b[field];
    if (x === y) continue;
    // As PostgreSQL orders ascending: nulls last.
    if (x === null || x === undefined) return 1;
    if (y === null || y === undefined) return -1;
    if (numeric) {
      const d = Number(x) - Number(y);
      if (d) return d;
    } else if (String(x) !== String(y)) return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/** Delivered of the messages whose fate the network told (delivered or failed), in percent with one decimal; null when none. */
const successRate = (delivered: number, failed: number): number | null =>
  delivered + failed > 0 ? Math.round((delivered * 1000) / (delivered + failed)) / 10 : null;

function toRow(r: Raw): TrafficRow {
  const row: TrafficRow = {
    messages: int(r.messages), parts: int(r.parts), credits: int(r.credits),
    pending: int(r.pending), sent: int(r.sent), delivered: int(r.delivered), read: int(r.read), failed: int(r.failed), blocked: int(r.blocked), cancelled: int(r.cancelled),
    latencyAvgMs: int(r.latency_count) > 0 ? Math.round(int(r.latency_ms) / int(r.latency_count)) : null,
    within3s: int(r.latency_3s), within5s: int(r.latency_5s), within60s: int(r.latency_60s), over60s: int(r.latency_over),
    successRate: successRate(int(r.delivered), int(r.failed)),
  };
  if (r.period !== undefined) row.period = String(r.period);
  if (r.area_id !== undefined) Object.assign(row, { areaId: int(r.area_id), area: r.area === null ? null : String(r.area) });
  if (r.platform !== undefined && r.account_id === undefined) row.platform = r.platform as TrafficRow['platform'];
  if (r.account_id !== undefined) Object.assign(row, { accountId: int(r.account_id), account: String(r.account), platform: r.platform as TrafficRow['platform'] });
  if (r.operator_id !== undefined) Object.assign(row, { operatorId: int(r.operator_id), operator: r.operator === null ? null : String(r.operator), basis: r.basis as TrafficRow['basis'] });
  if (r.status_code !== undefined) row.statusCode = int(r.status_code);
  if (r.error_code !== undefined) row.errorCode = String(r.error_code);
  if (r.deployment_id !== undefined) {
    Object.assign(row, { deploymentId: int(r.deployment_id), deploymentState: r.deployment_state as TrafficRow['deploymentState'], deployedAt: r.deployed_at === null ? null : String(r.deployed_at) });
  }
  if (r.campaign_id !== undefined) Object.assign(row, { campaignId: r.campaign_id === null ? null : int(r.campaign_id), campaign: r.campaign === null ? null : String(r.campaign) });
  return row;
}

/** A row of zeros (a period or key with no traffic). */
export const emptyRow = (): TrafficRow => toRow({});
