// src/core/bogota-time.ts: wall-clock time in a named zone, both ways, independent of the
// process's TZ, with the DST rules (first occurrence of a repeated time, a skipped time moves to
// the end of the gap) for zones other than Bogotá.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  addDays, dayNumber, daysInMonth, instantOf, isKnownTimeZone, parseHm, parseYmd, wallTimeOf, weekdayOf,
} from '../../src/core/bogota-time.ts';

const wall = (s: string) => {
  const [d, t] = s.split('T');
  const [hour, minute, second = 0] = t.split(':').map(Number);
  return { ...parseYmd(d), hour, minute, second };
};

describe('wallTimeOf', () => {
  it.each([
    ['2026-01-10T00:00:00Z', 'America/Bogota', '2026-01-09T19:00:00', 5], // Friday evening in Bogotá
    ['2026-01-01T04:59:59Z', 'America/Bogota', '2025-12-31T23:59:59', 3],
    ['2026-07-01T12:00:00Z', 'America/Bogota', '2026-07-01T07:00:00', 3], // no DST: still UTC−5 in July
    ['2026-07-01T12:00:00Z', 'America/New_York', '2026-07-01T08:00:00', 3], // EDT
    ['2026-01-01T12:00:00Z', 'Asia/Tokyo', '2026-01-01T21:00:00', 4],
  ])('%s in %s is %s (weekday %i)', (instant, zone, want, weekday) => {
    const w = wallTimeOf(new Date(instant), zone);
    expect(w).toEqual({ ...wall(want), weekday });
  });
});

describe('instantOf', () => {
  it.each([
    ['2026-01-09T19:00:00', 'America/Bogota', '2026-01-10T00:00:00.000Z'],
    ['2026-03-08T09:00:00', 'America/New_York', '2026-03-08T13:00:00.000Z'], // after spring forward: EDT
    ['2026-03-07T09:00:00', 'America/New_York', '2026-03-07T14:00:00.000Z'],
    // 02:30 does not exist on 2026-03-08 in New York: the first instant after the gap, 03:00 EDT.
    ['2026-03-08T02:30:00', 'America/New_York', '2026-03-08T07:00:00.000Z'],
    ['2026-03-08T03:00:00', 'America/New_York', '2026-03-08T07:00:00.000Z'],
    // 01:30 happens twice on 2026-11-01: the first one (EDT).
    ['2026-11-01T01:30:00', 'America/New_York', '2026-11-01T05:30:00.000Z'],
    ['2026-11-01T02:00:00', 'America/New_York', '2026-11-01T07:00:00.000Z'],
  ])('%s in %s is %s', (w, zone, want) => {
    expect(instantOf(wall(w), zone).toISOString()).toBe(want);
  });

  it('round-trips every hour of a year in Bogotá', () => {
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 3_600_000) {
      const w = wallTimeOf(new Date(t), 'America/Bogota');
      expect(instantOf(w, 'America/Bogota').getTime()).toBe(t);
      expect(t - Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)).toBe(5 * 3_600_000);
    }
  });

  it('refuses an unknown zone', () => {
    expect(() => instantOf(wall('2026-01-01T00:00:00'), 'America/Medellin')).toThrow(RangeError);
    expect(isKnownTimeZone('America/Medellin')).toBe(false);
    expect(isKnownTimeZone('America/Bogota')).toBe(true);
  });
});

describe('calendar helpers', () => {
  it.each([
    ['2026-01-12', 1], ['2026-01-10', 6], ['2026-01-11', 0], ['2024-02-29', 4], ['1970-01-01', 4], ['1969-12-31', 3],
  ])('weekday of %s is %i', (ymd, want) => {
    expect(weekdayOf(parseYmd(ymd))).toBe(want);
  });

  it.each([
    ['2026-12-31', 1, '2027-01-01'], ['2024-02-28', 1, '2024-02-29'], ['2025-02-28', 1, '2025-03-01'], ['2026-03-01', -1, '2026-02-28'],
  ])('%s + %i day(s) is %s', (ymd, n, want) => {
    expect(addDays(parseYmd(ymd), n)).toEqual(parseYmd(want));
    expect(dayNumber(parseYmd(want)) - dayNumber(parseYmd(ymd))).toBe(n);
  });

  it.each([[2024, 2, 29], [2025, 2, 28], [1900, 2, 28], [2000, 2, 29], [2026, 4, 30], [2026, 12, 31]])('%i-%i has %i days', (y, m, want) => {
    expect(daysInMonth(y, m)).toBe(want);
  });

  it.each(['2026-02-29', '2026-13-01', '2026-1-1', 'mañana'])('parseYmd refuses %j', (ymd) => {
    expect(() => parseYmd(ymd)).toThrow(RangeError);
  });

  it.each([['07:00', 420], ['00:00', 0], ['24:00', 1440], ['19:30', 1170]])('parseHm(%s) = %i', (hm, want) => {
    expect(parseHm(hm)).toBe(want);
  });

  it.each(['7:00', '24:01', '12:60', '25:00'])('parseHm refuses %s', (hm) => {
    expect(() => parseHm(hm)).toThrow(RangeError);
  });
});

describe('independent of the process time zone', () => {
  it.each(['America/New_York', 'Asia/Tokyo', 'UTC'])('TZ=%s gives the same answers', (tz) => {
    const script = `
      const { wallTimeOf, instantOf } = await import('./src/core/bogota-time.ts');
      const w = wallTimeOf(new Date('2026-03-08T07:30:00Z'));
      const back = instantOf({ year: 2026, month: 1, day: 9, hour: 19, minute: 0, second: 0 });
      console.log(JSON.stringify({ w, back, offset: new Date().getTimezoneOffset() }));`;
    const out = JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, TZ: tz }, cwd: process.cwd(), encoding: 'utf8' }),
    );
    expect(out.w).toEqual({ ...wall('2026-03-08T02:30:00'), weekday: 0 });
    expect(out.back).toBe('2026-01-10T00:00:00.000Z');
    // The child really ran in another zone (UTC has offset 0, the others do not).
    expect(out.offset === 0).toBe(tz === 'UTC');
  });
});
