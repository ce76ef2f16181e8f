// Scheduled reports (/Reports/Scheduled; schemas/api/report-center.yaml: schedules, schedule,
// createSchedule, updateSchedule, deleteSchedule). The rule of when a run happens and what it covers
// is core/report-schedule.ts. Every 30 s the server makes the runs that are due: one schedule per
// transaction, claimed with SKIP LOCKED, its next run moved on in the same transaction that enlists
// the report file and its job — so several processes never make a run twice, and runs due while
// the server was down become one file covering all their time when it comes back. When a
// scheduled file is ready, its e-mail is claimed by setting `mailed_at` and then sent, once, with a
// download link that holds `constants.reports.scheduledLinkDays` days.
import { sql, type Kysely } from 'kysely';
import { formatYmd, calendarDateOf, wallTimeOf, type WallTime } from '../../../core/bogota-time.ts';
import { nextOccurrence, previousOccurrence, type ScheduleRule } from '../../../core/report-schedule.ts';
import type { MessageProvider } from '../../../core/ports/message.ts';
import type { Database } from '../../../engine/database.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { ReportFrequency } from '../../../generated/enums.gen.ts';
import type { ReportSchedule } from '../../../generated/types.gen.ts';
import { fail, failFields, fieldError, isErrorCode, type FieldError } from '../../errors/api-error.ts';
import { requestLanguage, storedLanguage, wordsFor } from '../../i18n/document-words.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { enlistReportFile, fileLink, type FileParams } from './report-files.ts';
import { companyAccounts, foreignAccounts, isoOrNull } from './report-scope.ts';
import { askScreen, coveredDays, schedulableScreens, screenBody, SCREEN_REPORT_TYPE, type ScreenFileParams } from './report-screens.ts';
import { jsonValue } from '../../../engine/tables/index.ts';

const TIME_ZONE = constants.sendWindow.timeZone;

type ScheduleRow = {
  id: number; company_id: number; name: string; report_type_id: number; account_ids: unknown; frequency: string; day: number | null; hour: number;
  emails: unknown; enabled: boolean; next_run_at: Date | null; last_run_at: Date | null; created_by: number | null; created_at: Date;
  /** The language of its files and e-mails (document-words.ts). */
  language: string;
  /** Its accounts' names, by name (accountNames). */
  account_names?: unknown;
  /** A report screen's schedule: the screen and the body its filters made (report-screens.ts). */
  screen: string | null;
  payload: unknown;
};

/** The names of a schedule's accounts (its company's channels), in order: the list and the form read them. */
const accountNames = sql<unknown>`(select coalesce(json_agg(c.name order by c.name), '[]'::json) from channels c
  where c.company_id = s.company_id and c.id in (select (jsonb_array_elements_text(s.account_ids))::int))`.as('account_names');

const list = <T>(v: unknown): T[] => jsonValue<T[]>(v);

const toSchedule = (r: ScheduleRow): ReportSchedule => ({
  id: r.id, name: r.name, reportTypeId: r.report_type_id as ReportSchedule['reportTypeId'], screen: r.screen, payload: r.payload === null ? null : jsonValue<Record<string, unknown>>(r.payload), accountIds: list<number>(r.account_ids), accounts: list<string>(r.account_names ?? []), frequency: r.frequency as ReportFrequency,
  day: r.day, hour: r.hour, emails: list<string>(r.emails), enabled: r.enabled, nextRunAt: isoOrNull(r.next_run_at), lastRunAt: isoOrNull(r.last_run_at), createdAt: new Date(r.created_at).toISOString(),
});

const ruleOf = (r: { frequency: string; day: number | null; hour: number }): ScheduleRule => ({ frequency: r.frequency as ReportFrequency, day: r.day, hour: r.hour });

/** The day a frequency needs (weekly 1–7, monthly and yearly 1–31), or none. */
function dayProblem(frequency: ReportFrequency, day: number | null): FieldError | null {
  if (frequency === 'weekly') return day !== null && day >= 1 && day <= 7 ? null : fieldError('day', '99931', '1-7');
  if (frequency === 'monthly' || frequency === 'yearly') return day !== null ? null : fieldError('day', '99931', '1-31');
  return null;
}

