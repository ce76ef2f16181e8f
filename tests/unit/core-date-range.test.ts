// src/core/date-range.ts: calendar dates in a time zone and the "up to today" range rule.
import { describe, expect, it } from 'vitest';
import { calendarDate, dateRangeProblem, dayAfter, dayStart } from '../../src/core/date-range.ts';

describe('calendarDate', () => {
  it.each([
    ['2025-03-01T04:59:59Z', '2025-02-28'], // still the evening before in Bogotá (UTC-5)
    ['2025-03-01T05:00:00Z', '2025-03-01'],
    ['2024-12-31T23:00:00Z', '2024-12-31'],
  ])('%s in America/Bogota is %s', (instant, want) => {
    expect(calendarDate(new Date(instant), 'America/Bogota')).toBe(want);
  });
});

describe('dateRangeProblem', () => {
  const today = '2025-03-10';
  it.each([
    [{}, null],
    [{ start: '2025-03-01' }, null],
    [{ end: '2025-03-10' }, null],
    [{ start: '2025-03-01', end: '2025-03-10' }, null],
    [{ start: '2025-03-05', end: '2025-03-05' }, null], // one day
    [{ start: '2025-03-05', end: '2025-03-04' }, 'endBeforeStart'],
    [{ start: '2025-03-11' }, 'afterToday'],
    [{ end: '2025-03-11' }, 'afterToday'],
    [{ start: '2025-03-12', end: '2025-03-11' }, 'afterToday'],
  ] as const)('%j -> %s', (range, want) => {
    expect(dateRangeProblem(range, today)).toBe(want);
  });
});

describe('dayStart / dayAfter', () => {
  it('bound a Bogotá day at 05:00 UTC, the last day included whole', () => {
    expect(dayStart('2026-03-08', 'America/Bogota').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(dayAfter('2026-12-31', 'America/Bogota').toISOString()).toBe('2027-01-01T05:00:00.000Z');
  });

  it('follow the zone\'s rules, not a fixed offset (a 23-hour day where clocks go forward)', () => {
    const from = dayStart('2026-03-08', 'America/New_York');
    const to = dayAfter('2026-03-08', 'America/New_York');
    expect(from.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(to.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect((to.getTime() - from.getTime()) / 3_600_000).toBe(23);
  });
});
