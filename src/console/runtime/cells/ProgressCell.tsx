// `cell: progress`: an object of counts ({ queued, sent, delivered, failed, … }) drawn as one
// stacked bar, each part as wide as its share, with the non-zero counts written under it, so a
// run's progress reads at a glance in a list row or a detail field. Colours follow the status
// colours (delivered green, failed red…) unless the column's `colors` says otherwise; the bar is an
// image whose accessible name lists every count.
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatInteger } from '../format.ts';
import type { CellProps, TagColor } from './cells.tsx';
import { statusColor } from './cells.tsx';

/** The counts of a progress value in declaration order, non-zero only, with their labels. */
export function progressParts(t: TFunction, exists: (k: string) => boolean, value: unknown): { key: string; label: string; count: number }[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .filter(([, n]) => typeof n === 'number' && n > 0)
    .map(([key, n]) => ({ key, label: exists(`fields.${key}`) ? t(`fields.${key}`) : key, count: n as number }));
}

/** "Entregados 3 · Fallidos 1": the text of a progress value (exports, screen readers). */
export const progressText = (parts: { label: string; count: number }[]) => parts.map((p) => `${p.label} ${formatInteger(p.count)}`).join(' · ') || '—';

export function ProgressCell({ value, column }: CellProps) {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  const parts = progressParts(t, (k) => i18n.exists(k), value);
  const total = parts.reduce((a, p) => a + p.count, 0);
  const text = progressText(parts);
  if (!total) return <>—</>;
  const colorOf = (key: string) => {
    const c = (column.colors?.[key] as TagColor | undefined) ?? statusColor(key);
    return c === 'default' ? theme.palette.grey[500] : theme.palette[c].main;
  };
  return (
    <Box sx={{ minWidth: 140, width: '100%' }} data-testid="progress-cell">
      <Box role="img" aria-label={text} sx={{ display: 'flex', height: 10, borderRadius: 5, overflow: 'hidden', bgcolor: 'action.hover' }}>
        {parts.map((p) => (
          <span key={p.key} data-part={p.key} style={{ width: `${(p.count / total) * 100}%`, background: colorOf(p.key) }} />
        ))}
      </Box>
      <Box component="span" aria-hidden sx={{ fontSize: '0.75rem', color: 'text.secondary', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {text}
      </Box>
    </Box>
  );
}
