// src/core/colombian-holidays.ts: Ley 51 de 1983 (Emiliani) and the Easter-based holidays.
// Expected lists: research/protocols.md §6 for 2026 (colombian-holidays@5.0.11), and the official
// calendars for 2024, 2025 and 2027. While writing this module its output was also compared with
// colombian-holidays@5.0.11 for every year 1984–2150 (deduplicated by date): no difference.
import { describe, expect, it } from 'vitest';
import { easterSunday, holidayCalendar, holidaysOf, isHoliday } from '../../src/core/colombian-holidays.ts';

const YEARS: Record<number, string[]> = {
  // research §6: 18 dates.
  2026: ['01-01', '01-12', '03-23', '04-02', '04-03', '05-01', '05-18', '06-08', '06-15', '06-29', '07-20', '08-07', '08-17', '10-12', '11-02', '11-16', '12-08', '12-25'],
  // 17 dates: Sagrado Corazón and San Pedro y San Pablo both fall on 06-30 (research §0.8).
  2025: ['01-01', '01-06', '03-24', '04-17', '04-18', '05-01', '06-02', '06-23', '06-30', '07-20', '08-07', '08-18', '10-13', '11-03', '11-17', '12-08', '12-25'],
  2024: ['01-01', '01-08', '03-25', '03-28', '03-29', '05-01', '05-13', '06-03', '06-10', '07-01', '07-20', '08-07', '08-19', '10-14', '11-04', '11-11', '12-08', '12-25'],
  2027: ['01-01', '01-11', '03-22', '03-25', '03-26', '05-01', '05-10', '05-31', '06-07', '07-05', '07-20', '08-07', '08-16', '10-18', '11-01', '11-15', '12-08', '12-25'],
};

describe('holidaysOf', () => {
  it.each(Object.entries(YEARS))('%s', (year, dates) => {
    expect(holidaysOf(Number(year))).toEqual(dates.map((d) => `${year}-${d}`));
  });

  it('merges two holidays on one date and keeps both names (2025-06-30)', () => {
    const june30 = holidayCalendar(2025).find((h) => h.date === '2025-06-30');
    expect(june30?.ids.sort()).toEqual(['sagradoCorazon', 'sanPedroYSanPablo']);
  });

  it.each([
    [1983, RangeError], // before Ley 51 de 1983 took effect
    [2026.5, RangeError],
    [10000, RangeError],
  ])('refuses year %s', (year, error) => {
    expect(() => holidaysOf(year)).toThrow(error);
  });
});

describe('easterSunday (Gregorian computus)', () => {
  it.each([
    [1984, '04-22'], [2000, '04-23'], [2008, '03-23'], [2011, '04-24'], [2019, '04-21'],
    [2024, '03-31'], [2025, '04-20'], [2026, '04-05'], [2027, '03-28'], [2038, '04-25'], [2285, '03-22'],
  ])('%i → %s', (year, want) => {
    const e = easterSunday(year);
    expect(`${String(e.month).padStart(2, '0')}-${String(e.day).padStart(2, '0')}`).toBe(want);
  });
});

describe('Emiliani moves', () => {
  it.each([
    // [year, holiday, observed date]
    [2026, 'reyesMagos', '2026-01-12'], // 6 Jan 2026 is a Tuesday
    [2025, 'reyesMagos', '2025-01-06'], // already a Monday: stays
    [2026, 'todosLosSantos', '2026-11-02'], // a Sunday moves to the next day
    [2026, 'asuncion', '2026-08-17'], // a Saturday moves two days
    [2026, 'ascension', '2026-05-18'], // Easter + 43
    [2026, 'corpusChristi', '2026-06-08'], // Easter + 64
    [2026, 'sagradoCorazon', '2026-06-15'], // Easter + 71
    [2026, 'viernesSanto', '2026-04-03'], // not moved
    [2021, 'independencia', '2021-07-20'], // fixed dates never move, even on a Tuesday
  ] as const)('%i %s → %s', (year, id, date) => {
    expect(holidayCalendar(year).find((h) => h.ids.includes(id))?.date).toBe(date);
  });
});

describe('configuration: the contested holiday and corrections', () => {
  it('La Virgen de Chiquinquirá is off by default and on when configured, only from 2026', () => {
    expect(isHoliday('2026-07-13')).toBe(false);
    expect(isHoliday('2026-07-13', { virgenDeChiquinquira: true })).toBe(true);
    expect(holidaysOf(2026, { virgenDeChiquinquira: true })).toHaveLength(19);
    expect(holidaysOf(2027, { virgenDeChiquinquira: true })).toContain('2027-07-12'); // 9 July 2027 is a Friday
    expect(holidaysOf(2025, { virgenDeChiquinquira: true })).toEqual(holidaysOf(2025));
  });

  it.each([
    [{ extra: ['2026-03-09'] }, '2026-03-09', true], // e.g. an election-day decree
    [{ extra: ['2027-03-09'] }, '2026-03-09', false], // another year's extra date does not leak
    [{ removed: ['2026-01-12'] }, '2026-01-12', false],
    [{ removed: ['2026-01-12'] }, '2026-03-23', true],
    [{ extra: ['2026-12-24'], removed: ['2026-12-24'] }, '2026-12-24', false], // removal wins
  ])('%j: %s holiday = %s', (options, date, want) => {
    expect(isHoliday(date, options)).toBe(want);
  });

  it('an extra date on an existing holiday adds nothing', () => {
    expect(holidaysOf(2026, { extra: ['2026-12-25'] })).toEqual(holidaysOf(2026));
  });

  it('a malformed extra date is a clear error, not a silent no-op', () => {
    expect(() => holidaysOf(2026, { extra: ['2026-02-30'] })).toThrow(/no such date/);
    expect(() => holidaysOf(2026, { extra: ['12/25/2026'] })).toThrow(/YYYY-MM-DD/);
    expect(() => holidaysOf(2026, { removed: ['2026-1-12'] })).toThrow(/YYYY-MM-DD/);
  });
});

describe('isHoliday', () => {
  it.each([
    ['2026-01-01', true],
    ['2026-01-06', false], // moved to the 12th
    ['2026-01-12', true],
    ['2026-04-05', false], // Easter Sunday is a Sunday, not a public holiday
    ['2025-06-30', true],
    ['2026-12-24', false],
  ])('%s → %s', (date, want) => {
    expect(isHoliday(date)).toBe(want);
    expect(isHoliday({ year: Number(date.slice(0, 4)), month: Number(date.slice(5, 7)), day: Number(date.slice(8)) })).toBe(want);
  });
});
