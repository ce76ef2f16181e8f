// What every traffic report is asked for, checked once (spec 5): the accounts (the company's
// channels, at least one: 99961), the Bogotá calendar days (the end not before the start 99958;
// none after today nor before the report history, 99962) and, for a report by period, no more
// periods than the granularity limit (99962). Every problem is listed in the answer's errors.
import type { Kysely } from 'kysely';
import { addDays, dayNumber, daysInMonth, formatYmd, parseYmd } from '../../../core/bogota-time.ts';
import { calendarDate, dayAfter, dayStart } from '../../../core/date-range.ts';
import type { Database } from '../../../engine/database.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { ChannelPlatform } from '../../../generated/enums.gen.ts';
import { failFields, fieldError, type FieldError } from '../../errors/api-error.ts';

const TIME_ZONE = constants.sendWindow.timeZone;

/** Aggregation levels (constants.reports.aggregationLevels): 0 hour, 1 day, 2 month, 3 year. */
export type Level = 0 | 1 | 2 | 3;

export interface ReportScope {
  companyId: number;
  channelIds: number[];
  /** The first instant of the first day and the first instant after the last day (whole Bogotá days: the day rollups are read). */
  from: Date;
  to: Date;
}

export interface ScopeRequest {
  companyId: number;
  accounts: { field: string; ids: number[] };
  dateStart: string;
  dateEnd: string;
  /** For a report by period: its level, checked against the granularity limit. */
  level?: Level;
  now: Date;
}

/** How many periods of a level the days [start, end] span. */
export function periodsSpanned(start: string, end: string, level: Level): number {
  const a = parseYmd(start);
  const b = parseYmd(end);
  const days = dayNumber(b) - dayNumber(a) + 1;
  if (level === 0) return days * 24;
  if (level === 1) return days;
  if (level === 2) return (b.year - a.year) * 12 + (b.month - a.month) + 1;
  return b.year - a.year + 1;
}

/** What is wrong with two report days (spec 5): the end before the start, after today, before the history. */
export function dateProblems(dateStart: string, dateEnd: string, now: Date): FieldError[] {
  const problems: FieldError[] = [];
  const today = calendarDate(now, TIME_ZONE);
  const oldest = addDays(parseYmd(today), -(constants.reports.historyDays - 1));
  if (dateEnd < dateStart) problems.push(fieldError('DateEnd', '99958'));
  if (dateStart > today) problems.push(fieldError('DateStart', '99962', `> ${today}`));
  if (dateEnd > today) problems.push(fieldError('DateEnd', '99962', `> ${today}`));
  if (dayNumber(parseYmd(dateStart)) < dayNumber(oldest)) problems.push(fieldError('DateStart', '99962', `< ${constants.reports.historyDays} d`));
  return problems;
}

/** What is wrong with a report's days and, for a report by period, with the number of periods at its level (99962). */
export function periodProblems(dateStart: string, dateEnd: string, level: Level | undefined, now: Date): FieldError[] {
  const problems = dateProblems(dateStart, dateEnd, now);
  if (level !== undefined && dateEnd >= dateStart && periodsSpanned(dateStart, dateEnd, level) > constants.reports.granularityLimit) {
    problems.push(fieldError('AggregationLevel', '99962', `> ${constants.reports.granularityLimit}`));
  }
  return problems;
}

/** The company's accounts (its channels), optionally of one platform, by name: the reports' account choices. */
export async function companyAccounts(db: Kysely<Database>, companyId: number, platform?: ChannelPlatform): Promise<{ id: number; name: string; platform: ChannelPlatform }[]> {
  let q = db.selectFrom('channels').select(['id', 'name', 'platform']).where('company_id', '=', companyId);
  if (platform) q = q.where('platform', '=', platform);
  const rows = await q.orderBy('name').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, platform: r.platform as ChannelPlatform }));
}

/** The problem (99961 on `field`, naming them) when some of `ids` are not the company's accounts: every report's rule. */
export async function foreignAccounts(db: Kysely<Database>, companyId: number, field: string, ids: readonly number[]): Promise<FieldError[]> {
  if (!ids.length) return [];
  const owned = await db.selectFrom('channels').select('id').where('company_id', '=', companyId).where('id', 'in', [...ids]).execute();
  const foreign = ids.filter((id) => !owned.some((o) => o.id === id));
  return foreign.length ? [fieldError(field, '99961', foreign.join(', '))] : [];
}

/** The checked scope, or the answer listing every problem. */
export async function reportScope(db: Kysely<Database>, request: ScopeRequest): Promise<ReportScope> {
  const problems: FieldError[] = [];
  const { field, ids } = request.accounts;
  if (!ids.length) problems.push(fieldError(field, '99961'));
  else problems.push(...(await foreignAccounts(db, request.companyId, field, ids)));
  const { dateStart, dateEnd } = request;
  problems.push(...periodProblems(dateStart, dateEnd, request.level, request.now));
  if (problems.length) throw failFields(problems);
  return {
    companyId: request.companyId,
    channelIds: ids,
    from: dayStart(dateStart, TIME_ZONE),
    to: dayAfter(dateEnd, TIME_ZONE),
  };
}

/**
 * The days and months of a year a per-month report covers (the current Bogotá year by default):
 * from January, or the first day of the report history, to December or today. A year after this
 * one gives a range after today, and a year wholly before the history a start before it, so
 * reportScope refuses both (99962).
 */
export function yearMonths(year: number | undefined, now: Date): { dateStart: string; dateEnd: string; list: string[] } {
  const today = parseYmd(calendarDate(now, TIME_ZONE));
  const y = year ?? today.year;
  const oldest = addDays(today, -(constants.reports.historyDays - 1));
  const first = y === oldest.year ? oldest : { year: y, month: 1, day: 1 };
  const last = y === today.year ? today : { year: y, month: 12, day: 31 };
  const months: string[] = [];
  if (y <= today.year) for (let m = first.month; m <= last.month; m++) months.push(`${y}-${String(m).padStart(2, '0')}`);
  return { dateStart: formatYmd(first), dateEnd: formatYmd(last), list: months };
}

/**
 * The days of one month of a year (a whole year without `month`: yearMonths), to today when it is
 * this month, from the first day of the report history when the month straddles it; a month to
 * come or wholly before the history gives a range reportScope refuses (99962).
 */
export function monthDays(year: number, month: number | undefined, now: Date): { dateStart: string; dateEnd: string; level: Level } {
  if (month === undefined) {
    const { dateStart, dateEnd } = yearMonths(year, now);
    return { dateStart, dateEnd, level: 2 };
  }
  const today = parseYmd(calendarDate(now, TIME_ZONE));
  const oldest = addDays(today, -(constants.reports.historyDays - 1));
  const first = { year, month, day: 1 };
  const last = { year, month, day: daysInMonth(year, month) };
  const end = dayNumber(last) > dayNumber(today) && dayNumber(first) <= dayNumber(today) ? today : last;
  const start = dayNumber(first) < dayNumber(oldest) && dayNumber(end) >= dayNumber(oldest) ? oldest : first;
  return { dateStart: formatYmd(start), dateEnd: formatYmd(end), level: 1 };
}

/** An instant as the answers write it, or null. */
export const isoOrNull = (d: Date | string | null): string | null => (d ? new Date(d).toISOString() : null);
