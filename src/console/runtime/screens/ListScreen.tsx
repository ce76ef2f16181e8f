// A `kind: list` declaration. With a list-convention operation (x-list) the server pages, sorts,
// filters and searches; the state lives in the URL query; the table is virtual over the whole
// total and fetches the pages in view. Other operations (an array, `{ items }`) are listed whole.
// Row and bulk actions show only when the session may use them (can()); deletes confirm first.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TablePagination from '@mui/material/TablePagination';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from '../navigation.tsx';
import { useSWRConfig } from 'swr';
import { useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { menuNodes } from '../../../generated/menu.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { errorText } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { useCurrentRoute } from '../../shell/route-info.ts';
import { allowedActions, useCan } from '../access.ts';
import { readsAffectedBy } from '../cache.ts';
import { pick, resolveObject, rowApplies, type ExpressionContext } from '../expressions.ts';
import { formatInteger } from '../format.ts';
import { ExportButtons } from '../list/ExportButtons.tsx';
import { collectRows } from '../list/export.ts';
import { actionsColumnWidth, inlineCount } from '../list/row-actions.ts';
import { FilterControl, SearchBox } from '../list/ListControls.tsx';
import { useListState, type ListStateDefaults } from '../list/list-state.ts';
import { openingPage, usePagedRows, type Row } from '../list/paged-rows.ts';
import { VirtualTable, type VirtualTableHandle } from '../list/VirtualTable.tsx';
import { refreshWanted, useRefresh } from '../refresh.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, type ScreenAction, type ScreenDef, type ScreenProps } from '../screen-types.ts';
import { ActionDialogs, ActionInline } from '../ScreenActionParts.tsx';
import { useScreenAction } from '../use-screen-action.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';

export default function ListScreen(props: ScreenProps & { nested?: boolean }) {
  const screen = resolveScreen(props);
  if (!screen || screen.kind !== 'list' || !screen.operation) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return <ListView key={screen.id} screen={screen} extraParams={props.params} nested={!!props.nested} />;
}

/** A bulk action whose body or params name $selected works on the checked rows. */
const usesSelection = (a: ScreenAction) => JSON.stringify([a.body ?? {}, a.params ?? {}]).includes('"$selected"');

/** The path a list's "new", "edit" and "open" links hang off: its route without the id part. */
function useBasePath(): string {
  const route = useCurrentRoute();
  const { pathname } = useLocation();
  const path = route?.path ?? pathname;
  return path.replace(/\/:id(\/.*)?$/, '').replace(/\/(new|\d+(\/edit)?)$/, '');
}

interface Source {
  count: number;
  total: number | null;
  /** The server counted up to its bound only: the total reads "más de …" (more than). */
  totalIsEstimate: boolean;
  rowAt: (i: number) => Row | undefined;
  ensure: (first: number, last: number) => void;
  loadedRows: () => Row[];
  error: unknown;
  loading: boolean;
  reload: () => void;
  /** Fetches the shown rows again in place (periodic refresh). */
  refresh: () => Promise<void> | void;
}

function ListView({ screen, extraParams, nested }: { screen: ScreenDef; extraParams?: Record<string, unknown>; nested: boolean }) {
  const { t } = useTranslation();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const navigate = useNavigate();
  const base = useBasePath();
  const { mutate } = useSWRConfig();
  const can = useCan();
  const operation = screen.operation!;
  const paged = !!screen.paged;
  const ctx: ExpressionContext = { session: session as unknown as Row, query, route };
  const fixed = { ...resolveObject(screen.params, ctx), ...(extraParams ?? {}) };

  const defaults = useMemo<ListStateDefaults>(
    () => ({ pageSize: screen.pageSize ?? 50, sort: screen.defaultSort?.field, order: screen.defaultSort?.order, filters: (screen.filters ?? []).map((f) => f.field), maxPageSize: 200 }),
    [screen],
  );
  const [state, update] = useListState(defaults, !nested && paged);
  // The header's subtab (?tab=<key>, the first by default) presets filters; a filter chosen in the
  // list overrides it until the subtab changes.
  const subtabKeys = Object.keys(screen.subtabs ?? {});
  const subtab = nested || !subtabKeys.length ? null : subtabKeys.includes(query.get('tab') ?? '') ? query.get('tab')! : subtabKeys[0];
  const preset = useMemo(() => (subtab ? screen.subtabs![subtab] : {}), [subtab, screen]);
  const filters = useMemo(() => ({ ...preset, ...state.filters }), [preset, state.filters]);
  const shownSubtab = useRef(subtab);
  useEffect(() => {
    if (shownSubtab.current === subtab) return;
    shownSubtab.current = subtab;
    update({ filters: Object.fromEntries(Object.keys(preset).map((k) => [k, undefined])) }, { replace: true });
  }, [subtab]);
  const queryValues = useMemo(() => {
    const v: Record<string, unknown> = { ...fixed };
    if (state.sort) Object.assign(v, { sort: state.sort, order: state.order });
    if (state.q) v.q = state.q;
    Object.assign(v, filters);
    return v;
  }, [JSON.stringify(fixed), state.sort, state.order, state.q, JSON.stringify(filters)]);

  // --- rows ---------------------------------------------------------------------------------
  const pagedRows = usePagedRows(paged ? operation : '', queryValues, state.pageSize, state.page);
  const whole = useOperation(operation as OperationId, (paged ? null : buildArgs(operation, fixed)) as never);
  const wholeRows = useMemo(() => {
    const all = ((pick(whole.data, screen.itemsPath) as Row[] | undefined) ?? []).filter(Boolean);
    // A whole list searches in the browser, over the texts of its columns.
    const q = state.q.trim().toLowerCase();
    if (!q) return all;
    const fields = (screen.columns ?? []).map((c) => c.field);
    return all.filter((r) => fields.some((f) => String(r[f] ?? '').toLowerCase().includes(q)));
  }, [whole.data, screen.itemsPath, screen.columns, state.q]);
  const source: Source = paged
    ? { count: pagedRows.total ?? 0, total: pagedRows.total, totalIsEstimate: pagedRows.totalIsEstimate, rowAt: pagedRows.rowAt, ensure: pagedRows.ensure, loadedRows: pagedRows.loadedRows, error: pagedRows.error, loading: pagedRows.total === null || pagedRows.loading, reload: pagedRows.reload, refresh: pagedRows.refresh }
    : { count: wholeRows.length, total: whole.data ? wholeRows.length : null, totalIsEstimate: false, rowAt: (i) => wholeRows[i], ensure: () => undefined, loadedRows: () => wholeRows, error: whole.error, loading: whole.isLoading, reload: () => void whole.mutate(), refresh: () => whole.mutate().then(() => undefined) };
  // `refresh`: the rows are fetched again while one of them still changes (a running deployment).
  useRefresh(screen.refresh, refreshWanted(screen.refresh, source.loadedRows(), ctx), source.refresh);

  // --- selection ------------------------------------------------------------------------------
  const idField = 'id';
  const idOf = useCallback((row: Row) => row[idField], []);
  const [selected, setSelected] = useState<ReadonlySet<unknown>>(new Set());
  useEffect(() => setSelected(new Set()), [queryValues]);
  const bulk = allowedActions(screen.bulkActions, can);
  const selectable = bulk.some(usesSelection);
  const loadedIds = source.loadedRows().map(idOf);
  const allSelected = loadedIds.length > 0 && loadedIds.every((id) => selected.has(id));
  const onToggle = useCallback((id: unknown) => setSelected((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  }), []);
  const onToggleAll = () => setSelected(allSelected ? new Set() : new Set(loadedIds));
  // The header box selects the rows loaded, not every match on the server: say so when they differ.
  const partial = source.total !== null && loadedIds.length < source.total;
  const selectAllLabel = partial ? t('common.list.selectLoaded', { count: loadedIds.length, total: formatInteger(source.total!) }) : t('common.list.selectAll');
  const selectedText = partial ? t('common.list.selectedOf', { count: selected.size, total: formatInteger(source.total!) }) : t('common.list.selected', { count: selected.size });

  // --- scrolling and the page in the URL --------------------------------------------------------
  const table = useRef<VirtualTableHandle>(null);
  const pageTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const ensure = source.ensure;
  const statePage = state.page;
  const onRange = useCallback(
    (first: number, last: number, inView: number) => {
      ensure(first, last);
      if (!paged || nested) return;
      clearTimeout(pageTimer.current);
      const top = Math.floor(inView / state.pageSize) + 1;
      if (top !== statePage) pageTimer.current = setTimeout(() => update({ page: top }, { replace: true }), 250);
    },
    [ensure, paged, nested, state.pageSize, statePage, update],
  );
  useEffect(() => () => clearTimeout(pageTimer.current), []);
  // A reload or a back/forward to ?page=N scrolls there once the total is known (to the top when
  // N lies past the rows served by page number: see openingPage).
  const scrolledFor = useRef<string>('');
  const signature = JSON.stringify(queryValues) + state.pageSize;
  useEffect(() => {
    if (!paged || source.total === null || scrolledFor.current === signature) return;
    scrolledFor.current = signature;
    const opening = openingPage(state.page, state.pageSize);
    if (opening > 1) table.current?.scrollToIndex((opening - 1) * state.pageSize);
  }, [paged, source.total, signature]);

  // --- actions --------------------------------------------------------------------------------
  const formModes = screen.formModes;
  const opensRows = !!screen.detail || !!formModes?.view;
  const canCreate = !!formModes && can(formModes.create);
  const canEdit = !!formModes?.edit && can(formModes.edit);
  const rowActions = allowedActions(screen.rowActions, can);

  const action = useScreenAction({
    callContext: (row) => ({ ...ctx, row, selected: [...selected] }),
    linkContext: (row) => ({ ...ctx, row }),
    base,
    busyKey: (a, row) => (row ? `${a.label}:${String(idOf(row))}` : a.label),
    after: async (a, _answer, row) => {
      if (!row) setSelected(new Set());
      source.reload();
      // Every other view of this operation (the bell's count) refreshes too, and the reads the
      // write may have changed (an upload changes the campaign's recipients count).
      const affected = readsAffectedBy(a.operation!);
      await mutate((k) => (Array.isArray(k) && k[0] === operation) || affected(k));
    },
  });
  const { busy, run } = action;
  // Rows are memoised: they call the latest `run` through a ref.
  const runRef = useRef(run);
  runRef.current = run;
  const actionKeys = rowActions.map((a) => a.label).join();

  // The row's buttons: as many as fit the actions column's budget, the rest in its "⋮" menu (one
  // menu for the list, opened on the row's button), so no action needs sideways scrolling.
  const [more, setMore] = useState<{ anchor: HTMLElement; row: Row; actions: ScreenAction[] } | null>(null);
  /** What a row offers: Edit when its condition holds, and the row actions whose `when` holds. */
  const offeredBy = (row: Row) => ({
    edit: canEdit && rowApplies(screen.editWhen, row, { ...ctx, row }),
    applicable: rowActions.filter((a) => rowApplies(a.when, row, { ...ctx, row })),
  });
  const renderActions = useMemo(() => {
    if (!rowActions.length && !canEdit) return undefined;
    // Plain buttons (styled by the table): rows mount while scrolling and must stay cheap.
    return (row: Row) => {
      const { edit, applicable } = offeredBy(row);
      const inline = inlineCount([...(edit ? [t('common.edit')] : []), ...applicable.map((a) => t(a.label))]) - (edit ? 1 : 0);
      const rest = applicable.slice(Math.max(0, inline));
      return (
        <span className="row-actions">
          {edit && (
            <button type="button" className="row-action" onClick={() => navigate(`${base}/${encodeURIComponent(String(idOf(row)))}/edit`)}>
              {t('common.edit')}
            </button>
          )}
          {applicable.slice(0, Math.max(0, inline)).map((a) => (
            <button key={a.label} type="button" className={a.method === 'DELETE' ? 'row-action danger' : 'row-action'} disabled={busy !== null} onClick={() => runRef.current(a, row)}>
              {t(a.label)}
            </button>
          ))}
          {rest.length > 0 && (
            <button type="button" className="row-action more" aria-haspopup="menu" aria-label={t('common.list.moreActions')} title={t('common.list.moreActions')} disabled={busy !== null} onClick={(e) => setMore({ anchor: e.currentTarget, row, actions: rest })}>
              ⋮
            </button>
          )}
        </span>
      );
    };
  }, [actionKeys, canEdit, busy, base, navigate, idOf, t, session?.idUser]);

  // Room for the buttons of the loaded rows side by side within the budget (row-actions.ts): as
  // wide as the row that shows the most needs, and no column at all when no loaded row has an
  // action (a finished run has none: a pinned, empty column covered its progress).
  const loadedRows = source.loadedRows();
  const actionsWidth = renderActions ? loadedRows.reduce((widest, row) => {
    const { edit, applicable } = offeredBy(row);
    const labels = [...(edit ? [t('common.edit')] : []), ...applicable.map((a) => t(a.label))];
    return labels.length ? Math.max(widest, actionsColumnWidth(labels)) : widest;
  }, 0) : 0;
  const onOpen = useMemo(() => (opensRows ? (row: Row) => navigate(`${base}/${encodeURIComponent(String(idOf(row)))}`) : undefined), [opensRows, base, navigate, idOf]);

  // --- export ---------------------------------------------------------------------------------
  const exportNode = screen.permission ? menuNodes.find((n) => n.id === screen.permission!.component) : undefined;
  const exportAllowed = !exportNode || !(exportNode.actions as readonly string[]).includes('download') || can({ permission: { component: exportNode.id!, action: 'download' } });
  const exportRows = (onProgress: (done: number, total: number) => void, signal: AbortSignal) =>
    paged ? collectRows(operation, queryValues, onProgress, signal) : Promise.resolve(wholeRows).then((r) => (onProgress(r.length, r.length), r));

  const showTable = source.count > 0;
  const narrowed = !!state.q || Object.keys(state.filters).length > 0;

  // A list inside a detail tab has the tab's label for a title.
  const Frame = nested ? NestedFrame : ScreenFrame;
  return (
    <Frame title={t(screen.title)} description={screen.description ? t(screen.description) : undefined} maxWidth={1200}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
        {screen.search && <SearchBox value={state.q} onCommit={(q) => update({ q })} />}
        {(screen.filters ?? []).map((f) => (
          <FilterControl key={f.field} filter={f} value={filters[f.field] ?? ''} onCommit={(v) => update({ filters: { [f.field]: v } })} />
        ))}
        <Box sx={{ flex: 1 }} />
        {exportAllowed && <ExportButtons formats={screen.export ?? []} name={screen.exportName ?? screen.id} columns={screen.columns ?? []} rows={exportRows} disabled={!showTable} />}
        {canCreate && (
          <Button variant="contained" startIcon={<Add />} onClick={() => navigate(`${base}/new`)}>
            {t('common.new')}
          </Button>
        )}
      </Box>
      {/* Actions on the checked rows need rows; the others (navigation, "mark all") show even on an empty list. */}
      {bulk.some((a) => !usesSelection(a) || source.count > 0) && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1.5, flexWrap: 'wrap' }}>
          {selectable && source.count > 0 && (
            <Typography variant="body2" color="text.secondary" data-testid="selected-count">
              {selectedText}
            </Typography>
          )}
          {bulk.filter((a) => !usesSelection(a) || source.count > 0).map((a) => (
            <Button key={a.label} size="small" variant="outlined" color={a.method === 'DELETE' ? 'error' : 'primary'} disabled={busy !== null || (usesSelection(a) && selected.size === 0)} onClick={() => run(a)}>
              {t(a.label)}
            </Button>
          ))}
        </Box>
      )}
      <ActionInline parts={action.parts} />
      {source.loading && <LinearProgress aria-label={t('common.loading')} sx={{ mb: 1 }} />}
      {!!source.error && (
        // The screen's friendly words first ("No fue posible cargar las campañas."), then why, and a way to try again.
        <Alert severity="error" role="alert" sx={{ mb: 2 }} action={<Button color="inherit" size="small" onClick={() => source.reload()}>{t('common.reload')}</Button>}>
          {screen.loadError ? `${t(screen.loadError)} ${errorText(t, source.error)}` : errorText(t, source.error)}
        </Alert>
      )}
      {action.error && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {action.error}
        </Alert>
      )}
      {!source.loading && !source.error && !showTable && <Typography color="text.secondary">{t(narrowed ? 'common.list.noMatches' : (screen.empty ?? 'common.empty'))}</Typography>}
      {showTable && (
        <VirtualTable
          handle={table}
          caption={t(screen.title)}
          columns={screen.columns ?? []}
          count={source.count}
          rowAt={source.rowAt}
          idOf={idOf}
          onRange={onRange}
          sort={paged ? { field: state.sort, order: state.order } : undefined}
          onSort={paged ? (field) => update({ sort: field, order: state.sort === field && state.order === 'asc' ? 'desc' : 'asc' }) : undefined}
          selectable={selectable}
          selected={selected}
          onToggle={onToggle}
          onToggleAll={onToggleAll}
          allSelected={allSelected}
          selectAllLabel={selectAllLabel}
          actionsWidth={actionsWidth}
          someSelected={selected.size > 0}
          renderActions={actionsWidth > 0 ? renderActions : undefined}
          onOpen={onOpen}
        />
      )}
      {paged && showTable && (
        <TablePagination
          component="div"
          count={source.count}
          page={Math.min(state.page, Math.max(1, Math.ceil(source.count / state.pageSize))) - 1}
          rowsPerPage={state.pageSize}
          rowsPerPageOptions={[25, 50, 100, 200]}
          onPageChange={(_, p) => {
            update({ page: p + 1 }, { replace: true });
            table.current?.scrollToIndex(p * state.pageSize);
          }}
          onRowsPerPageChange={(e) => update({ pageSize: Number(e.target.value) })}
          labelRowsPerPage={t('common.list.rowsPerPage')}
          labelDisplayedRows={({ from, to, count }) => t(source.totalIsEstimate ? 'common.list.rangeMore' : 'common.list.range', { from: formatInteger(from), to: formatInteger(to), count: formatInteger(count) })}
          getItemAriaLabel={(type) => t(`common.list.${type}Page`)}
        />
      )}
      <Menu anchorEl={more?.anchor ?? null} open={!!more} onClose={() => setMore(null)}>
        {more?.actions.map((a) => (
          <MenuItem key={a.label} sx={a.method === 'DELETE' ? { color: 'error.main' } : undefined} onClick={() => { const { row } = more; setMore(null); runRef.current(a, row); }}>
            {t(a.label)}
          </MenuItem>
        ))}
      </Menu>
      <ActionDialogs parts={action.parts} />
    </Frame>
  );
}

function NestedFrame({ children }: { title: string; description?: string; maxWidth?: number; children: ReactNode }) {
  return <Box component="section">{children}</Box>;
}
