// src/core/recurrence.ts: campaign repetition (spec §3: every N days/weeks/months/years, starts,
// ends, expires) on the wall clock of the rule's zone.
import { describe, expect, it } from 'vitest';
import {
  MAX_OCCURRENCES, RecurrenceError, isExpired, nextRun, nextRuns, occurrences, recurrenceProblems, type RecurrenceRule,
} from '../../src/core/recurrence.ts';

/** Bogotá wall time "YYYY-MM-DDTHH:MM" as an instant (UTC−5). */
const bog = (s: string) => new Date(`${s}:00-05:00`);
const isos = (ds: Date[]) => ds.map((d) => d.toISOString());
const EPOCH = new Date('2000-01-01T00:00:00Z');

describe('nextRuns: the calendar of each unit', () => {
  it.each<[string, RecurrenceRule, string[]]>([
    ['daily at 09:00', { every: 1, unit: 'day', starts: '2026-01-30T09:00' }, ['2026-01-30T09:00', '2026-01-31T09:00', '2026-02-01T09:00', '2026-02-02T09:00']],
    ['every 3 days', { every: 3, unit: 'day', starts: '2026-12-29T18:30' }, ['2026-12-29T18:30', '2027-01-01T18:30', '2027-01-04T18:30', '2027-01-07T18:30']],
    ['every 2 weeks', { every: 2, unit: 'week', starts: '2026-01-05T08:00' }, ['2026-01-05T08:00', '2026-01-19T08:00', '2026-02-02T08:00', '2026-02-16T08:00']],
    // Month ends anchor on the start day: 31 → 29 (leap) → 31 → 30 → 31, no drift to the 28th.
    ['monthly from 31 Jan 2024', { every: 1, unit: 'month', starts: '2024-01-31T09:00' }, ['2024-01-31T09:00', '2024-02-29T09:00', '2024-03-31T09:00', '2024-04-30T09:00']],
    ['monthly from 31 Jan 2026', { every: 1, unit: 'month', starts: '2026-01-31T09:00' }, ['2026-01-31T09:00', '2026-02-28T09:00', '2026-03-31T09:00', '2026-04-30T09:00']],
    ['every 5 months', { every: 5, unit: 'month', starts: '2026-10-31T07:15' }, ['2026-10-31T07:15', '2027-03-31T07:15', '2027-08-31T07:15', '2028-01-31T07:15']],
    ['yearly from 29 Feb', { every: 1, unit: 'year', starts: '2024-02-29T10:00' }, ['2024-02-29T10:00', '2025-02-28T10:00', '2026-02-28T10:00', '2027-02-28T10:00', '2028-02-29T10:00']],
    ['every 2 years', { every: 2, unit: 'year', starts: '2025-12-31T23:59' }, ['2025-12-31T23:59', '2027-12-31T23:59', '2029-12-31T23:59']],
  ])('%s', (_label, rule, want) => {
    expect(isos(nextRuns(rule, EPOCH, want.length))).toEqual(isos(want.map(bog)));
  });

  it('starts given as an instant keep its Bogotá wall time', () => {
    const rule: RecurrenceRule = { every: 1, unit: 'month', starts: new Date('2026-01-31T14:00:00Z') }; // 09:00 Bogotá
    expect(isos(nextRuns(rule, EPOCH, 2))).toEqual(isos([bog('2026-01-31T09:00'), bog('2026-02-28T09:00')]));
  });
});

