// The words of an action about one record: its label and confirmation may name the record's
// values ({{scheduledAt}}, shown as a date and time) and, with `labelContext`, have a variant for
// the value of one of its fields (i18next context: `launch_scheduled` for a scheduled campaign).
import type { TFunction } from 'i18next';
import { formatDateTime, formatInteger } from './format.ts';
import type { ScreenAction } from './screen-types.ts';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** The record's values as a text shows them: dates and times formatted, counts grouped (50.000), lists joined, the rest as they are. */
export function textValues(record: Record<string, unknown> | undefined): Record<string, unknown> {
  const shown = (v: unknown): unknown =>
    typeof v === 'string' && ISO_DATE_TIME.test(v) ? formatDateTime(v) : typeof v === 'number' && Number.isInteger(v) ? formatInteger(v) : Array.isArray(v) ? v.map(String).join(', ') : v;
  return Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, shown(v)]));
}

/**
 * The notice after an action: with `notifyContext`, the answer's value of that field picks
 * `<notify>_<value>` when the locale has it (a launch still preparing reports its progress);
 * otherwise the action's words as actionText gives them.
 */
export function noticeText(
  t: TFunction, exists: (key: string) => boolean, key: string, action: Pick<ScreenAction, 'labelContext' | 'notifyContext'>,
  record: Record<string, unknown> | undefined, answer: Record<string, unknown> | undefined,
): string {
  const value = action.notifyContext && answer ? answer[action.notifyContext] : undefined;
  const variant = value == null ? null : `${key}_${String(value)}`;
  const more = { result: answer ?? {} };
  if (variant && exists(variant)) return t(variant, { ...textValues(record), ...more });
  return actionText(t, key, action, record, more);
}

export function actionText(t: TFunction, key: string, action: Pick<ScreenAction, 'labelContext'>, record: Record<string, unknown> | undefined, more: Record<string, unknown> = {}): string {
  const context = action.labelContext && record ? record[action.labelContext] : undefined;
  return t(key, { ...textValues(record), ...more, ...(context == null ? {} : { context: String(context) }) });
}
