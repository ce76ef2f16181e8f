// Traffic read from the message rollups (the message_rollups view: folded totals plus the deltas
// not folded yet), grouped by the keys a report asks for. Never a scan of `messages`: the
// rollups' primary key starts with (company_id, bucket), so a report reads its company's hours.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { outcomeSql } from '../../../engine/lifecycle/message-states.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { TrafficRow } from '../../../generated/types.gen.ts';
import type { Level, ReportScope } from './report-scope.ts';

const TIME_ZONE = constants.sendWindow.timeZone;

/** The keys a report may group by. */
export type TrafficKey = 'period' | 'account' | 'operator' | 'statusCode';

/** A period's label in Bogotá time, per aggregation level. */
const PERIOD_FORMAT: Record<Level, string> = { 0: 'YYYY-MM-DD HH24:00', 1: 'YYYY-MM-DD', 2: 'YYYY-MM', 3: 'YYYY' };

export interface TrafficQuery {
  scope: ReportScope;
  by: TrafficKey[];
  level?: Level;
  operatorIds?: number[];
  statusCodes?: number[];
  purposes?: string[];
  /** 'size': biggest first (top-N charts; the default); 'keys': by the keys (periods in time order). */
  order?: 'size' | 'keys';
}

const OUTCOME = outcomeSql('r.state');
const OUTCOMES = ['pending', 'sent', 'delivered', 'failed', 'blocked', 'cancelled'] as const;

type Raw = Record<string, string | number | null>;
const int = (v: string | number | null | undefined) => Number(v ?? 0);

/** The grouped traffic, in the order asked (equal rows by their keys, so the order is stable). */
export async function trafficRows(db: Kysely<Database>, q: TrafficQuery): Promise<TrafficRow[]> {
  const keys: { select: string; group: string[] }[] = q.by.map((key) => {
    switch (key) {
      case 'period':
        return { select: `to_char(r.bucket at time zone '${TIME_ZONE}', '${PERIOD_FORMAT[q.level ?? 1]}') as period`, group: ['period'] };
      case 'account':
        return { select: 'r.channel_id as account_id, c.name as account, c.platform', group: ['r.channel_id', 'c.name', 'c.platform'] };
      case 'operator':
        return { select: 'r.operator_id, o.name as operator, r.operator_basis as basis', group: ['r.operator_id', 'o.name', 'r.operator_basis'] };
      case 'statusCode':
        return { select: 'r.status_code', group: ['r.status_code'] };
    }
  });
  const where: RawBuilder<unknown>[] = [
    sql`r.company_id = ${q.scope.companyId}`,
    sql`r.channel_id = any(${q.scope.channelIds}::int[])`,
    sql`r.bucket >= ${q.scope.from}::timestamptz`,
    sql`r.bucket < ${q.scope.to}::timestamptz`,
  ];
  if (q.operatorIds) where.push(sql`r.operator_id = any(${q.operatorIds}::int[])`);
  if (q.statusCodes) where.push(sql`r.status_code = any(${q.statusCodes}::int[])`);
  if (q.purposes) where.push(sql`r.purpose = any(${q.purposes}::text[])`);
  const selects = [
    ...keys.map((k) => k.select),
    'sum(r.messages) as messages', 'sum(r.parts) as parts', 'sum(r.credits) as credits',
    ...OUTCOMES.map((o) => `sum(case when ${OUTCOME} = '${o}' then r.messages else 0 end) as ${o}`),
    'sum(r.latency_ms) as latency_ms', 'sum(r.latency_count) as latency_count',
    'sum(r.latency_3s) as latency_3s', 'sum(r.latency_5s) as latency_5s', 'sum(r.latency_60s) as latency_60s', 'sum(r.latency_over) as latency_over',
  ];
  const group = keys.flatMap((k) => k.group);
  const result = await sql<Raw>`
    select ${sql.raw(selects.join(', '))}
    from message_rollups r
    ${sql.raw(q.by.includes('account') ? 'join channels c on c.id = r.channel_id' : '')}
    ${sql.raw(q.by.includes('operator') ? 'left join sms_operators o on o.id = r.operator_id' : '')}
    where ${sql.join(where, sql` and `)}
    ${sql.raw(group.length ? `group by ${group.join(', ')}` : '')}
    having sum(r.messages) <> 0
    ${sql.raw(orderBy(q.order ?? 'size', group))}`.execute(db);
  return result.rows.map(toRow);
}

function orderBy(order: 'size' | 'keys', group: string[]): string {
  if (!group.length) return '';
  return order === 'keys' ? `order by ${group.join(', ')}` : `order by sum(r.messages) desc, ${group.join(', ')}`;
}

function toRow(r: Raw): TrafficRow {
  const row: TrafficRow = {
    messages: int(r.messages), parts: int(r.parts), credits: int(r.credits),
    pending: int(r.pending), sent: int(r.sent), delivered: int(r.delivered), failed: int(r.failed), blocked: int(r.blocked), cancelled: int(r.cancelled),
    latencyAvgMs: int(r.latency_count) > 0 ? Math.round(int(r.latency_ms) / int(r.latency_count)) : null,
    within3s: int(r.latency_3s), within5s: int(r.latency_5s), within60s: int(r.latency_60s), over60s: int(r.latency_over),
  };
  if (r.period !== undefined) row.period = String(r.period);
  if (r.account_id !== undefined) Object.assign(row, { accountId: int(r.account_id), account: String(r.account), platform: r.platform as TrafficRow['platform'] });
  if (r.operator_id !== undefined) Object.assign(row, { operatorId: int(r.operator_id), operator: r.operator === null ? null : String(r.operator), basis: r.basis as TrafficRow['basis'] });
  if (r.status_code !== undefined) row.statusCode = int(r.status_code);
  return row;
}

/** A row of zeros (a period or key with no traffic). */
export const emptyRow = (): TrafficRow => toRow({});

/** The totals of every message in scope (a row of zeros when there is none). */
export async function trafficTotals(db: Kysely<Database>, q: Omit<TrafficQuery, 'by'>): Promise<TrafficRow> {
  const [totals] = await trafficRows(db, { ...q, by: [] });
  return totals ?? emptyRow();
}
