// Days as Bogotá counts them, for tests that move the clock to a given weekday, built on the
// product's own calendar (src/core/bogota-time.ts). From 19:00 in Bogotá the UTC date is already
// tomorrow: a Sunday taken from Bogotá's weekday and the UTC date was a Monday whenever the suite
// ran in the evening.
import { addDays, calendarDateOf, instantAtMinutes, weekdayOf } from '../../src/core/bogota-time.ts';

/** The next Sunday (never today) at 10:00 in Bogotá: no commercial message may leave (Ley 2300). */
export function nextBogotaSunday(now: Date): Date {
  const today = calendarDateOf(now);
  return instantAtMinutes(addDays(today, (7 - weekdayOf(today)) % 7 || 7), 10 * 60);
}