async function scheduleOf(db: Kysely<Database>, companyId: number, id: number): Promise<ScheduleRow> {
  const row = await db.selectFrom('report_schedules as s').selectAll('s').select(accountNames).where('s.id', '=', id).where('s.company_id', '=', companyId).executeTakeFirst();
  if (!row) throw fail('99959');
  return row as ScheduleRow;
}

export async function schedulesPage(ctx: HandlerContext<'reportCenter.schedules'>) {
  const me = caller(ctx);
  let base = ctx.deps.db.selectFrom('report_schedules as s').selectAll('s').select(accountNames).where('s.company_id', '=', me.companyId);
  if (ctx.query.frequency) base = base.where('s.frequency', '=', ctx.query.frequency);
  return paginate(base, ctx.query, {
    sortable: { name: 's.name', nextRunAt: 's.next_run_at' },
    defaultSort: { column: 's.name', order: 'asc' },
    tieBreaker: 's.id',
    search: ['s.name'],
    map: (r) => toSchedule(r as ScheduleRow),
  });
}

export async function scheduleGet(ctx: HandlerContext<'reportCenter.schedule'>) {
  return toSchedule(await scheduleOf(ctx.deps.db, caller(ctx).companyId, ctx.params.id));
}

/**
 * What a schedule reports on: a report screen (`screen`, with the body its filters made in
 * `payload`) or accounts (`ClientsIds`), never both; a screen must be one a schedule can run
 * (report-screens.ts), a body belongs to a screen's schedule.
 */
async function whatProblems(b: { screen?: string; payload?: Record<string, unknown>; ClientsIds?: number[] }, current: ScheduleRow | null): Promise<FieldError[]> {
  const screen = current ? current.screen : (b.screen ?? null);
  if (b.screen !== undefined && !(await schedulableScreens()).has(b.screen)) return [fieldError('screen', '99931', b.screen)];
  if (screen) return b.ClientsIds?.length ? [fieldError('ClientsIds', '99931')] : [];
  if (b.payload !== undefined) return [fieldError('payload', '99931')];
  return current || b.ClientsIds?.length ? [] : [fieldError('ClientsIds', '99999')];
}

/**
 * A screen's schedule is tried before it is saved: its operation asked for today as its author,
 * so a body the screen would refuse (another company's account, a filter out of range, a report
 * the person may not run) is refused now with the operation's own answer, not at the first run.
 */
async function trialRun(ctx: HandlerContext<'reportCenter.createSchedule'> | HandlerContext<'reportCenter.updateSchedule'>, screenId: string, payload: Record<string, unknown>): Promise<void> {
  const screen = (await schedulableScreens()).get(screenId);
  const run = ctx.deps.screens;
  if (!screen || !run) throw failFields([fieldError('screen', '99931', screenId)]);
  const today = formatYmd(calendarDateOf(ctx.deps.now(), TIME_ZONE));
  const answer = await askScreen(run, screen, { userId: caller(ctx).userId, body: screenBody(screen, payload, { dateStart: today, dateEnd: today }), language: requestLanguage(ctx.request) });
  if (answer.ok) return;
  const refusal = (answer.json ?? {}) as { code?: string; errors?: FieldError[] };
  const code = isErrorCode(refusal.code) ? refusal.code : '99931';
  throw fail(code, undefined, (refusal.errors ?? []).map((e) => ({ ...e, field: `payload.${e.field ?? ''}` })));
}