describe('nextRuns: after, limit, ends and expires', () => {
  const daily: RecurrenceRule = { every: 1, unit: 'day', starts: '2026-01-01T09:00' };
  it.each<[string, RecurrenceRule, Date, number, string[]]>([
    ['strictly after a run', daily, bog('2026-01-05T09:00'), 2, ['2026-01-06T09:00', '2026-01-07T09:00']],
    ['just before a run', daily, bog('2026-01-05T08:59'), 1, ['2026-01-05T09:00']],
    ['far in the future (jumps, does not walk)', daily, bog('2126-01-05T10:00'), 1, ['2126-01-06T09:00']],
    ['monthly far ahead', { every: 1, unit: 'month', starts: '2026-01-31T09:00' }, bog('2100-02-01T00:00'), 2, ['2100-02-28T09:00', '2100-03-31T09:00']],
    ['limit 0', daily, EPOCH, 0, []],
    // ends is the last day a run may happen, inclusive.
    ['ends on a date: that day still runs', { ...daily, ends: '2026-01-03' }, EPOCH, 10, ['2026-01-01T09:00', '2026-01-02T09:00', '2026-01-03T09:00']],
    ['ends at an exact run time: it runs', { ...daily, ends: '2026-01-02T09:00' }, EPOCH, 10, ['2026-01-01T09:00', '2026-01-02T09:00']],
    ['ends a minute before a run', { ...daily, ends: '2026-01-02T08:59' }, EPOCH, 10, ['2026-01-01T09:00']],
    // expires: nothing at or after it; a date alone expires at the end of that day.
    ['expires at an exact run time: it does not run', { ...daily, expires: '2026-01-03T09:00' }, EPOCH, 10, ['2026-01-01T09:00', '2026-01-02T09:00']],
    ['expires on a date: that day still runs', { ...daily, expires: '2026-01-02' }, EPOCH, 10, ['2026-01-01T09:00', '2026-01-02T09:00']],
    ['expires as an instant', { ...daily, expires: new Date('2026-01-02T14:00:01Z') }, EPOCH, 10, ['2026-01-01T09:00', '2026-01-02T09:00']],
    ['the earlier of ends and expires wins', { ...daily, ends: '2026-01-05', expires: '2026-01-01' }, EPOCH, 10, ['2026-01-01T09:00']],
    ['after the end: nothing', { ...daily, ends: '2026-01-03' }, bog('2026-01-03T09:00'), 10, []],
  ])('%s', (_label, rule, after, limit, want) => {
    expect(isos(nextRuns(rule, after, limit))).toEqual(isos(want.map(bog)));
  });

  it('nextRun answers null once the campaign has ended', () => {
    const rule: RecurrenceRule = { ...daily, ends: '2026-01-02' };
    expect(nextRun(rule, bog('2026-01-01T12:00'))?.toISOString()).toBe(bog('2026-01-02T09:00').toISOString());
    expect(nextRun(rule, bog('2026-01-02T12:00'))).toBeNull();
  });
});

describe('occurrences(rule, from, to): from ≤ run < to', () => {
  const weekly: RecurrenceRule = { every: 1, unit: 'week', starts: '2026-01-05T08:00' };
  it.each<[string, RecurrenceRule, string, string, string[]]>([
    ['a month of Mondays', weekly, '2026-02-01T00:00', '2026-03-01T00:00', ['2026-02-02T08:00', '2026-02-09T08:00', '2026-02-16T08:00', '2026-02-23T08:00']],
    ['from is inclusive', weekly, '2026-01-12T08:00', '2026-01-19T08:00', ['2026-01-12T08:00']],
    ['before the start', weekly, '2025-01-01T00:00', '2026-01-13T00:00', ['2026-01-05T08:00', '2026-01-12T08:00']],
    ['an empty range', weekly, '2026-01-06T00:00', '2026-01-12T07:59', []],
  ])('%s', (_label, rule, from, to, want) => {
    expect(isos(occurrences(rule, bog(from), bog(to)))).toEqual(isos(want.map(bog)));
  });

  it('a year of daily runs is 365 runs at 09:00 Bogotá (14:00Z) every day', () => {
    const runs = occurrences({ every: 1, unit: 'day', starts: '2026-01-01T09:00' }, bog('2026-01-01T00:00'), bog('2027-01-01T00:00'));
    expect(runs).toHaveLength(365);
    expect(runs.every((r) => r.getUTCHours() === 14 && r.getUTCMinutes() === 0)).toBe(true);
  });

  it('refuses a range with more runs than MAX_OCCURRENCES, and lists one with exactly that many', () => {
    const daily: RecurrenceRule = { every: 1, unit: 'day', starts: '2026-01-01T09:00' };
    const last = nextRuns(daily, EPOCH, MAX_OCCURRENCES).at(-1)!;
    expect(occurrences(daily, EPOCH, new Date(last.getTime() + 1))).toHaveLength(MAX_OCCURRENCES);
    expect(() => occurrences(daily, EPOCH, new Date(last.getTime() + 86_400_000 + 1))).toThrow(/more than/);
  });
});

