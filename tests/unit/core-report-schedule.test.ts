// When a scheduled report runs and what each run covers (src/core/report-schedule.ts), in Bogotá
// (UTC-5, no DST): the five frequencies, short months, and consecutive runs tiling time.
import { describe, expect, it } from 'vitest';
import { instantOf } from '../../src/core/bogota-time.ts';
import { nextOccurrence, previousOccurrence, type ScheduleRule } from '../../src/core/report-schedule.ts';

const at = (year: number, month: number, day: number, hour = 0, minute = 0) => instantOf({ year, month, day, hour, minute, second: 0 });

describe('nextOccurrence', () => {
  it('hourly at the top of the next hour, daily at the hour, strictly after', () => {
    expect(nextOccurrence({ frequency: 'hourly', day: null, hour: 0 }, at(2026, 11, 26, 10, 15))).toEqual(at(2026, 11, 26, 11));
    expect(nextOccurrence({ frequency: 'hourly', day: null, hour: 0 }, at(2026, 11, 26, 11))).toEqual(at(2026, 11, 26, 12));
    expect(nextOccurrence({ frequency: 'daily', day: null, hour: 6 }, at(2026, 11, 26, 5, 59))).toEqual(at(2026, 11, 26, 6));
    expect(nextOccurrence({ frequency: 'daily', day: null, hour: 6 }, at(2026, 11, 26, 6))).toEqual(at(2026, 11, 27, 6));
    // 06:00 in Bogotá is 11:00 UTC.
    expect(nextOccurrence({ frequency: 'daily', day: null, hour: 6 }, at(2026, 11, 26, 7)).toISOString()).toBe('2026-11-27T11:00:00.000Z');
  });

  it('weekly on its weekday (1 Monday … 7 Sunday)', () => {
    // 2026-11-26 is a Thursday.
    expect(nextOccurrence({ frequency: 'weekly', day: 1, hour: 8 }, at(2026, 11, 26, 12))).toEqual(at(2026, 11, 30, 8));
    expect(nextOccurrence({ frequency: 'weekly', day: 4, hour: 8 }, at(2026, 11, 26, 7))).toEqual(at(2026, 11, 26, 8));
    expect(nextOccurrence({ frequency: 'weekly', day: 7, hour: 8 }, at(2026, 11, 26, 7))).toEqual(at(2026, 11, 29, 8));
  });

  it('monthly on its day, the last day of a shorter month; yearly on its day of January', () => {
    const monthly31: ScheduleRule = { frequency: 'monthly', day: 31, hour: 0 };
    expect(nextOccurrence(monthly31, at(2027, 1, 31, 1))).toEqual(at(2027, 2, 28));
    expect(nextOccurrence(monthly31, at(2028, 2, 1))).toEqual(at(2028, 2, 29));
    expect(nextOccurrence(monthly31, at(2027, 4, 1))).toEqual(at(2027, 4, 30));
    expect(nextOccurrence({ frequency: 'yearly', day: 15, hour: 9 }, at(2026, 11, 26))).toEqual(at(2027, 1, 15, 9));
  });
});

describe('previousOccurrence', () => {
  it('is the run before, so each run covers the time since it', () => {
    expect(previousOccurrence({ frequency: 'monthly', day: 31, hour: 0 }, at(2027, 3, 31))).toEqual(at(2027, 2, 28));
    expect(previousOccurrence({ frequency: 'weekly', day: 1, hour: 8 }, at(2026, 11, 30, 8))).toEqual(at(2026, 11, 23, 8));
    expect(previousOccurrence({ frequency: 'hourly', day: null, hour: 0 }, at(2026, 11, 26, 11))).toEqual(at(2026, 11, 26, 10));
  });

  it('tiles time: every run\'s previous is the run before it, for every rule', () => {
    const rules: ScheduleRule[] = [
      { frequency: 'hourly', day: null, hour: 0 }, { frequency: 'daily', day: null, hour: 23 }, { frequency: 'weekly', day: 3, hour: 5 },
      { frequency: 'monthly', day: 30, hour: 12 }, { frequency: 'yearly', day: 31, hour: 1 },
    ];
    for (const rule of rules) {
      let run = nextOccurrence(rule, at(2026, 1, 1));
      for (let i = 0; i < 30; i += 1) {
        const following = nextOccurrence(rule, run);
        expect(previousOccurrence(rule, following), `${rule.frequency} after ${run.toISOString()}`).toEqual(run);
        expect(following.getTime()).toBeGreaterThan(run.getTime());
        run = following;
      }
    }
  });
});