export async function createSchedule(ctx: HandlerContext<'reportCenter.createSchedule'>) {
  const me = caller(ctx);
  const b = ctx.body;
  const db = ctx.deps.db;
  const now = ctx.deps.now();
  const day = b.frequency === 'hourly' || b.frequency === 'daily' ? null : (b.day ?? null);
  const problems = [...(await whatProblems(b, null)), ...(await foreignAccounts(db, me.companyId, 'ClientsIds', b.ClientsIds ?? [])), ...[dayProblem(b.frequency, day)].filter((p): p is FieldError => p !== null)];
  if (problems.length) throw failFields(problems);
  if (b.screen) await trialRun(ctx, b.screen, b.payload ?? {});
  const hour = b.hour ?? 6;
  const enabled = b.enabled ?? true;
  const row = await db.insertInto('report_schedules').values({
    company_id: me.companyId, name: b.name.trim(), report_type_id: b.screen ? SCREEN_REPORT_TYPE : (b.ReportsTypeId ?? 1), account_ids: JSON.stringify(b.ClientsIds ?? []),
    ...(b.screen ? { screen: b.screen, payload: JSON.stringify(b.payload ?? {}) } : {}), frequency: b.frequency, day, hour,
    emails: JSON.stringify(b.emails.map((e) => e.trim().toLowerCase())), enabled, next_run_at: enabled ? nextOccurrence({ frequency: b.frequency, day, hour }, now, TIME_ZONE) : null,
    created_by: me.userId, created_at: now, updated_at: now, language: requestLanguage(ctx.request),
  }).returning('id').executeTakeFirstOrThrow();
  return toSchedule(await scheduleOf(db, me.companyId, row.id));
}

export async function updateSchedule(ctx: HandlerContext<'reportCenter.updateSchedule'>) {
  const me = caller(ctx);
  const b = ctx.body;
  const db = ctx.deps.db;
  const now = ctx.deps.now();
  const current = await scheduleOf(db, me.companyId, ctx.params.id);
  const frequency = (b.frequency ?? current.frequency) as ReportFrequency;
  const day = frequency === 'hourly' || frequency === 'daily' ? null : b.day !== undefined ? b.day : current.day;
  const hour = b.hour ?? current.hour;
  const enabled = b.enabled ?? current.enabled;
  const problems = [...(await whatProblems(b, current)), ...(await foreignAccounts(db, me.companyId, 'ClientsIds', b.ClientsIds ?? [])), ...[dayProblem(frequency, day)].filter((p): p is FieldError => p !== null)];
  if (problems.length) throw failFields(problems);
  if (current.screen && b.payload) await trialRun(ctx, current.screen, b.payload);
  const row = await db.updateTable('report_schedules').set({
    ...(b.name !== undefined ? { name: b.name.trim() } : {}),
    ...(current.screen && b.payload ? { payload: JSON.stringify(b.payload) } : {}),
    ...(b.ClientsIds ? { account_ids: JSON.stringify(b.ClientsIds) } : {}),
    ...(b.emails ? { emails: JSON.stringify(b.emails.map((e) => e.trim().toLowerCase())) } : {}),
    frequency, day, hour, enabled, next_run_at: enabled ? nextOccurrence({ frequency, day, hour }, now, TIME_ZONE) : null, updated_at: now,
    language: requestLanguage(ctx.request),
  }).where('id', '=', current.id).returning('id').executeTakeFirstOrThrow();
  return toSchedule(await scheduleOf(db, me.companyId, row.id));
}

export async function deleteSchedule(ctx: HandlerContext<'reportCenter.deleteSchedule'>) {
  const me = caller(ctx);
  const gone = await ctx.deps.db.deleteFrom('report_schedules').where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!gone.numDeletedRows) throw fail('99959');
  return { ok: true as const };
}

// ---- The runs ----

