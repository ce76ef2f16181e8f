// A `kind: detail` declaration: one record (from `load`), read-only, in tabs. A tab shows a group
// of fields with the same cells as the lists, or a nested list screen (its params may name the
// record: $record.id, $route.id). The open tab is kept in the URL (?tab=2). Actions above the
// tabs show when the session may use them; a delete confirms, then goes back to the list.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from '../navigation.tsx';
import { useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs, fillPathParams } from '../../api/args.ts';
import { ApiError, errorText } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { allowedActions, useCan } from '../access.ts';
import { actionText } from '../action-text.ts';
import { RecordFields as Fields } from '../cells/RecordFields.tsx';
import { Checklist } from './Checklist.tsx';
import { valueAt } from '../cells/registry.ts';
import { refreshWanted } from '../refresh.ts';
import { resolveObject, rowApplies, type ExpressionContext } from '../expressions.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, screenById, type ScreenDef, type ScreenProps, type ScreenTab } from '../screen-types.ts';
import { ActionDialogs, ActionInline } from '../ScreenActionParts.tsx';
import { useScreenAction } from '../use-screen-action.ts';
import ListScreen from './ListScreen.tsx';
import NotAvailableScreen from './NotAvailableScreen.tsx';

type Data = Record<string, unknown>;

export default function DetailScreen(props: ScreenProps) {
  const screen = resolveScreen(props);
  const { id } = useParams();
  if (!screen || screen.kind !== 'detail' || !screen.load) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return <DetailView key={`${screen.id}:${id ?? ''}`} screen={screen} />;
}

/** The screen's own words for a load error code when it declares them, else the catalogue's. */
function loadErrorText(t: TFunction, error: unknown, words: Record<string, string> | undefined): string {
  const own = error instanceof ApiError ? words?.[error.code] : undefined;
  return own ? t(own) : errorText(t, error);
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
  const params = fillPathParams(load.operation, resolveObject(load.params, ctx), route);
  // `refresh`: fetched again while the record still changes.
  const refresh = screen.refresh;
  const refreshInterval = (latest: unknown) => (refreshWanted(refresh, latest ? [latest as Data] : [], ctx) ? refresh!.ms : 0);
  const { data, error, isLoading, mutate } = useOperation(load.operation as OperationId, buildArgs(load.operation, params) as never, { revalidateOnFocus: false, ...(refresh ? { refreshInterval } : {}) });
  const record = (data ?? {}) as Data;
  const tabs = screen.tabs ?? [];
  const tab = Math.min(Math.max(0, Number(query.get('tab') ?? 0) || 0), tabs.length - 1);
  const base = pathname.replace(/\/+$/, '');
  const listBase = base.replace(/\/[^/]+$/, '');
  // Before the record is there, or when it could not be loaded, only the actions that do not read
  // it are offered (the verification page's file check, for a certificate id nobody issued).
  const allowed = allowedActions(screen.actions, can).filter((a) => rowApplies(a.when, record, { ...ctx, record }));
  const actions = data ? allowed : allowed.filter((a) => !a.when && !JSON.stringify([a.params ?? null, a.body ?? null, a.to ?? null]).includes('$record') && !(a.to ?? '').includes('{'));
  const action = useScreenAction({
    callContext: () => ({ ...ctx, record, row: record }),
    linkContext: () => ({ ...ctx, record }),
    base,
    after: async (a) => {
      // A deleted record's page is left for its list.
      if (a.method === 'DELETE') {
        navigate(listBase, { replace: true });
        return 'stop';
      }
      await mutate();
    },
  });

  // `titleField`: the page is headed by the record (the campaign's name) once it is loaded.
  const named = screen.titleField ? valueAt(record, screen.titleField) : undefined;
  const title = typeof named === 'string' && named ? named : t(screen.title);
  const helped = actions.filter((a) => a.help);
  const hasPrimary = actions.some((a) => a.primary);
  return (
    <ScreenFrame title={title} description={screen.description ? t(screen.description) : undefined} maxWidth={1100}>
      {actions.length > 0 && (data || error) && (
        <Box sx={{ display: 'flex', gap: 1, mb: helped.length ? 1 : 2, flexWrap: 'wrap' }}>
          {actions.map((a, i) => (
            <Button
              key={a.label}
              // The screen's main action (`primary`) is the one filled button; without one, navigations are.
              variant={a.primary || (!hasPrimary && a.to) ? 'contained' : 'outlined'}
              color={a.method === 'DELETE' ? 'error' : 'primary'}
              disabled={action.busy !== null}
              onClick={() => action.run(a, record)}
              aria-describedby={a.help ? `detail-action-help-${i}` : undefined}
            >
              {actionText(t, a.label, a, record)}
            </Button>
          ))}
        </Box>
      )}
      {helped.length > 0 && (data || error) && (
        // What an action does, in words, beside it (an edit lock is not a block-list entry).
        <Box component="ul" sx={{ m: 0, mb: 2, pl: 2.5, color: 'text.secondary', typography: 'body2' }}>
          {actions.map((a, i) =>
            a.help ? (
              <li key={a.label} id={`detail-action-help-${i}`}>
                <strong>{t(a.label)}:</strong> {t(a.help)}
              </li>
            ) : null,
          )}
        </Box>
      )}
      <ActionInline parts={action.parts} />
      {isLoading && <LinearProgress aria-label={t('common.loading')} />}
      {!!error && <Alert severity="error" role="alert">{loadErrorText(t, error, load.errors)}</Alert>}
      {action.error && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {action.error}
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
                {tb.fields && tb.load ? (
                  <LoadedFields tab={tb} ctx={{ ...ctx, record }} />
                ) : tb.fields ? (
                  <Fields fields={tb.fields} record={record} />
                ) : (
                  <ListScreen screenId={tb.screen ?? null} menuKey={null} screen={tb.list ?? screenById(tb.screen)} params={resolveObject(tb.params, { ...ctx, record })} nested />
                )}
              </Box>
            ),
          )}
        </>
      )}
      <ActionDialogs parts={action.parts} />
    </ScreenFrame>
  );
}

/** A tab whose fields come from another operation's answer (fetched each time the tab opens). */
function LoadedFields({ tab, ctx }: { tab: ScreenTab; ctx: ExpressionContext }) {
  const { t } = useTranslation();
  const op = tab.load!.operation;
  const params = resolveObject(tab.load!.params, ctx);
  const { data, error, isLoading } = useOperation(op as OperationId, buildArgs(op, params) as never, { revalidateOnFocus: false, revalidateOnMount: true, dedupingInterval: 0 });
  if (isLoading && !data) return <LinearProgress aria-label={t('common.loading')} />;
  if (error) return <Alert severity="error">{errorText(t, error)}</Alert>;
  if (!data) return null;
  const answer = data as unknown as Data;
  // `hideEmpty`: a fact that does not apply (null, an empty list) is left out.
  const fields = tab.hideEmpty ? tab.fields!.filter((c) => { const v = valueAt(answer, c.field); return v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0); }) : tab.fields!;
  return (
    <>
      {tab.checklist && <Checklist lines={tab.checklist} answer={answer} record={ctx.record as Data | undefined} ctx={ctx} />}
      <Fields fields={fields} record={answer} />
    </>
  );
}
