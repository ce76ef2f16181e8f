// A `kind: dashboard` declaration: one card per operation with a value and its format (COP in
// es-CO, integers), optionally linking to a screen, and Vega-Lite charts over operations' rows.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams, useSearchParams } from 'react-router-dom';
import { useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { errorText } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { pick, resolveObject } from '../expressions.ts';
import { formatValue } from '../format.ts';
import { Chart } from '../chart/Chart.tsx';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, type ScreenCard, type ScreenChart, type ScreenProps } from '../screen-types.ts';
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
  return <Card variant="outlined">{card.to ? <CardActionArea component={RouterLink} to={card.to}>{body}</CardActionArea> : body}</Card>;
}

function DashboardChart({ chart }: { chart: ScreenChart }) {
  const { t } = useTranslation();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const operation = chart.operation!;
  const args = buildArgs(operation, resolveObject(chart.params, { session: session as unknown as Record<string, unknown>, query, route }));
  const { data, error, isLoading } = useOperation(operation as OperationId, args as never);
  const rows = (pick(data, chart.itemsPath) as Record<string, unknown>[] | undefined) ?? [];
  return (
    <Card variant="outlined">
      <CardContent>
        {isLoading ? (
          <Skeleton variant="rounded" height={280} />
        ) : error ? (
          <Alert severity="warning">{errorText(t, error)}</Alert>
        ) : (
          <Chart spec={chart.spec} rows={Array.isArray(rows) ? rows : []} top={chart.top} sortBy={chart.sortBy} label={t(chart.label ?? '')} />
        )}
      </CardContent>
    </Card>
  );
}

export default function DashboardScreen(props: ScreenProps) {
  const { t } = useTranslation();
  const allowed = useCan();
  const screen = resolveScreen(props);
  if (!screen || screen.kind !== 'dashboard') return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  // A card or chart shows only when the role may call its operation (the server would refuse it).
  const cards = (screen.cards ?? []).filter(allowed);
  const charts = (screen.charts ?? []).filter(allowed);
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
    </ScreenFrame>
  );
}
