// queryCallCenter (/Reports/QueryCallCenter): one number's history with the company for a support
// agent. A lookup of one recipient's rows, not a report over many: it reads `messages` through
// their (company_id, to_number, created_at) index, newest first, and says for each why it did not
// go (the lifecycle's reasonOf) and which operator served it (the rollups' own rule, in SQL); and
// the transcripts of the number's chatbot conversations (flows/transcript.ts).
import { requestLanguage, wordsFor } from '../../i18n/document-words.ts';
import { sql } from 'kysely';
import { addDays, formatYmd, parseYmd } from '../../../core/bogota-time.ts';
import { calendarDate, dayAfter, dayStart } from '../../../core/date-range.ts';
import { normalizeColombianPhone, numberForms } from '../../../core/phone.ts';
import { reasonOf, operatorSql } from '../../../engine/lifecycle/index.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { CallCenterMessage, CallCenterTurn } from '../../../generated/types.gen.ts';
import { transcriptOf } from '../flows/transcript.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { duplicateWindowHours } from '../../../engine/campaigns/index.ts';
import { dateProblems, isoOrNull } from './report-scope.ts';

const TIME_ZONE = constants.sendWindow.timeZone;
/** The most messages one lookup shows (newest first). */
export const CALL_CENTER_ROWS = 500;

export async function callCenterHistory(ctx: HandlerContext<'reportCenter.queryCallCenter'>) {
  const me = caller(ctx);
  const db = ctx.deps.db;
  const b = ctx.body;
  if (!b.phone.trim()) throw failFields([fieldError('phone', '99960')]);
  const phone = normalizeColombianPhone(b.phone);
  if (!phone) throw failFields([fieldError('phone', '99963')]);
  const now = ctx.deps.now();
  const today = calendarDate(now, TIME_ZONE);
  const dateEnd = b.DateEnd ?? today;
  const dateStart = b.DateStart ?? formatYmd(addDays(parseYmd(today), -(constants.reports.historyDays - 1)));
  // The dates' rules are every report's.
  const problems = dateProblems(dateStart, dateEnd, now);
  if (problems.length) throw failFields(problems);
  const duplicateHours = await duplicateWindowHours(db, me.companyId);
  const rows = await sql<{
    id: string | number; created_at: Date; channel_id: number; channel_name: string; platform: string; source: string; purpose: string; campaign: string | null;
    body: string | null; state: string; delivery_status: string | null; status_code: number; error_code: string | null; held_reason: string | null; not_before: Date;
    parts: number; credits: number; sent_at: Date | null; done_at: Date | null; operator: string | null; basis: string;
  }>`
    select m.id, m.created_at, m.channel_id, ch.name as channel_name, ch.platform, m.source, m.purpose, c.name as campaign, m.body, m.state, m.delivery_status,
      m.status_code, m.error_code, m.held_reason, m.not_before, m.parts, case when m.billed then m.cost else 0 end as credits, m.sent_at, m.done_at,
      o.name as operator, ${sql.raw(operatorSql('m').basis)} as basis
    from messages m
    join channels ch on ch.id = m.channel_id
    left join deployments d on d.id = m.deployment_id
    left join campaigns c on c.id = d.campaign_id
    left join sms_operators o on o.id = ${sql.raw(operatorSql('m').id)}
    where m.company_id = ${me.companyId} and m.to_number = ${phone}
      and m.created_at >= ${dayStart(dateStart, TIME_ZONE)} and m.created_at < ${dayAfter(dateEnd, TIME_ZONE)}
    order by m.created_at desc, m.id desc
    limit ${CALL_CENTER_ROWS + 1}`.execute(db);
  const items = rows.rows.slice(0, CALL_CENTER_ROWS).map((r): CallCenterMessage => ({
    id: Number(r.id), createdAt: new Date(r.created_at).toISOString(), accountId: r.channel_id, account: r.channel_name, platform: r.platform as CallCenterMessage['platform'],
    source: r.source, purpose: r.purpose as CallCenterMessage['purpose'], campaign: r.campaign, body: r.body, state: r.state as CallCenterMessage['state'],
    deliveryStatus: (r.delivery_status ?? null) as CallCenterMessage['deliveryStatus'], statusCode: r.status_code, errorCode: r.error_code,
    reason: reasonOf(r, duplicateHours), parts: r.parts, credits: Number(r.credits), sentAt: isoOrNull(r.sent_at), doneAt: isoOrNull(r.done_at),
    operator: r.operator, basis: r.basis as CallCenterMessage['basis'],
  }));
  // The number's chatbot conversations started in those days: their transcripts, as the conversation's page reads them.
  const conversations = await db.selectFrom('conversations as c').innerJoin('channels as ch', 'ch.id', 'c.channel_id').innerJoin('flows as f', 'f.id', 'c.flow_id')
    .select(['c.id', 'ch.name as account', 'f.name as flow'])
    .where('c.company_id', '=', me.companyId).where('c.contact', 'in', numberForms(phone))
    .where('c.started_at', '>=', dayStart(dateStart, TIME_ZONE)).where('c.started_at', '<', dayAfter(dateEnd, TIME_ZONE))
    .orderBy('c.id', 'desc').limit(CALL_CENTER_ROWS).execute();
  const of = new Map(conversations.map((c) => [Number(c.id), c]));
  const turns = (await transcriptOf(db, me.companyId, [...of.keys()], CALL_CENTER_ROWS, wordsFor(requestLanguage(ctx.request)))).map(({ conversationId, at, direction, body, messageState, reason }): CallCenterTurn => ({
    conversationId, at, account: of.get(conversationId)!.account, flow: of.get(conversationId)!.flow, direction, body, messageState, reason,
  }));
  return { phone, items, truncated: rows.rows.length > CALL_CENTER_ROWS, turns };
}
