// Wall-clock time in a named time zone (America/Bogota by default, constants.sendWindow.timeZone).
// Bogotá is UTC−5 with no daylight saving (research/protocols.md §6), but we never hardcode the
// offset: every conversion asks Intl.DateTimeFormat for the configured zone, so the answers do
// not depend on the process's TZ and a policy may name a zone with DST.
import { constants } from '../generated/constants.gen.ts';

export const DEFAULT_TIME_ZONE: string = constants.sendWindow.timeZone;

/** A calendar date and time of day as a clock on the wall shows it (month 1–12). */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** A wall time with its day of the week (0 Sunday … 6 Saturday). */
export interface ZonedWallTime extends WallTime {
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building an Intl.DateTimeFormat is far dearer than using one. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // Throws RangeError for an unknown zone, which is the clear error we want.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall time of `instant` in `timeZone`. */
export function wallTimeOf(instant: Date, timeZone: string = DEFAULT_TIME_ZONE): ZonedWallTime {
  const ms = instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('wallTimeOf: invalid date');
  const whole = Math.floor(ms / 1000) * 1000;
  const local = new Date(whole + offsetAt(whole, timeZone));
  const wall = {
    year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate(),
    hour: local.getUTCHours(), minute: local.getUTCMinutes(), second: local.getUTCSeconds(),
  };
  return { ...wall, weekday: local.getUTCDay() };
}

/** The wall time as Intl reads it: the source of truth, and the slow path. */
function intlWallTime(ms: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

const DAY_MS = 86_400_000;
/** Per zone and UTC day: the offset when it holds all day, null when the day has a transition. */
const dayOffsets = new Map<string, Map<number, number | null>>();

/** Milliseconds the zone's clock is ahead of UTC at `ms` (−18,000,000 in Bogotá). */
function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  const raw = (t: number) => asUtc(intlWallTime(t, timeZone)) - t;
  // Intl is slow and a zone's offset changes a few times a year at most: remember whole UTC days
  // whose offset is the same at their first and last second (no real zone changes twice in a day).
  let days = dayOffsets.get(timeZone);
  if (!days) dayOffsets.set(timeZone, (days = new Map()));
  const day = Math.floor(whole / DAY_MS);
  let known = days.get(day);
  if (known === undefined) {
    const first = raw(day * DAY_MS);
    known = first === raw((day + 1) * DAY_MS - 1000) ? first : null;
    if (days.size > 20_000) days.clear();
    days.set(day, known);
  }
  return known ?? raw(whole);
}

/** The wall time read as if it were UTC: a plain count of milliseconds, handy for arithmetic. */
function asUtc(w: WallTime): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
}

const sameWall = (a: WallTime, b: WallTime) =>
  a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === b.second;

/**
 * The instant a wall clock in `timeZone` shows `wall`.
 * - A wall time that happens twice (the hour repeated when DST ends) is its first occurrence.
 * - A wall time that never happens (the hour skipped when DST starts, e.g. 02:30 in New York on
 *   the spring-forward day) is the first instant after the gap (03:00 there): the earliest moment
 *   at or after the intended local time, so a campaign never runs before its time nor an hour late.
 * Bogotá has neither case; other zones come from configuration.
 */
export function instantOf(wall: WallTime, timeZone: string = DEFAULT_TIME_ZONE): Date {
  const local = asUtc(wall);
  if (!Number.isFinite(local)) throw new RangeError('instantOf: invalid wall time');
  // Try the offsets in force a day either side: one of them is right unless the time is in a gap.
  const offsets = [...new Set([offsetAt(local - DAY_MS, timeZone), offsetAt(local, timeZone), offsetAt(local + DAY_MS, timeZone)])];
  const matches = offsets
    .map((off) => local - off)
    .filter((ms) => sameWall(wallTimeOf(new Date(ms), timeZone), wall))
    .sort((a, b) => a - b);
  if (matches.length) return new Date(matches[0]);
  // In a gap: the clock jumps over `wall`. Find the transition between the two readings.
  const candidates = offsets.map((off) => local - off).sort((a, b) => a - b);
  let lo = candidates[0];
  let hi = candidates[candidates.length - 1];
  if (asUtc(wallTimeOf(new Date(hi), timeZone)) < local) throw new RangeError(`instantOf: cannot place ${JSON.stringify(wall)} in ${timeZone}`);
  // Invariant: the wall time at lo is before `wall`, at hi after it; transitions fall on whole seconds.
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (asUtc(wallTimeOf(new Date(mid), timeZone)) < local) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
}

// ---- Calendar dates (YYYY-MM-DD) ----

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export const formatYmd = (d: CalendarDate): string => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;

/** Parses YYYY-MM-DD, refusing dates that do not exist (2026-02-29). */
export function parseYmd(ymd: string): CalendarDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(ymd)}`);
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > daysInMonth(d.year, d.month)) throw new RangeError(`no such date: ${ymd}`);
  return d;
}

export const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

export function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/** Days since 1970-01-01 of a calendar date (proleptic Gregorian): day arithmetic without zones. */
export function dayNumber(d: CalendarDate): number {
  return Math.round(asUtc({ ...d, hour: 0, minute: 0, second: 0 }) / DAY_MS);
}

export function fromDayNumber(n: number): CalendarDate {
  const t = new Date(n * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export const addDays = (d: CalendarDate, days: number): CalendarDate => fromDayNumber(dayNumber(d) + days);

/** 0 Sunday … 6 Saturday. */
export function weekdayOf(d: CalendarDate): number {
  return (((dayNumber(d) + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

/** Today's date in the zone. */
export function calendarDateOf(instant: Date, timeZone: string = DEFAULT_TIME_ZONE): CalendarDate {
  const w = wallTimeOf(instant, timeZone);
  return { year: w.year, month: w.month, day: w.day };
}

// ---- Times of day (HH:MM) ----

/** Minutes after midnight of an "HH:MM" time; "24:00" is the end of the day. */
export function parseHm(hm: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hm);
  if (!m) throw new RangeError(`not an HH:MM time: ${JSON.stringify(hm)}`);
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  if (Number(m[2]) > 59 || minutes > 24 * 60) throw new RangeError(`no such time of day: ${hm}`);
  return minutes;
}

/** The instant a date at `minutes` after midnight shows on the zone's clock ("24:00" → next day 00:00). */
export function instantAtMinutes(d: CalendarDate, minutes: number, timeZone: string = DEFAULT_TIME_ZONE): Date {
  const day = minutes >= 24 * 60 ? addDays(d, 1) : d;
  const m = minutes % (24 * 60);
  return instantOf({ ...day, hour: Math.floor(m / 60), minute: m % 60, second: 0 }, timeZone);
}
