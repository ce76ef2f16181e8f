// Campaign repetition (spec §3 "Campaign … repeat (every N days/weeks/months/years, starts, ends,
// expires)"). Runs are computed on the wall clock of the rule's zone (America/Bogota by default),
// so a campaign at 09:00 stays at 09:00 whatever the zone's offset does.
//
// Choices:
// - Run k is `starts` + k × every units, always counted from the start (never from the previous
//   run), so month ends do not drift: Jan 31 monthly → Feb 28 (29 in leap years) → Mar 31 → Apr 30.
//   Yearly from Feb 29 → Feb 28 in common years, Feb 29 again in leap years.
// - `ends` is the last day (or instant) a run may start: runs on or before it happen. A date alone
//   means through the end of that day.
// - `expires` is when the campaign stops altogether: a run at or after it does not happen. A date
//   alone expires at the end of that day ("vence el 30 de junio" = still valid on the 30th).
// - In a zone with daylight saving, a wall time that happens twice is its first occurrence, and
//   one that never happens (02:30 on the spring-forward day) runs when the clock jumps (03:00);
//   see instantOf in bogota-time.ts. Bogotá has no DST; other zones come from configuration.
import {
  DEFAULT_TIME_ZONE, addDays, dayNumber, daysInMonth, instantOf, isKnownTimeZone, parseYmd, wallTimeOf, type CalendarDate, type WallTime,
} from './bogota-time.ts';

export type RecurrenceUnit = 'day' | 'week' | 'month' | 'year';
export const RECURRENCE_UNITS: readonly RecurrenceUnit[] = ['day', 'week', 'month', 'year'];
/** The largest `every` accepted: beyond it a form typo is likelier than a real schedule. */
export const MAX_EVERY = 1000;

/**
 * A local time is "YYYY-MM-DDTHH:MM[:SS]" (or with a space) on the rule zone's clock; a string with
 * "Z" or an offset, or a Date, is an instant. `ends` and `expires` also take a date alone.
 */
export type RecurrenceTime = string | Date;

export interface RecurrenceRule {
  every: number;
  unit: RecurrenceUnit;
  /** The first run; its day of month and time of day anchor every later run. */
  starts: RecurrenceTime;
  ends?: RecurrenceTime | null;
  expires?: RecurrenceTime | null;
  /** IANA zone of the wall clock; America/Bogota (constants.sendWindow.timeZone) by default. */
  timeZone?: string;
}

export type RecurrenceProblemCode =
  | 'invalidEvery' | 'invalidUnit' | 'invalidTimeZone' | 'invalidStarts' | 'invalidEnds' | 'invalidExpires'
  | 'endsBeforeStarts' | 'expiresBeforeStarts';

export class RecurrenceError extends Error {
  constructor(readonly problems: RecurrenceProblemCode[]) {
    super(`invalid recurrence rule: ${problems.join(', ')}`);
    this.name = 'RecurrenceError';
  }
}

const LOCAL = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

type Bound = { kind: 'date'; date: CalendarDate } | { kind: 'instant'; at: Date };

/** Reads a rule time; a date alone only where `dateAllowed`. Throws RangeError on anything else. */
function readTime(value: RecurrenceTime, timeZone: string, dateAllowed: boolean): Bound {
  if (value instanceof Date) {
    if (!Number.isFinite(value.getTime())) throw new RangeError('invalid date');
    return { kind: 'instant', at: value };
  }
  if (DATE_ONLY.test(value)) {
    if (!dateAllowed) throw new RangeError('a time of day is needed');
    return { kind: 'date', date: parseYmd(value) };
  }
  const local = LOCAL.exec(value);
  if (local) {
    const d = parseYmd(local[1]);
    const wall: WallTime = { ...d, hour: Number(local[2]), minute: Number(local[3]), second: Number(local[4] ?? 0) };
    if (wall.hour > 23 || wall.minute > 59 || wall.second > 59) throw new RangeError(`no such time: ${value}`);
    return { kind: 'instant', at: instantOf(wall, timeZone) };
  }
  if (INSTANT.test(value)) {
    const at = new Date(value);
    if (Number.isFinite(at.getTime())) return { kind: 'instant', at };
  }
  throw new RangeError(`not a date or time: ${JSON.stringify(value)}`);
}

