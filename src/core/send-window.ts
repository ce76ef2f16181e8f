// The commercial send window: when a company may send a commercial (advertising) message.
//
// - Default profile "law2300": Ley 2300 de 2023 ("Dejen de fregar") allows advertising contact
//   Monday–Friday 07:00–19:00 and Saturday 08:00–15:00, never on Sundays or holidays
//   (research/protocols.md §0.5). Profile "spec" is the spec's daily 08:00–21:00 (spec §9).
//   Both live in constants.sendWindow.profiles; a company may carry its own profile of the same shape.
// - Transactional messages and OTP are exempt (the law's exceptions for confirming operations and
//   requested information), so they always pass.
// - A window is half-open, [from, to): 07:00:00 is inside, 19:00:00 is outside (the law's
//   "hasta las 7 p.m." read as "no later than 19:00"; a message at 18:59:59 still goes).
// - A held message waits for the next allowed instant, never dropped (ARCHITECTURE.md §5):
//   nextAllowed always finds one for a profile that opens at all, and throws otherwise.
// Times are evaluated on the wall clock of the policy's zone (America/Bogota by default).
import { constants } from '../generated/constants.gen.ts';
import type { HoldReason as GeneratedHoldReason, MessagePurpose } from '../generated/enums.gen.ts';
import {
  DEFAULT_TIME_ZONE, addDays, calendarDateOf, formatYmd, instantAtMinutes, isKnownTimeZone, parseHm, wallTimeOf, weekdayOf, type CalendarDate,
} from './bogota-time.ts';
import { holidayCalendar, holidaysOf, type HolidayId, type HolidayOptions } from './colombian-holidays.ts';

/** A daily window "HH:MM"–"HH:MM", from inclusive, to exclusive; "24:00" is midnight at the end. */
export interface DayWindow {
  from: string;
  to: string;
}

const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type DayName = (typeof DAY_NAMES)[number];

/**
 * A send-window profile, the shape of constants.sendWindow.profiles.*: `weekdays` is Monday–Friday,
 * and an optional `monday` … `friday` overrides one weekday. null closes the day.
 * `holidays`: false closes holidays, true keeps the day's usual window, a DayWindow replaces it.
 */
export interface SendWindowProfile {
  weekdays: DayWindow | null;
  saturday: DayWindow | null;
  sunday: DayWindow | null;
  holidays: boolean | DayWindow;
  monday?: DayWindow | null;
  tuesday?: DayWindow | null;
  wednesday?: DayWindow | null;
  thursday?: DayWindow | null;
  friday?: DayWindow | null;
}

export type ProfileName = keyof typeof constants.sendWindow.profiles;

export const PROFILES: Readonly<Record<ProfileName, SendWindowProfile>> = constants.sendWindow.profiles;
export const DEFAULT_PROFILE = constants.sendWindow.profile as ProfileName;

/** A company's policy: a profile name, a custom profile, or either with its zone and holiday table. */
export type SendPolicy =
  | ProfileName
  | SendWindowProfile
  | { profile: ProfileName | SendWindowProfile; timeZone?: string; holidays?: HolidayOptions };

/** Why a commercial message waits: schemas/enums/hold-reason.yaml. */
export type HoldReason = GeneratedHoldReason;

export type SendDecision =
  | { send: true; at: Date }
  | { send: false; at: Date; reason: HoldReason };

/** Thrown when a profile never opens, so a held message could wait forever. */
export class SendWindowError extends Error {
  readonly code = 'sendWindowNeverOpens';
  constructor(message: string) {
    super(message);
    this.name = 'SendWindowError';
  }
}

export type ProfileProblem = { code: 'invalidTime' | 'emptyWindow' | 'neverOpens'; day?: DayName | 'weekdays' | 'holidays' };

