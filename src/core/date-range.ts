// Date ranges of reports and logs (spec 5): the end may not come before the start, and data
// exists only up to today, so neither date may be after today. Dates are calendar days
// (YYYY-MM-DD) in the product's time zone; ISO dates compare correctly as strings.
import { addDays, instantAtMinutes, parseYmd } from './bogota-time.ts';

/** The calendar date of `now` in `timeZone`, as YYYY-MM-DD. */
export function calendarDate(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export type DateRangeProblem = 'endBeforeStart' | 'afterToday';

/** What is wrong with a (possibly open) range, or null; `today` is YYYY-MM-DD. */
export function dateRangeProblem(range: { start?: string; end?: string }, today: string): DateRangeProblem | null {
  if ((range.start && range.start > today) || (range.end && range.end > today)) return 'afterToday';
  if (range.start && range.end && range.end < range.start) return 'endBeforeStart';
  return null;
}

/**
 * The instants a calendar day of `timeZone` starts and the first instant after it: a range of days
 * [start, end] is `at >= dayStart(start) and at < dayAfter(end)`. Read from the zone's rules, never
 * a fixed offset (Colombia keeps UTC-5 today; a configured zone may not).
 */
export const dayStart = (ymd: string, timeZone: string): Date => instantAtMinutes(parseYmd(ymd), 0, timeZone);
export const dayAfter = (ymd: string, timeZone: string): Date => instantAtMinutes(addDays(parseYmd(ymd), 1), 0, timeZone);