interface Resolved {
  timeZone: string;
  unit: RecurrenceUnit;
  every: number;
  startDate: CalendarDate;
  startTime: { hour: number; minute: number; second: number };
  start: Date;
  /** Runs at or before this instant may happen (ends). */
  lastAllowed: number;
  /** Runs before this instant may happen (expires). */
  expiresAt: number;
}

/** What is wrong with a rule (for the campaign form), or an empty list. */
export function recurrenceProblems(rule: RecurrenceRule): RecurrenceProblemCode[] {
  const problems: RecurrenceProblemCode[] = [];
  if (!Number.isInteger(rule.every) || rule.every < 1 || rule.every > MAX_EVERY) problems.push('invalidEvery');
  if (!RECURRENCE_UNITS.includes(rule.unit)) problems.push('invalidUnit');
  const timeZone = rule.timeZone ?? DEFAULT_TIME_ZONE;
  if (!isKnownTimeZone(timeZone)) return [...problems, 'invalidTimeZone'];
  let start: Date | null = null;
  try {
    start = (readTime(rule.starts, timeZone, false) as { at: Date }).at;
  } catch {
    problems.push('invalidStarts');
  }
  const bounds: Array<['ends' | 'expires', RecurrenceTime | null | undefined]> = [['ends', rule.ends], ['expires', rule.expires]];
  for (const [name, value] of bounds) {
    if (value === undefined || value === null) continue;
    let limit: number;
    try {
      limit = name === 'ends' ? endsLimit(readTime(value, timeZone, true), timeZone) : expiresLimit(readTime(value, timeZone, true), timeZone);
    } catch {
      problems.push(name === 'ends' ? 'invalidEnds' : 'invalidExpires');
      continue;
    }
    if (start && (name === 'ends' ? limit < start.getTime() : limit <= start.getTime())) {
      problems.push(name === 'ends' ? 'endsBeforeStarts' : 'expiresBeforeStarts');
    }
  }
  return problems;
}

const startOfDay = (d: CalendarDate, timeZone: string) => instantOf({ ...d, hour: 0, minute: 0, second: 0 }, timeZone).getTime();

/** The last instant a run may start under `ends` (inclusive). */
function endsLimit(b: Bound, timeZone: string): number {
  return b.kind === 'instant' ? b.at.getTime() : startOfDay(addDays(b.date, 1), timeZone) - 1;
}

/** The instant from which nothing runs under `expires` (exclusive). */
function expiresLimit(b: Bound, timeZone: string): number {
  return b.kind === 'instant' ? b.at.getTime() : startOfDay(addDays(b.date, 1), timeZone);
}

function resolve(rule: RecurrenceRule): Resolved {
  const problems = recurrenceProblems(rule);
  if (problems.length) throw new RecurrenceError(problems);
  const timeZone = rule.timeZone ?? DEFAULT_TIME_ZONE;
  // A local start keeps its own wall time (even one inside a DST gap); an instant gives its wall time.
  const local = typeof rule.starts === 'string' ? LOCAL.exec(rule.starts) : null;
  const start = (readTime(rule.starts, timeZone, false) as { at: Date }).at;
  const wall: WallTime = local
    ? { ...parseYmd(local[1]), hour: Number(local[2]), minute: Number(local[3]), second: Number(local[4] ?? 0) }
    : wallTimeOf(start, timeZone);
  return {
    timeZone,
    unit: rule.unit,
    every: rule.every,
    startDate: { year: wall.year, month: wall.month, day: wall.day },
    startTime: { hour: wall.hour, minute: wall.minute, second: wall.second },
    start,
    lastAllowed: rule.ends ? endsLimit(readTime(rule.ends, timeZone, true), timeZone) : Infinity,
    expiresAt: rule.expires ? expiresLimit(readTime(rule.expires, timeZone, true), timeZone) : Infinity,
  };
}

