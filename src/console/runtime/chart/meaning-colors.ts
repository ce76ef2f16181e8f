// One owner for what a colour means: a chart whose series are states or outcomes (delivered,
// failed, pending, sent…, folded from a report's columns or translated from an enum) draws each
// in the colour its chip and its progress bar have (cells.tsx statusColor over the theme's
// palette: delivered and success green, failed red, waiting amber), never in Vega's default
// order of colours, which painted "Entregados" red and "Fallidos" green.
import type { Theme } from '@mui/material/styles';
import { statusColor } from '../cells/cells.tsx';
import type { ScreenChart } from '../screen-types.ts';

/** The value keys a chart's colour field takes, before translation, and the words its legend reads for each. */
function seriesOf(chart: Pick<ScreenChart, 'fold' | 'translate' | 'spec'>, rows: readonly Record<string, unknown>[], t: (key: string) => string): { keys: string[]; label: (key: string) => string } | null {
  const color = (chart.spec.encoding as Record<string, unknown> | undefined)?.color as Record<string, unknown> | undefined;
  const field = typeof color?.field === 'string' ? color.field : null;
  if (!field || color?.scale) return null;
  // A fold's series are its fields, read as their labels (ReportScreen folds them so).
  if (chart.fold?.key === field) return { keys: [...chart.fold.fields], label: (key) => t(`fields.${key}`) };
  const prefix = chart.translate?.[field];
  if (prefix) return { keys: [...new Set(rows.map((r) => r[field]).filter((v) => v !== null && v !== undefined).map(String))], label: (key) => t(`${prefix}.${key}`) };
  return null;
}

/**
 * The colour scale of a chart whose series mean something, from its untranslated `rows`: the
 * legend's words and their colours; null leaves Vega's scheme (channel types, accounts, status
 * codes…: series of which none has a colour of its own).
 */
export function meaningScale(chart: Pick<ScreenChart, 'fold' | 'translate' | 'spec'>, rows: readonly Record<string, unknown>[], t: (key: string) => string, theme: Theme): { domain: string[]; range: string[] } | null {
  const series = seriesOf(chart, rows, t);
  if (!series || series.keys.length === 0) return null;
  const colors = series.keys.map(statusColor);
  if (colors.every((c) => c === 'default')) return null;
  const palette = (c: string) => (c === 'default' ? theme.palette.grey[500] : (theme.palette[c as 'success'] as { main: string }).main);
  return { domain: series.keys.map(series.label), range: colors.map(palette) };
}

/** The chart's spec with the meaning colours on its colour channel (a scale the YAML writes wins). */
export function withMeaningColors(spec: Record<string, unknown>, scale: ReturnType<typeof meaningScale>): Record<string, unknown> {
  if (!scale) return spec;
  const encoding = spec.encoding as Record<string, unknown>;
  return { ...spec, encoding: { ...encoding, color: { ...(encoding.color as Record<string, unknown>), scale } } };
}
