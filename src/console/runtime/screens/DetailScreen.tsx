// A `kind: detail` declaration: one record (from `load`), read-only, in tabs. A tab shows a group
// of fields with the same cells as the lists, or a nested list screen (its params may name the
// record: $record.id, $route.id). The open tab is kept in the URL (?tab=2). Actions above the
// tabs show when the session may use them; a delete confirms, then goes back to the list.
import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs, fillPathParams } from '../../api/args.ts';
import { errorText } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { notify } from '../../app/notify.tsx';
import { allowedActions, useCan } from '../access.ts';
import { RecordFields as Fields } from '../cells/RecordFields.tsx';
import { callAction, onceFields } from '../action-call.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { ActionResult, FilePicker, UploadProgress, type FilePickerHandle } from '../list/FileAction.tsx';
import { refreshWanted } from '../refresh.ts';
import { SecretOnce } from '../form/SecretOnce.tsx';
import { navigationTarget, resolveObject, rowApplies, type ExpressionContext } from '../expressions.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, screenById, type ScreenAction, type ScreenDef, type ScreenProps, type ScreenTab } from '../screen-types.ts';
import ListScreen from './ListScreen.tsx';
import NotAvailableScreen from './NotAvailableScreen.tsx';

type Data = Record<string, unknown>;

export default function DetailScreen(props: ScreenProps) {
  const screen = resolveScreen(props);
  const { id } = useParams();
  if (!screen || screen.kind !== 'detail' || !screen.load) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return <DetailView key={`${screen.id}:${id ?? ''}`} screen={screen} />;
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
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ScreenAction | null>(null);
  const [secrets, setSecrets] = useState<{ field: string; label: string; value: string }[] | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<{ action: ScreenAction; answer: Data } | null>(null);
  const picker = useRef<FilePickerHandle>(null);
  const base = pathname.replace(/\/+$/, '');
  const listBase = base.replace(/\/[^/]+$/, '');
  const actions = allowedActions(screen.actions, can).filter((a) => rowApplies(a.when, record, { ...ctx, record }));

  const execute = async (a: ScreenAction, file?: File) => {
    setBusy(true);
    setActionError(null);
    setResult(null);
    try {
      const answer = (await callAction(a, { ...ctx, record, row: record }, record, file, setProgress)) as Data;
      if (a.result?.length && answer) setResult({ action: a, answer });
      const once = onceFields(a, answer, (f) => t(`fields.${f}`));
      if (once.length) setSecrets(once);
      if (a.notify) notify(a.notify);
      if (a.method === 'DELETE') {
        if (!a.notify) notify('common.deleted');
        navigate(listBase, { replace: true });
        return;
      }
      await mutate();
      // `next`: where the answer is shown (a launch's deployment: the deployments tab).
      if (a.next) navigate(navigationTarget(a.next, answer ?? {}, base));
    } catch (e) {
      setActionError(errorText(t, e));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const run = (a: ScreenAction) => {
    if (a.to) return navigate(navigationTarget(a.to, record, base, resolveObject(a.params, { ...ctx, record })));
    if (a.upload) return picker.current?.open(a);
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
      <FilePicker ref={picker} onFile={(a, file) => void execute(a, file)} onRefused={setActionError} />
      <UploadProgress percent={progress} />
      {result && <ActionResult title={t(result.action.label)} fields={result.action.result!} answer={result.answer} onClose={() => setResult(null)} />}
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

/** A tab whose fields come from another operation's answer (fetched each time the tab opens). */
function LoadedFields({ tab, ctx }: { tab: ScreenTab; ctx: ExpressionContext }) {
  const { t } = useTranslation();
  const op = tab.load!.operation;
  const params = resolveObject(tab.load!.params, ctx);
  const { data, error, isLoading } = useOperation(op as OperationId, buildArgs(op, params) as never, { revalidateOnFocus: false, revalidateOnMount: true, dedupingInterval: 0 });
  if (isLoading && !data) return <LinearProgress aria-label={t('common.loading')} />;
  if (error) return <Alert severity="error">{errorText(t, error)}</Alert>;
  return data ? <Fields fields={tab.fields!} record={data as unknown as Data} /> : null;
}