describe('a zone with daylight saving keeps the wall-clock hour', () => {
  const ny = (s: string) => s; // readability: the wall times below are New York's
  it.each<[string, RecurrenceRule, string[]]>([
    // Spring forward on 2026-03-08: 09:00 EST is 14:00Z, 09:00 EDT is 13:00Z.
    ['daily 09:00 across March', { every: 1, unit: 'day', starts: ny('2026-03-07T09:00'), timeZone: 'America/New_York' }, ['2026-03-07T14:00:00.000Z', '2026-03-08T13:00:00.000Z', '2026-03-09T13:00:00.000Z']],
    // Fall back on 2026-11-01.
    ['daily 09:00 across November', { every: 1, unit: 'day', starts: ny('2026-10-31T09:00'), timeZone: 'America/New_York' }, ['2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z', '2026-11-02T14:00:00.000Z']],
    // 02:30 does not exist on 2026-03-08: that run moves to 03:00 EDT (07:00Z); the next day is 02:30 again.
    ['daily 02:30 through the gap', { every: 1, unit: 'day', starts: ny('2026-03-07T02:30'), timeZone: 'America/New_York' }, ['2026-03-07T07:30:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']],
    // 01:30 happens twice on 2026-11-01: the first (EDT, 05:30Z).
    ['daily 01:30 through the overlap', { every: 1, unit: 'day', starts: ny('2026-10-31T01:30'), timeZone: 'America/New_York' }, ['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']],
    ['weekly 09:00 in Bogotá never shifts', { every: 1, unit: 'week', starts: '2026-03-01T09:00' }, ['2026-03-01T14:00:00.000Z', '2026-03-08T14:00:00.000Z', '2026-03-15T14:00:00.000Z']],
  ])('%s', (_label, rule, want) => {
    expect(isos(nextRuns(rule, EPOCH, want.length))).toEqual(want);
  });

  it('finds the next run after an instant inside the overlap', () => {
    const rule: RecurrenceRule = { every: 1, unit: 'day', starts: '2026-10-30T01:30', timeZone: 'America/New_York' };
    // After the first 01:30 of 1 November, the next run is on 2 November, not the repeated 01:30.
    expect(nextRun(rule, new Date('2026-11-01T05:30:00Z'))?.toISOString()).toBe('2026-11-02T06:30:00.000Z');
  });
});

describe('recurrenceProblems', () => {
  const ok: RecurrenceRule = { every: 1, unit: 'day', starts: '2026-01-01T09:00' };
  it.each<[string, RecurrenceRule, string[]]>([
    ['a good rule', ok, []],
    ['every 0', { ...ok, every: 0 }, ['invalidEvery']],
    ['every 1.5', { ...ok, every: 1.5 }, ['invalidEvery']],
    ['every 1001', { ...ok, every: 1001 }, ['invalidEvery']],
    ['an unknown unit', { ...ok, unit: 'hour' as never }, ['invalidUnit']],
    ['starts without a time', { ...ok, starts: '2026-01-01' }, ['invalidStarts']],
    ['starts on 30 February', { ...ok, starts: '2026-02-30T09:00' }, ['invalidStarts']],
    ['starts at 24:00', { ...ok, starts: '2026-01-01T24:00' }, ['invalidStarts']],
    ['starts as an invalid Date', { ...ok, starts: new Date(NaN) }, ['invalidStarts']],
    ['starts with an offset (an instant) is fine', { ...ok, starts: '2026-01-01T14:00:00Z' }, []],
    ['ends before starts', { ...ok, ends: '2025-12-31' }, ['endsBeforeStarts']],
    ['ends on the start day is fine', { ...ok, ends: '2026-01-01' }, []],
    ['expires at the start', { ...ok, expires: '2026-01-01T09:00' }, ['expiresBeforeStarts']],
    ['ends garbled', { ...ok, ends: 'next friday' }, ['invalidEnds']],
    ['expires garbled', { ...ok, expires: '2026-13-01' }, ['invalidExpires']],
    ['an unknown zone', { ...ok, timeZone: 'America/Medellin' }, ['invalidTimeZone']],
  ])('%s → %j', (_label, rule, want) => {
    expect(recurrenceProblems(rule)).toEqual(want);
  });

  it('nextRuns and occurrences refuse an invalid rule with its problems', () => {
    const bad = { ...ok, every: 0, ends: 'x' };
    expect(() => nextRuns(bad, EPOCH, 1)).toThrow(RecurrenceError);
    try {
      occurrences(bad, EPOCH, new Date());
    } catch (e) {
      expect((e as RecurrenceError).problems).toEqual(['invalidEvery', 'invalidEnds']);
    }
    expect.assertions(2);
  });
});

describe('isExpired', () => {
  const rule: RecurrenceRule = { every: 1, unit: 'day', starts: '2026-01-01T09:00', expires: '2026-06-30' };
  it.each([
    ['2026-06-30T23:59', false], // "vence el 30 de junio": still valid that day
    ['2026-07-01T00:00', true],
  ])('%s → %s', (now, want) => {
    expect(isExpired(rule, bog(now))).toBe(want);
  });

  it('a rule without expires never expires', () => {
    expect(isExpired({ every: 1, unit: 'day', starts: '2026-01-01T09:00' }, new Date('9999-01-01T00:00:00Z'))).toBe(false);
  });
});
