// Colombia's public holidays (festivos), computed for any year, for the send window
// (Ley 2300 de 2023: no commercial contact on holidays; research/protocols.md §0.5) and reports.
//
// The law:
// - Ley 51 de 1983 ("Ley Emiliani"), in force from 1984: six holidays stay on their date
//   (1 Jan, 1 May, 20 Jul, 7 Aug, 8 Dec, 25 Dec); seven move to the following Monday when they
//   do not fall on a Monday (6 Jan, 19 Mar, 29 Jun, 15 Aug, 12 Oct, 1 Nov, 11 Nov); of the
//   Easter-based ones Jueves and Viernes Santo stay, and Ascensión (Easter+39), Corpus Christi
//   (Easter+60) and Sagrado Corazón (Easter+68) move to the Monday after: Easter+43, +64, +71.
// - Two holidays can share a date (2025-06-30: Sagrado Corazón and San Pedro y San Pablo,
//   research §0.8): the list holds dates, so they are deduplicated and the names merged.
// - "La Virgen de Chiquinquirá" (9 July moved to Monday, from 2026) is contested: date-holidays@3.37
//   lists it citing "Ley 2578 de 2026", colombian-holidays@5.0.11 does not, and we could not confirm
//   the law. It is a configuration choice (constants.holidays.virgenDeChiquinquira), off by default.
// - An administrator corrects the table without code: constants.holidays.extra adds dates,
//   constants.holidays.removed takes dates out (both YYYY-MM-DD), and callers may pass the same
//   lists at run time (e.g. from the database) through HolidayOptions.
import { constants } from '../generated/constants.gen.ts';
import type { ColombianHoliday } from '../generated/enums.gen.ts';
import { addDays, formatYmd, parseYmd, weekdayOf, type CalendarDate } from './bogota-time.ts';

/** What a date celebrates: schemas/enums/colombian-holiday.yaml (a person reads its name). */
export type HolidayId = ColombianHoliday;

export interface Holiday {
  /** YYYY-MM-DD */
  date: string;
  /** Every holiday observed that day (more than one when two coincide). */
  ids: HolidayId[];
}

export interface HolidayOptions {
  /** Include the contested Virgen de Chiquinquirá holiday (from 2026). */
  virgenDeChiquinquira?: boolean;
  /** Dates to add (YYYY-MM-DD); only those of the requested year apply. */
  extra?: readonly string[];
  /** Dates to take out (YYYY-MM-DD), e.g. if a law changes before this code does. */
  removed?: readonly string[];
}

/** Ley 51 de 1983 took effect in 1984; earlier years followed other rules we do not model. */
export const FIRST_YEAR = 1984;
export const LAST_YEAR = 9999;

const configured = constants.holidays as { virgenDeChiquinquira: boolean; extra: readonly string[]; removed: readonly string[] };

/** The configured defaults: options a caller leaves out fall back to these. */
export const defaultHolidayOptions: Required<HolidayOptions> = {
  virgenDeChiquinquira: configured.virgenDeChiquinquira,
  extra: configured.extra,
  removed: configured.removed,
};

/** Easter Sunday (Gregorian computus, the anonymous algorithm of Meeus/Jones/Butcher). */
export function easterSunday(year: number): CalendarDate {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { year, month, day };
}

/** Ley 51 de 1983, art. 1: a holiday that does not fall on a Monday moves to the next Monday. */
function nextMonday(d: CalendarDate): CalendarDate {
  return addDays(d, (8 - weekdayOf(d)) % 7);
}

const FIXED: ReadonlyArray<[HolidayId, number, number]> = [
  ['anoNuevo', 1, 1], ['diaDelTrabajo', 5, 1], ['independencia', 7, 20],
  ['batallaDeBoyaca', 8, 7], ['inmaculadaConcepcion', 12, 8], ['navidad', 12, 25],
];
const MOVED_TO_MONDAY: ReadonlyArray<[HolidayId, number, number]> = [
  ['reyesMagos', 1, 6], ['sanJose', 3, 19], ['sanPedroYSanPablo', 6, 29], ['asuncion', 8, 15],
  ['diaDeLaRaza', 10, 12], ['todosLosSantos', 11, 1], ['independenciaDeCartagena', 11, 11],
];
/** Days after Easter Sunday; the last three already include the move to Monday. */
const EASTER_BASED: ReadonlyArray<[HolidayId, number]> = [
  ['juevesSanto', -3], ['viernesSanto', -2], ['ascension', 43], ['corpusChristi', 64], ['sagradoCorazon', 71],
];

const lawCache = new Map<string, Holiday[]>();

/** The holidays the law gives for a year (before configured corrections), sorted by date. */
function lawHolidays(year: number, chiquinquira: boolean): Holiday[] {
  const key = `${year}:${chiquinquira}`;
  const cached = lawCache.get(key);
  if (cached) return cached;
  const entries: Array<[HolidayId, CalendarDate]> = [
    ...FIXED.map(([id, month, day]): [HolidayId, CalendarDate] => [id, { year, month, day }]),
    ...MOVED_TO_MONDAY.map(([id, month, day]): [HolidayId, CalendarDate] => [id, nextMonday({ year, month, day })]),
    ...EASTER_BASED.map(([id, offset]): [HolidayId, CalendarDate] => [id, addDays(easterSunday(year), offset)]),
  ];
  if (chiquinquira && year >= 2026) entries.push(['virgenDeChiquinquira', nextMonday({ year, month: 7, day: 9 })]);
  const result = mergeByDate(entries.map(([id, d]) => ({ date: formatYmd(d), ids: [id] })));
  if (lawCache.size > 500) lawCache.clear();
  lawCache.set(key, result);
  return result;
}

function mergeByDate(list: Holiday[]): Holiday[] {
  const byDate = new Map<string, HolidayId[]>();
  for (const h of list) byDate.set(h.date, [...(byDate.get(h.date) ?? []), ...h.ids.filter((id) => !byDate.get(h.date)?.includes(id))]);
  return [...byDate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, ids]) => ({ date, ids }));
}

function checkYear(year: number): void {
  if (!Number.isInteger(year) || year < FIRST_YEAR || year > LAST_YEAR) {
    throw new RangeError(`Colombian holidays are computed for years ${FIRST_YEAR}–${LAST_YEAR} (Ley 51 de 1983), not ${year}`);
  }
}

/** A year's holidays with what each date celebrates, after the configured corrections. */
export function holidayCalendar(year: number, options: HolidayOptions = {}): Holiday[] {
  checkYear(year);
  const o = { ...defaultHolidayOptions, ...options };
  const removed = new Set(o.removed.map((ymd) => formatYmd(parseYmd(ymd)))); // a typo is an error, not a no-op
  const extra = o.extra.filter((ymd) => parseYmd(ymd).year === year).map((date): Holiday => ({ date, ids: ['extra'] }));
  return mergeByDate([...lawHolidays(year, o.virgenDeChiquinquira), ...extra]).filter((h) => !removed.has(h.date));
}

/** A year's holiday dates (YYYY-MM-DD, sorted, one entry per date). */
export function holidaysOf(year: number, options: HolidayOptions = {}): string[] {
  return holidayCalendar(year, options).map((h) => h.date);
}

/** Whether a date (YYYY-MM-DD or a calendar date) is a holiday in Colombia. */
export function isHoliday(date: string | CalendarDate, options: HolidayOptions = {}): boolean {
  const d = typeof date === 'string' ? parseYmd(date) : date;
  const ymd = formatYmd(d);
  return holidayCalendar(d.year, options).some((h) => h.date === ymd);
}
