// GET /v1/messages/lastDays (schemas/api/messages.yaml `lastDays`, the home's figures): the
// caller's company's messages created on the last N Bogotá calendar days, counted in SQL per day
// and outcome over messages_company_created_idx. Every day of the range comes back with sent,
// delivered and failed, zero when nothing happened, so the home's chart always shows the week.
import { sql } from 'kysely';
import { addDays, calendarDateOf, dayNumber, formatYmd, instantAtMinutes } from '../../../core/bogota-time.ts';
import { statesOfOutcome, statesSql } from '../../../engine/lifecycle/index.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { MessageDays } from '../../../generated/types.gen.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';

const TIME_ZONE = constants.sendWindow.timeZone;
export const DEFAULT_DAYS = 7;
/** The outcomes the home draws, in the order of the chart's legend. */
const SHOWN = ['sent', 'delivered', 'failed'] as const;

export async function lastDays(ctx: HandlerContext<'messages.lastDays'>): Promise<MessageDays> {
  const me = caller(ctx);
  const days = ctx.query.days ?? DEFAULT_DAYS;
  const today = calendarDateOf(ctx.deps.now(), TIME_ZONE);
  const first = addDays(today, 1 - days);
  // sent: accepted by a provider (whatever came after); delivered and failed: the final outcomes
  // (the same split as the sending history's message-outcome).
  const rows = await sql<{ day: string; sent: string | number; delivered: string | number; failed: string | number }>`
    select to_char(m.created_at at time zone ${TIME_ZONE}, 'YYYY-MM-DD') as day,
      count(m.sent_at) as sent,
      count(*) filter (where m.state in ('delivered', 'read')) as delivered,
      count(*) filter (where m.state in ${sql.raw(statesSql(statesOfOutcome('failed')))}) as failed
    from messages m
    where m.company_id = ${me.companyId} and m.created_at >= ${instantAtMinutes(first, 0, TIME_ZONE)}
    group by 1`.execute(ctx.deps.db);
  const byDay = new Map(rows.rows.map((r) => [r.day, { sent: Number(r.sent), delivered: Number(r.delivered), failed: Number(r.failed) }]));
  const perDay: MessageDays['perDay'] = [];
  const totals = { sent: 0, delivered: 0, failed: 0 };
  for (let n = dayNumber(first); n <= dayNumber(today); n++) {
    const day = formatYmd(addDays(first, n - dayNumber(first)));
    const counts = byDay.get(day) ?? { sent: 0, delivered: 0, failed: 0 };
    for (const outcome of SHOWN) {
      perDay.push({ day, outcome, messages: counts[outcome] });
      totals[outcome] += counts[outcome];
    }
  }
  return { days, perDay, ...totals, deliveryRate: totals.sent ? totals.delivered / totals.sent : null };
}
