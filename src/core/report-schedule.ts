// When a scheduled report runs (spec 9: hourly, daily, weekly, monthly, yearly; day), in the
// company's time zone: hourly at the top of every hour; daily at `hour`; weekly on weekday `day`
// (1 Monday … 7 Sunday) at `hour`; monthly on day `day` of the month (its last day when the month
// is shorter: 31 → 30 April, 28/29 February) at `hour`; yearly on day `day` of January at `hour`.
// A run covers the time since the occurrence before it, so consecutive runs tile time with no gap
// and no overlap, whatever day the schedule was created or changed.
import { addDays, calendarDateOf, daysInMonth, instantOf, weekdayOf, type CalendarDate } from './bogota-time.ts';
import type { ReportFrequency } from '../generated/enums.gen.ts';

export interface ScheduleRule {
  frequency: ReportFrequency;
  /** weekly: 1–7 (Monday first); monthly and yearly: 1–31; otherwise unused. */
  day: number | null;
  /** 0–23, the zone's wall-clock hour (unused when hourly). */
  hour: number;
}

const HOUR_MS = 3_600_000;

/** Whether a run falls on this calendar date. */
function runsOn(rule: ScheduleRule, d: CalendarDate): boolean {
  const day = rule.day ?? 1;
  switch (rule.frequency) {
    case 'hourly':
    case 'daily': return true;
    case 'weekly': return ((weekdayOf(d) + 6) % 7) + 1 === day;
    case 'monthly': return d.day === Math.min(day, daysInMonth(d.year, d.month));
    case 'yearly': return d.month === 1 && d.day === Math.min(day, 31);
  }
}

/** The first run strictly after `after`. */
export function nextOccurrence(rule: ScheduleRule, after: Date, timeZone?: string): Date {
  if (rule.frequency === 'hourly') return new Date((Math.floor(after.getTime() / HOUR_MS) + 1) * HOUR_MS);
  let d = calendarDateOf(after, timeZone);
  // A yearly rule runs within 366 days; one more year of days covers any start.
  for (let i = 0; i < 800; i += 1, d = addDays(d, 1)) {
    if (!runsOn(rule, d)) continue;
    const at = instantOf({ ...d, hour: rule.hour, minute: 0, second: 0 }, timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new RangeError('nextOccurrence: no run within two years');
}

/** The run before `at` (the start of the period the run at `at` covers). */
export function previousOccurrence(rule: ScheduleRule, at: Date, timeZone?: string): Date {
  if (rule.frequency === 'hourly') return new Date((Math.ceil(at.getTime() / HOUR_MS) - 1) * HOUR_MS);
  let d = calendarDateOf(at, timeZone);
  for (let i = 0; i < 800; i += 1, d = addDays(d, -1)) {
    if (!runsOn(rule, d)) continue;
    const run = instantOf({ ...d, hour: rule.hour, minute: 0, second: 0 }, timeZone);
    if (run.getTime() < at.getTime()) return run;
  }
  throw new RangeError('previousOccurrence: no run within two years');
}
