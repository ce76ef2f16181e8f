// A Vega-Lite chart over rows (reports and dashboards): the declared spec gets the top-N rows as
// its data. Vega loads with the first chart shown; while it loads, and if it cannot draw, the
// screen's table still carries the figures.
import { Component, lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { withChunkReload } from '../../app/chunk-reload.ts';
import { quantitativeField, topN, withData } from './top-n.ts';

const VegaView = lazy(withChunkReload(() => import('./VegaView.tsx')));

class ChartBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export interface ChartProps {
  spec: Record<string, unknown>;
  rows: readonly Record<string, unknown>[];
  top?: number;
  sortBy?: string;
  label: string;
}

export function Chart({ spec, rows, top, sortBy, label }: ChartProps) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const values = useMemo(() => topN(rows, top, sortBy ?? quantitativeField(spec)), [rows, top, sortBy, spec]);
  const full = useMemo(() => withData(spec, values), [spec, values]);
  const fallback = <Alert severity="info">{t('common.chart.unavailable')}</Alert>;
  return (
    <Box component="figure" sx={{ m: 0, mb: 3 }} data-testid="chart" data-points={values.length}>
      <Typography component="figcaption" variant="subtitle2" sx={{ mb: 1 }}>
        {label}
        {top ? ` · ${t('common.chart.top', { count: top })}` : ''}
      </Typography>
      {failed ? (
        fallback
      ) : (
        <ChartBoundary fallback={fallback}>
          <Suspense fallback={<Skeleton variant="rounded" height={280} />}>
            <VegaView spec={full} label={label} onError={() => setFailed(true)} />
          </Suspense>
        </ChartBoundary>
      )}
    </Box>
  );
}