/** What is wrong with a custom profile (for the form that saves it), or an empty list. */
export function profileProblems(profile: SendWindowProfile): ProfileProblem[] {
  const problems: ProfileProblem[] = [];
  const check = (w: DayWindow | null | undefined, day: NonNullable<ProfileProblem['day']>) => {
    if (!w) return;
    let from: number, to: number;
    try {
      from = parseHm(w.from);
      to = parseHm(w.to);
    } catch {
      problems.push({ code: 'invalidTime', day });
      return;
    }
    if (from >= to || from >= 24 * 60) problems.push({ code: 'emptyWindow', day });
  };
  check(profile.weekdays, 'weekdays');
  for (const d of DAY_NAMES) if (d !== 'sunday' && d !== 'saturday') check(profile[d], d);
  check(profile.saturday, 'saturday');
  check(profile.sunday, 'sunday');
  if (typeof profile.holidays === 'object') check(profile.holidays, 'holidays');
  if (problems.length === 0 && !opensSomeDay(profile)) problems.push({ code: 'neverOpens' });
  return problems;
}

function opensSomeDay(p: SendWindowProfile): boolean {
  return DAY_NAMES.some((_, wd) => usualWindow(p, wd) !== null) || (typeof p.holidays === 'object' && p.holidays !== null);
}

/** The window of a weekday before holidays are considered. */
function usualWindow(p: SendWindowProfile, weekday: number): DayWindow | null {
  const name = DAY_NAMES[weekday];
  if (name === 'sunday') return p.sunday;
  if (name === 'saturday') return p.saturday;
  const own = p[name];
  return own === undefined ? p.weekdays : own;
}

interface Minutes {
  from: number;
  to: number;
}

/** A policy made ready to answer many questions: windows parsed, holidays cached per year. */
export interface ResolvedPolicy {
  profile: SendWindowProfile;
  timeZone: string;
  /** The holiday table's corrections this policy uses (colombian-holidays.ts). */
  holidayOptions: HolidayOptions;
  /** The window of a calendar date in minutes after midnight, or null when closed. */
  windowOn(date: CalendarDate): Minutes | null;
  isHoliday(date: CalendarDate): boolean;
}

export function resolvePolicy(policy: SendPolicy | ResolvedPolicy = DEFAULT_PROFILE): ResolvedPolicy {
  if (typeof policy === 'object' && 'windowOn' in policy) return policy;
  const spec = typeof policy === 'string' || !('profile' in policy) ? { profile: policy } : policy;
  const profile = typeof spec.profile === 'string' ? PROFILES[spec.profile] : spec.profile;
  if (!profile) throw new SendWindowError(`unknown send-window profile ${JSON.stringify(spec.profile)}`);
  const problems = profileProblems(profile);
  if (problems.length) {
    throw new SendWindowError(`send-window profile is not usable: ${problems.map((p) => p.code + (p.day ? ` (${p.day})` : '')).join(', ')}`);
  }
  const timeZone = spec.timeZone ?? DEFAULT_TIME_ZONE;
  if (!isKnownTimeZone(timeZone)) throw new SendWindowError(`unknown time zone ${JSON.stringify(timeZone)}`);
  const holidayOptions = spec.holidays ?? {};
  const holidayYears = new Map<number, Set<string>>();
  const isHoliday = (d: CalendarDate) => {
    let set = holidayYears.get(d.year);
    if (!set) holidayYears.set(d.year, (set = new Set(holidaysOf(d.year, holidayOptions))));
    return set.has(formatYmd(d));
  };
  const toMinutes = (w: DayWindow | null): Minutes | null => (w ? { from: parseHm(w.from), to: parseHm(w.to) } : null);
  const byWeekday = DAY_NAMES.map((_, wd) => toMinutes(usualWindow(profile, wd)));
  const holidayWindow = typeof profile.holidays === 'object' ? toMinutes(profile.holidays) : null;
  const windowOn = (d: CalendarDate): Minutes | null => {
    const usual = byWeekday[weekdayOf(d)];
    if (profile.holidays === true || !isHoliday(d)) return usual;
    return holidayWindow; // null when holidays are closed
  };
  return { profile, timeZone, holidayOptions, windowOn, isHoliday };
}