/** Makes every run that is due: a report file (enlist) and its job per run; answers how many. */
export async function runDueReportSchedules(deps: { db: Kysely<Database>; now: () => Date; wakeJobs?: () => void }): Promise<number> {
  let made = 0;
  for (;;) {
    const now = deps.now();
    const done = await deps.db.transaction().execute(async (trx) => {
      const due = await sql<ScheduleRow>`
        select * from report_schedules where enabled and next_run_at is not null and next_run_at <= ${now}
        order by next_run_at limit 1 for update skip locked`.execute(trx);
      const s = due.rows[0];
      if (!s) return false;
      const rule = ruleOf(s);
      // The run covers the time since the occurrence before the one that was due, up to the last
      // occurrence that has passed: runs missed while the server was down become one file that
      // leaves no gap, and the next run is the first after now.
      const from = previousOccurrence(rule, new Date(s.next_run_at!), TIME_ZONE);
      const to = previousOccurrence(rule, new Date(now.getTime() + 1), TIME_ZONE);
      const own = await companyAccounts(trx, s.company_id);
      const accountIds = list<number>(s.account_ids).filter((id) => own.some((a) => a.id === id));
      const span = { from: from.toISOString(), to: to.toISOString() };
      const covered: FileParams = { accountIds, campaignIds: [], deploymentId: null, ...coveredDays(span), ...span };
      // A screen's run: its file is written by writeScreenFiles (report-screens.ts), which asks the screen.
      const params: FileParams | ScreenFileParams = s.screen ? { ...covered, screen: s.screen, payload: jsonValue<Record<string, unknown>>(s.payload ?? {}) } : covered;
      await enlistReportFile(trx, {
        companyId: s.company_id, requestedBy: s.created_by, reportTypeId: s.report_type_id, applicationId: constants.reports.advancedQueryApplicationId, params, now, scheduleId: s.id,
        language: storedLanguage(s.language),
      });
      await trx.updateTable('report_schedules').set({ next_run_at: nextOccurrence(rule, now, TIME_ZONE), last_run_at: to, updated_at: now })
        .where('id', '=', s.id).execute();
      return true;
    });
    if (!done) break;
    made += 1;
  }
  if (made) deps.wakeJobs?.();
  return made;
}

/**
 * The time a run covered, as its e-mail names it: whole Bogotá days as days; otherwise to the
 * minute, so an hourly run names its hour (14:00 – 15:00) and a daily run at 06:00 its two mornings.
 */
export function coveredSpan(p: Pick<FileParams, 'from' | 'to' | 'dateStart' | 'dateEnd'>): { start: string; end: string } {
  const from = wallTimeOf(new Date(p.from), TIME_ZONE);
  const to = wallTimeOf(new Date(p.to), TIME_ZONE);
  const midnight = (w: WallTime) => w.hour === 0 && w.minute === 0;
  if (midnight(from) && midnight(to)) return { start: p.dateStart, end: p.dateEnd };
  const minute = (w: WallTime) => `${formatYmd(w)} ${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
  return { start: minute(from), end: minute(to) };
}

/**
 * Sends the e-mail of each scheduled file that became ready (or failed), once: the rows are
 * claimed by setting `mailed_at` before anything is sent. `origin` is where people reach the
 * console (PUBLIC_URL), so the link in the e-mail works from their mailbox.
 */
export async function mailScheduledFiles(deps: { db: Kysely<Database>; now: () => Date; secrets: SecretBox; messages: MessageProvider }, origin: string): Promise<number> {
  const now = deps.now();
  const claimed = await sql<{ id: string | number; company_id: number; state: string; rows: string | number; params: unknown; error: string | null; name: string | null; emails: unknown; language: string }>`
    update report_files f set mailed_at = ${now}
    from report_schedules s
    where f.id in (select id from report_files where schedule_id is not null and mailed_at is null and state <> 'enlist' order by id limit 50 for update skip locked)
      and s.id = f.schedule_id
    returning f.id, f.company_id, f.state, f.rows, f.params, f.error, s.name, s.emails, f.language`.execute(deps.db);
  for (const f of claimed.rows) {
    const p = jsonValue<FileParams>(f.params);
    const words = wordsFor(storedLanguage(f.language));
    const vars = { name: f.name ?? '', ...coveredSpan(p), rows: Number(f.rows), state: words.enumLabel('report-file-state', f.state), error: f.error ?? '' };
    const link = f.state === 'ready' ? fileLink(deps.secrets, Number(f.id), f.company_id, now, constants.reports.scheduledLinkDays * 24 * 60) : null;
    const body = link
      ? words.text('scheduledReport.ready', { ...vars, url: `${origin}${link.url}`, days: constants.reports.scheduledLinkDays })
      : words.text('scheduledReport.failed', vars);
    for (const to of list<string>(f.emails)) {
      await deps.messages.send({ channel: 'email', to, subject: words.text('scheduledReport.subject', vars), body, companyId: f.company_id });
    }
  }
  return claimed.rows.length;
}
