// The rows a chart draws (a dashboard's or a report's): enum values as their translation
// (`translate`: the legend reads "Entregado", not "delivered") and values in their display format
// (`formats`: a day as the tables write it), so a chart and its table say the same thing.
import type { ScreenChart } from '../screen-types.ts';
import { formatValue } from '../format.ts';

export function displayRows(rows: readonly Record<string, unknown>[], chart: Pick<ScreenChart, 'translate' | 'formats'>, t: (k: string) => string): Record<string, unknown>[] {
  const translate = Object.entries(chart.translate ?? {});
  const formats = Object.entries(chart.formats ?? {});
  if (!translate.length && !formats.length) return rows as Record<string, unknown>[];
  return rows.map((r) => ({
    ...r,
    ...Object.fromEntries(translate.map(([field, prefix]) => [field, r[field] == null ? r[field] : t(`${prefix}.${String(r[field])}`)])),
    ...Object.fromEntries(formats.map(([field, format]) => [field, r[field] == null ? r[field] : formatValue(r[field], format)])),
  }));
}