/**
 * A company's stored send window (messaging_settings.send_window): a profile name, a custom
 * profile, or nothing (constants.sendWindow.profile, Ley 2300 by default); with the name a person
 * reads for it.
 */
export function storedPolicy(stored: unknown): { name: ProfileName | 'custom'; profile: SendWindowProfile } {
  if (typeof stored === 'string' && stored in PROFILES) return { name: stored as ProfileName, profile: PROFILES[stored as ProfileName] };
  if (stored && typeof stored === 'object') return { name: 'custom', profile: stored as SendWindowProfile };
  return { name: DEFAULT_PROFILE, profile: PROFILES[DEFAULT_PROFILE] };
}

const minutesOfDay = (w: { hour: number; minute: number; second: number }, ms: number) => w.hour * 60 + w.minute + (w.second + (ms % 1000) / 1000) / 60;

/** Whether a commercial message may go at `instant`. */
export function isInsideWindow(instant: Date, policy?: SendPolicy | ResolvedPolicy): boolean {
  const p = resolvePolicy(policy);
  const wall = wallTimeOf(instant, p.timeZone);
  const w = p.windowOn(wall);
  const now = minutesOfDay(wall, instant.getTime());
  return w !== null && now >= w.from && now < w.to;
}

/** Days ahead nextAllowed looks before concluding a profile never opens (over two years of holidays). */
const SEARCH_DAYS = 800;

/**
 * The first instant at or after `instant` when a commercial message may go: `instant` itself when
 * inside the window, otherwise the opening of the next open day (skipping closed days, holidays,
 * runs of holidays and year ends).
 */
export function nextAllowed(instant: Date, policy?: SendPolicy | ResolvedPolicy): Date {
  const p = resolvePolicy(policy);
  const wall = wallTimeOf(instant, p.timeZone);
  const today: CalendarDate = { year: wall.year, month: wall.month, day: wall.day };
  const now = minutesOfDay(wall, instant.getTime());
  const w = p.windowOn(today);
  if (w && now < w.to) return now >= w.from ? instant : instantAtMinutes(today, w.from, p.timeZone);
  for (let i = 1; i <= SEARCH_DAYS; i++) {
    const day = addDays(today, i);
    const dw = p.windowOn(day);
    if (dw) return instantAtMinutes(day, dw.from, p.timeZone);
  }
  throw new SendWindowError(`no send window in the ${SEARCH_DAYS} days after ${instant.toISOString()}`);
}

/** Why a commercial message is held at `instant` (null when it may go). */
function holdReason(instant: Date, p: ResolvedPolicy): HoldReason | null {
  const wall = wallTimeOf(instant, p.timeZone);
  const w = p.windowOn(wall);
  const now = minutesOfDay(wall, instant.getTime());
  // Closed: say "holiday" only when the holiday is what closes an otherwise open day.
  if (w === null) return p.isHoliday(wall) && usualWindow(p.profile, weekdayOf(wall)) !== null ? 'holiday' : 'closedDay';
  if (now < w.from) return 'beforeHours';
  if (now >= w.to) return 'afterHours';
  return null;
}

/**
 * The engine's question before a message goes: send now, or hold until `at`.
 * Transactional and OTP messages always go (exempt from Ley 2300); commercial ones follow the window.
 */
export function decide(instant: Date, kind: MessagePurpose, policy?: SendPolicy | ResolvedPolicy): SendDecision {
  if (kind !== 'commercial') return { send: true, at: instant };
  const p = resolvePolicy(policy);
  const reason = holdReason(instant, p);
  return reason === null ? { send: true, at: instant } : { send: false, at: nextAllowed(instant, p), reason };
}

/** When a launch at `instant` really goes, and why not at `instant` (holidays named). */
export interface SendMoment {
  at: Date;
  /** null: it goes at `instant`. */
  reason: HoldReason | null;
  /** The holidays that close the day when the reason is 'holiday' (two may coincide), else []. */
  holidays: HolidayId[];
}

/**
 * What a screen promises before a launch: the first instant its messages may leave (decide's),
 * why that is later than asked, and which holiday closes the day, so the promise is the engine's.
 */
