// The report date rules in the browser, with the server's own rule (src/core/date-range.ts): the
// end may not come before the start and no date may be after today, today being the calendar day
// in the product's time zone.
import { calendarDate, dateRangeProblem, type DateRangeProblem } from '../../../core/date-range.ts';
import { constants } from '../../../generated/constants.gen.ts';

export const today = (now: Date = new Date()) => calendarDate(now, constants.sendWindow.timeZone);

export function rangeProblem(range: { start?: string; end?: string } | undefined, now: Date = new Date()): DateRangeProblem | null {
  return range ? dateRangeProblem(range, today(now)) : null;
}
