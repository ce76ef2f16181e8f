// Days as Bogotá counts them (UTC-5, no daylight saving), for tests that move the clock to a
// given weekday. From 19:00 in Bogotá the UTC date is already tomorrow, so the weekday and the
// date must both be read on Bogotá's calendar (a Sunday taken from Bogotá's weekday and the UTC
// date was a Monday whenever the suite ran in the evening).
const BOGOTA_OFFSET_MS = 5 * 3_600_000;

/** The next Sunday (never today) at 10:00 in Bogotá: no commercial message may leave (Ley 2300). */
export function nextBogotaSunday(now: Date): Date {
  const local = new Date(now.getTime() - BOGOTA_OFFSET_MS);
  const days = (7 - local.getUTCDay()) % 7 || 7;
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days, 15, 0, 0));
}
