// A `kind: detail` declaration: one record (from `load`), read-only, in tabs. A tab shows a group
// of fields with the same cells as the lists, or a nested list screen (its params may name the
// record: $record.id, $route.id). The open tab is kept in the URL (?tab=2). Actions above the
// tabs show when the session may use them; a delete confirms, then goes back to the list.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { call, useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { errorText } from '../../api/errors.ts';
import { operationById } from '../../api/transport.ts';
import { useSession } from '../../api/session.ts';
import { notify } from '../../app/notify.tsx';
import { allowedActions, useCan } from '../access.ts';
import { cellFor, valueAt } from '../cells/registry.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { SecretOnce } from '../form/SecretOnce.tsx';
import { navigationTarget, resolveObject, resolveValue, type ExpressionContext } from '../expressions.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, screenById, type ScreenAction, type ScreenColumn, type ScreenDef, type ScreenProps } from '../screen-types.ts';
import ListScreen from './ListScreen.tsx';
import NotAvailableScreen from './NotAvailableScreen.tsx';

type Data = Record<string, unknown>;

export default function DetailScreen(props: ScreenProps) {
  const screen = resolveScreen(props);
  const { id } = useParams();
  if (!screen || screen.kind !== 'detail' || !screen.load) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return <DetailView key={`${screen.id}:${id ?? ''}`} screen={screen} />;
}

function Fields({ fields, record }: { fields: readonly ScreenColumn[]; record: Data }) {
  const { t } = useTranslation();
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(160px, 1fr) 3fr' }, columnGap: 3, rowGap: 1.5, m: 0 }}>
      {fields.map((c) => {
        const Cell = cellFor(c);
        return (
          <Box key={c.field} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary" variant="body2">
              {t(c.label)}
            </Typography>
            <Box component="dd" sx={{ m: 0 }} data-field={c.field}>
              <Cell value={valueAt(record, c.field)} row={record} column={c} />
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}

function DetailView({ screen }: { screen: ScreenDef }) {
  const { t } = useTranslation();
  const session = useSession();
  const route = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [query, setQuery] = useSearchParams();
  const can = useCan();
  const load = screen.load!;
  const ctx: ExpressionContext = { session: session as unknown as Data, query, route };
  const params = resolveObject(load.params, ctx);
  for (const [, name] of (operationById(load.operation)?.path ?? '').matchAll(/\{(\w+)\}/g)) if (params[name] === undefined && route[name] !== undefined) params[name] = route[name];
  const { data, error, isLoading, mutate } = useOperation(load.operation as OperationId, buildArgs(load.operation, params) as never, { revalidateOnFocus: false });
  const record = (data ?? {}) as Data;
  const tabs = screen.tabs ?? [];
  const tab = Math.min(Math.max(0, Number(query.get('tab') ?? 0) || 0), tabs.length - 1);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ScreenAction | null>(null);
  const [secrets, setSecrets] = useState<{ field: string; label: string; value: string }[] | null>(null);
  const base = pathname.replace(/\/+$/, '');
  const listBase = base.replace(/\/[^/]+$/, '');
  const actions = allowedActions(screen.actions, can).filter((a) => !a.when || record[a.when.field] === a.when.equals);

  const execute = async (a: ScreenAction) => {
    setBusy(true);
    setActionError(null);
    try {
      const local = { ...ctx, record, row: record };
      const op = a.operation!;
      const p = resolveObject(a.params, local);
      for (const [, name] of (operationById(op)?.path ?? '').matchAll(/\{(\w+)\}/g)) if (p[name] === undefined && record[name] !== undefined) p[name] = record[name];
      const answer = (await call(op as OperationId, buildArgs(op, p, a.body ? resolveValue(a.body, local) : undefined) as never)) as unknown as Data;
      const once = (a.showOnce ?? []).filter((f) => typeof answer?.[f] === 'string' && answer[f]).map((f) => ({ field: f, label: t(`fields.${f}`), value: String(answer[f]) }));
      if (once.length) setSecrets(once);
      if (a.notify) notify(a.notify);
      if (a.method === 'DELETE') {
        if (!a.notify) notify('common.deleted');
        navigate(listBase, { replace: true });
        return;
      }
      await mutate();
    } catch (e) {
      setActionError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const run = (a: ScreenAction) => {
    if (a.to) return navigate(navigationTarget(a.to, record, base));
    if (a.confirm) return setConfirming(a);
    void execute(a);
  };

  return (
    <ScreenFrame title={t(screen.title)} description={screen.description ? t(screen.description) : undefined} maxWidth={1100}>
      {actions.length > 0 && data && (
        <Box sx={{ display: 'flex', gap: 1, mb: 2, flexWrap: 'wrap' }}>
          {actions.map((a) => (
            <Button key={a.label} variant={a.to ? 'contained' : 'outlined'} color={a.method === 'DELETE' ? 'error' : 'primary'} disabled={busy} onClick={() => run(a)}>
              {t(a.label)}
            </Button>
          ))}
        </Box>
      )}
      {isLoading && <LinearProgress aria-label={t('common.loading')} />}
      {!!error && <Alert severity="error">{errorText(t, error)}</Alert>}
      {actionError && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {actionError}
        </Alert>
      )}
      {data && (
        <>
          <Tabs value={tab} onChange={(_, v: number) => setQuery((q) => { const n = new URLSearchParams(q); if (v) n.set('tab', String(v)); else n.delete('tab'); return n; }, { replace: true })} variant="scrollable" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
            {tabs.map((tb, i) => (
              <Tab key={tb.label} label={t(tb.label)} id={`detail-tab-${i}`} aria-controls={`detail-panel-${i}`} />
            ))}
          </Tabs>
          {tabs.map((tb, i) =>
            i !== tab ? null : (
              <Box key={tb.label} role="tabpanel" id={`detail-panel-${i}`} aria-labelledby={`detail-tab-${i}`}>
                {tb.fields ? (
                  <Fields fields={tb.fields} record={record} />
                ) : (
                  <ListScreen screenId={tb.screen ?? null} menuKey={null} screen={tb.list ?? screenById(tb.screen)} params={resolveObject(tb.params, { ...ctx, record })} nested />
                )}
              </Box>
            ),
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={t('common.confirm.title')}
        message={t(typeof confirming?.confirm === 'string' ? confirming.confirm : confirming?.method === 'DELETE' ? 'common.confirm.delete' : 'common.confirm.message')}
        confirmLabel={confirming ? t(confirming.label) : ''}
        danger={confirming?.method === 'DELETE'}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const a = confirming!;
          setConfirming(null);
          void execute(a);
        }}
      />
      <SecretOnce secrets={secrets} onClose={() => setSecrets(null)} />
    </ScreenFrame>
  );
}