export function sendMoment(instant: Date, kind: MessagePurpose, policy?: SendPolicy | ResolvedPolicy): SendMoment {
  const p = resolvePolicy(policy);
  const d = decide(instant, kind, p);
  if (d.send) return { at: d.at, reason: null, holidays: [] };
  if (d.reason !== 'holiday') return { at: d.at, reason: d.reason, holidays: [] };
  const day = formatYmd(calendarDateOf(instant, p.timeZone));
  const holidays = holidayCalendar(Number(day.slice(0, 4)), p.holidayOptions).find((h) => h.date === day)?.ids ?? [];
  return { at: d.at, reason: d.reason, holidays };
}

/** When the window open at `instant` closes, or null when `instant` is outside any window. */
export function windowCloses(instant: Date, policy?: SendPolicy | ResolvedPolicy): Date | null {
  const p = resolvePolicy(policy);
  if (!isInsideWindow(instant, p)) return null;
  const wall = wallTimeOf(instant, p.timeZone);
  return instantAtMinutes(wall, p.windowOn(wall)!.to, p.timeZone);
}

export interface SendSummary {
  total: number;
  /** Messages that go at their planned time (now, or their scheduled instant). */
  onTime: number;
  /** Messages held by the window. */
  held: number;
  /** When held messages are released, earliest first, with how many each time. */
  releases: Array<{ at: Date; count: number }>;
}

export interface SummaryOptions {
  kind?: MessagePurpose;
  /**
   * For a count: messages per second the dispatch sustains. With it, the messages that cannot
   * leave before the window closes are counted as held; without it all are planned for `now`.
   */
  ratePerSecond?: number;
}

/**
 * What the campaign screen says before launch: "N go now, M wait until <instant>".
 * `plan` is either the planned instant of each message (a past instant means now) or a count of
 * messages all planned for `now`.
 */
export function summarize(plan: readonly Date[] | number, now: Date, policy?: SendPolicy | ResolvedPolicy, options: SummaryOptions = {}): SendSummary {
  const kind = options.kind ?? 'commercial';
  const p = resolvePolicy(policy);
  if (typeof plan === 'number') return summarizeCount(plan, now, p, kind, options.ratePerSecond);
  const releases = new Map<number, number>();
  let onTime = 0;
  // Schedules repeat the same few instants: decide each distinct one once.
  const memo = new Map<number, number | null>();
  for (const planned of plan) {
    const t = Math.max(planned.getTime(), now.getTime());
    let release = memo.get(t);
    if (release === undefined) {
      const d = decide(new Date(t), kind, p);
      release = d.send ? null : d.at.getTime();
      memo.set(t, release);
    }
    if (release === null) onTime++;
    else releases.set(release, (releases.get(release) ?? 0) + 1);
  }
  return finish(plan.length, onTime, releases);
}

function summarizeCount(count: number, now: Date, p: ResolvedPolicy, kind: MessagePurpose, rate?: number): SendSummary {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`summarize: a message count is a whole number ≥ 0, not ${count}`);
  if (rate !== undefined && !(rate > 0)) throw new RangeError(`summarize: ratePerSecond must be > 0, not ${rate}`);
  const releases = new Map<number, number>();
  const d = decide(now, kind, p);
  if (!d.send) {
    if (count > 0) releases.set(d.at.getTime(), count);
    return finish(count, 0, releases);
  }
  const closes = kind === 'commercial' && rate !== undefined ? windowCloses(now, p) : null;
  if (!closes) return finish(count, count, releases);
  const fit = Math.min(count, Math.floor(((closes.getTime() - now.getTime()) / 1000) * rate!));
  if (count > fit) releases.set(nextAllowed(closes, p).getTime(), count - fit);
  return finish(count, fit, releases);
}

function finish(total: number, onTime: number, releases: Map<number, number>): SendSummary {
  return {
    total,
    onTime,
    held: total - onTime,
    releases: [...releases].sort(([a], [b]) => a - b).map(([at, count]) => ({ at: new Date(at), count })),
  };
}
