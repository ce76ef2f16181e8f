// A `kind: dashboard` declaration: one card per operation with a value and its format (COP in
// es-CO, integers, percentages), optionally linking to a screen; Vega-Lite charts over operations'
// rows (enum values drawn as their translation, dates in the spec's format); small tables of rows
// with the lists' cells, each row opening its record. A card, chart or table shows only when the
// session may call its operation and holds its declared `permission`.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RouteLink, useNavigate, useParams, useSearchParams } from '../navigation.tsx';
import { useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { errorText } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { cellFor, valueAt } from '../cells/registry.ts';
import { interpolate, pick, resolveObject } from '../expressions.ts';
import { formatValue } from '../format.ts';
import { displayRows } from '../chart/display-rows.ts';
import { meaningScale, withMeaningColors } from '../chart/meaning-colors.ts';
import { Chart } from '../chart/Chart.tsx';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, type Permission, type ScreenCard, type ScreenChart, type ScreenProps, type ScreenTable } from '../screen-types.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';
import { useCan } from '../access.ts';

function DashboardCard({ card }: { card: ScreenCard }) {
  const { t } = useTranslation();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const args = buildArgs(card.operation, resolveObject(card.params, { session: session as unknown as Record<string, unknown>, query, route }));
  const { data, error, isLoading } = useOperation(card.operation as OperationId, args as never);
  const body = (
    <CardContent>
      <Typography variant="body2" color="text.secondary" component="h2">
        {t(card.label)}
      </Typography>
      {isLoading ? (
        <Skeleton width={120} height={40} />
      ) : error ? (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {errorText(t, error)}
        </Alert>
      ) : (
        <Typography variant="h4" component="p" sx={{ fontWeight: 700 }} data-testid={`card-${card.label}`}>
          {formatValue(pick(data, card.value), card.format)}
        </Typography>
      )}
    </CardContent>
  );
  return <Card variant="outlined">{card.to ? <CardActionArea component={RouteLink} to={card.to}>{body}</CardActionArea> : body}</Card>;
}

function DashboardChart({ chart }: { chart: ScreenChart }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const operation = chart.operation!;
  const args = buildArgs(operation, resolveObject(chart.params, { session: session as unknown as Record<string, unknown>, query, route }));
  const { data, error, isLoading } = useOperation(operation as OperationId, args as never);
  const picked = pick(data, chart.itemsPath);
  const theme = useTheme();
  const { rows, spec } = useMemo(() => {
    const raw = Array.isArray(picked) ? (picked as Record<string, unknown>[]) : [];
    // Each series in the colour of its meaning (delivered green, failed red…).
    return { rows: displayRows(raw, chart, t), spec: withMeaningColors(chart.spec, meaningScale(chart, raw, t, theme)) };
  }, [picked, chart, t, i18n.language, theme]);
  return (
    <Card variant="outlined">
      <CardContent>
        {isLoading ? (
          <Skeleton variant="rounded" height={280} />
        ) : error ? (
          <Alert severity="warning">{errorText(t, error)}</Alert>
        ) : (
          <Chart spec={spec} rows={rows} top={chart.top} sortBy={chart.sortBy} label={t(chart.label ?? '')} />
        )}
      </CardContent>
    </Card>
  );
}

function DashboardTable({ table }: { table: ScreenTable }) {
  const { t } = useTranslation();
  const can = useCan();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const navigate = useNavigate();
  const args = buildArgs(table.operation, resolveObject(table.params, { session: session as unknown as Record<string, unknown>, query, route }));
  const { data, error, isLoading } = useOperation(table.operation as OperationId, args as never);
  const picked = pick(data, table.itemsPath);
  const rows = Array.isArray(picked) ? (picked as Record<string, unknown>[]) : [];
  const title = t(table.label);
  const columns = table.columns ?? [];
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {isLoading ? (
          <Skeleton variant="rounded" height={120} />
        ) : error ? (
          <Alert severity="warning">{errorText(t, error)}</Alert>
        ) : rows.length === 0 ? (
          <>
            <Typography color="text.secondary">{table.empty ? t(table.empty) : '—'}</Typography>
            {/* Nothing yet: the next step, as the page's primary action (the first campaign). */}
            {table.emptyAction && (!table.emptyAction.permission || can({ permission: table.emptyAction.permission })) && (
              <Button variant="contained" component={RouteLink} to={table.emptyAction.to} sx={{ mt: 1.5 }}>
                {t(table.emptyAction.label)}
              </Button>
            )}
          </>
        ) : (
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c.field}>{t(c.label)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row, i) => {
                const to = table.to ? interpolate(table.to, row) : null;
                return (
                  <TableRow key={String(row.id ?? i)} hover={!!to} onClick={to ? () => navigate(to) : undefined} sx={to ? { cursor: 'pointer' } : undefined}>
                    {columns.map((c, j) => {
                      const Cell = cellFor(c);
                      const cell = <Cell value={valueAt(row, c.field)} row={row} column={c} />;
                      // The first cell is a real link, so the row opens from the keyboard too.
                      return (
                        <TableCell key={c.field}>
                          {to && j === 0 ? (
                            <RouteLink to={to} onClick={(e) => e.stopPropagation()}>
                              {cell}
                            </RouteLink>
                          ) : (
                            cell
                          )}
                        </TableCell>
                      );
                    })}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

export default function DashboardScreen(props: ScreenProps) {
  const { t } = useTranslation();
  const can = useCan();
  const screen = resolveScreen(props);
  if (!screen || screen.kind !== 'dashboard') return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  // A block shows only when the role may call its operation (the server would refuse it) and holds
  // the block's own permission, if it declares one.
  const allowed = (b: { operation?: string; permission?: Permission }) => can({ operation: b.operation }) && (!b.permission || can({ permission: b.permission }));
  const cards = (screen.cards ?? []).filter(allowed);
  const charts = (screen.charts ?? []).filter(allowed);
  const tables = (screen.tables ?? []).filter(allowed);
  return (
    <ScreenFrame title={t(screen.title)} maxWidth={1100}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))' }}>
        {cards.map((c) => (
          <DashboardCard key={c.label} card={c} />
        ))}
      </Box>
      {charts.length > 0 && (
        <Box sx={{ display: 'grid', gap: 2, mt: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
          {charts.map((c) => (
            <DashboardChart key={c.label} chart={c} />
          ))}
        </Box>
      )}
      {tables.map((tb) => (
        <DashboardTable key={tb.label} table={tb} />
      ))}
    </ScreenFrame>
  );
}