const monthIndex = (d: CalendarDate) => d.year * 12 + (d.month - 1);

/** The wall date of run k (k = 0 is the start). */
function dateOfRun(r: Resolved, k: number): CalendarDate {
  if (r.unit === 'day' || r.unit === 'week') return addDays(r.startDate, k * r.every * (r.unit === 'week' ? 7 : 1));
  const m = monthIndex(r.startDate) + k * r.every * (r.unit === 'year' ? 12 : 1);
  const year = Math.floor(m / 12);
  const month = (m % 12) + 1;
  // Anchored on the start's day: a short month takes its last day, the next month gets the 31st back.
  return { year, month, day: Math.min(r.startDate.day, daysInMonth(year, month)) };
}

function runAt(r: Resolved, k: number): Date {
  return instantOf({ ...dateOfRun(r, k), ...r.startTime }, r.timeZone);
}

const allowed = (r: Resolved, t: number) => t <= r.lastAllowed && t < r.expiresAt;

/** The index of the first run strictly after `after`, found by arithmetic and a few steps. */
function firstIndexAfter(r: Resolved, after: Date): number {
  if (after.getTime() < r.start.getTime()) return 0;
  const a = wallTimeOf(after, r.timeZone);
  const periodUnits = r.every * (r.unit === 'week' ? 7 : r.unit === 'year' ? 12 : 1);
  const elapsed = r.unit === 'day' || r.unit === 'week' ? dayNumber(a) - dayNumber(r.startDate) : monthIndex(a) - monthIndex(r.startDate);
  // One period short of the estimate lands on an earlier wall date, hence an earlier instant.
  let k = Math.max(0, Math.floor(elapsed / periodUnits) - 1);
  while (runAt(r, k).getTime() <= after.getTime()) k++;
  return k;
}

/** Up to `limit` runs strictly after `after`, earliest first, stopping at `ends` and `expires`. */
export function nextRuns(rule: RecurrenceRule, after: Date, limit: number): Date[] {
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`nextRuns: limit must be a whole number ≥ 0, not ${limit}`);
  const r = resolve(rule);
  const runs: Date[] = [];
  for (let k = firstIndexAfter(r, after); runs.length < limit; k++) {
    const t = runAt(r, k);
    if (!allowed(r, t.getTime())) break;
    runs.push(t);
  }
  return runs;
}

/** The next run strictly after `after`, or null when the campaign has ended or expired. */
export function nextRun(rule: RecurrenceRule, after: Date): Date | null {
  return nextRuns(rule, after, 1)[0] ?? null;
}

/** Guards against a range that would list a runaway number of runs (daily for 27 years is 10,000). */
export const MAX_OCCURRENCES = 10_000;

/** Every run with from ≤ run < to (half-open, as report ranges are), earliest first. */
export function occurrences(rule: RecurrenceRule, from: Date, to: Date): Date[] {
  const r = resolve(rule);
  const runs: Date[] = [];
  for (let k = firstIndexAfter(r, new Date(from.getTime() - 1)); ; k++) {
    const t = runAt(r, k);
    if (t.getTime() >= to.getTime() || !allowed(r, t.getTime())) break;
    if (runs.length === MAX_OCCURRENCES) throw new RangeError(`occurrences: more than ${MAX_OCCURRENCES} runs in the range`);
    runs.push(t);
  }
  return runs;
}

/** Whether the campaign has expired at `now` (the engine cancels its pending work then). */
export function isExpired(rule: RecurrenceRule, now: Date): boolean {
  return now.getTime() >= resolve(rule).expiresAt;
}
