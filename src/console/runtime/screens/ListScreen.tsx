// A `kind: list` declaration: rows from an operation, columns from the compiled screen, row
// actions (with an optional `when`), bulk actions and the empty text.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { call, useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { errorText } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { notify } from '../../app/notify.tsx';
import { pick, resolveObject, resolveValue, type ExpressionContext } from '../expressions.ts';
import { formatDateTime, formatValue } from '../format.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { screenById, type ScreenAction, type ScreenColumn, type ScreenProps } from '../screen-types.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';

type Row = Record<string, unknown>;

function Cell({ column, row }: { column: ScreenColumn; row: Row }) {
  const { t } = useTranslation();
  const value = row[column.field];
  if (column.type === 'boolean') return <Chip size="small" label={t(value ? 'common.yes' : 'common.no')} color={value ? 'secondary' : 'default'} />;
  if (column.type === 'datetime') return <>{formatDateTime(value)}</>;
  if (column.type === 'integer') return <>{formatValue(value, 'integer')}</>;
  return <>{formatValue(value, undefined)}</>;
}

const applies = (action: ScreenAction, row: Row) => !action.when || row[action.when.field] === action.when.equals;

export default function ListScreen({ screenId, menuKey }: ScreenProps) {
  const screen = screenById(screenId);
  if (!screen || screen.kind !== 'list' || !screen.operation) return <NotAvailableScreen screenId={screenId} menuKey={menuKey} />;
  return <ListView screenId={screen.id} />;
}

function ListView({ screenId }: { screenId: string }) {
  const screen = screenById(screenId)!;
  const { t } = useTranslation();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const { mutate } = useSWRConfig();
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const ctx: ExpressionContext = { session: session as unknown as Row, query, route };
  const operation = screen.operation!;
  const args = buildArgs(operation, resolveObject(screen.params, ctx));
  const { data, error, isLoading } = useOperation(operation as OperationId, args as never);
  const rows = ((pick(data, screen.itemsPath) as Row[] | undefined) ?? []).filter(Boolean);
  const columns = screen.columns ?? [];

  const run = async (action: ScreenAction, row?: Row, key = action.label) => {
    setBusy(key);
    setActionError(null);
    try {
      const body = resolveValue(action.body ?? {}, { ...ctx, row }) as Row;
      await call(action.operation as OperationId, buildArgs(action.operation, {}, body) as never);
      if (action.notify) notify(action.notify);
      // Every view of this operation (the list, the bell's count) refreshes.
      await mutate((k) => Array.isArray(k) && k[0] === operation);
    } catch (e) {
      setActionError(errorText(t, e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <ScreenFrame title={t(screen.title)} maxWidth={1100}>
      {!!screen.bulkActions?.length && rows.length > 0 && (
        <Box sx={{ display: 'flex', gap: 1, mb: 2 }}>
          {screen.bulkActions.map((a) => (
            <Button key={a.label} variant="outlined" disabled={busy !== null} onClick={() => void run(a)}>
              {t(a.label)}
            </Button>
          ))}
        </Box>
      )}
      {isLoading && <LinearProgress aria-label={t('common.loading')} />}
      {error && <Alert severity="error">{errorText(t, error)}</Alert>}
      {actionError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {actionError}
        </Alert>
      )}
      {!isLoading && !error && rows.length === 0 && <Typography color="text.secondary">{t(screen.empty ?? 'common.empty')}</Typography>}
      {rows.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small">
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c.field}>{t(c.label)}</TableCell>
                ))}
                {!!screen.rowActions?.length && <TableCell>{t('common.actions')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row, i) => (
                <TableRow key={String(row.id ?? i)} hover>
                  {columns.map((c) => (
                    <TableCell key={c.field}>
                      <Cell column={c} row={row} />
                    </TableCell>
                  ))}
                  {!!screen.rowActions?.length && (
                    <TableCell>
                      {screen.rowActions.filter((a) => applies(a, row)).map((a) => (
                        <Button key={a.label} size="small" disabled={busy !== null} onClick={() => void run(a, row, `${a.label}:${String(row.id ?? i)}`)}>
                          {t(a.label)}
                        </Button>
                      ))}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </ScreenFrame>
  );
}
