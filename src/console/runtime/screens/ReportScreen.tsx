// A `kind: report` declaration: a filter form (JSON Schema) → a payload built from its values by
// pure data (`{ ClientsIds: $f.ClientsIds, DateStart: $f.range.start }`) → the operation → a table,
// a Vega-Lite chart of the top N rows (or of another part of the answer: `chart.itemsPath`), an
// optional totals line (`totals.path`: one figure per table column the answer's object holds) and
// CSV/XLSX export. `sections` add more results on the same filters, one under the other: another
// operation's answer, or another part of the report's own. Report calls show every problem of the
// answers' errors lists (spec 7), each once; a catalogue error with a `field` lands on that filter.
// `download` offers a file the server makes from the last run's payload (ReportDownload.tsx).
import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { ErrorSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from '../navigation.tsx';
import { call, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { setComponent } from '../../api/component.ts';
import { ApiError, errorText, problemText, serverEntry } from '../../api/errors.ts';
import { operationById } from '../../api/transport.ts';
import { useSession } from '../../api/session.ts';
import { Chart } from '../chart/Chart.tsx';
import { displayRows } from '../chart/display-rows.ts';
import { meaningScale, withMeaningColors } from '../chart/meaning-colors.ts';
import { formatInteger } from '../format.ts';
import { pick, resolveObject, resolveValue, type ExpressionContext } from '../expressions.ts';
import { hiddenByCondition } from '../form/field-visibility.ts';
import { SchemaForm } from '../form/SchemaForm.tsx';
import { SubmitButton } from '../form/SubmitButton.tsx';
import { ExportButtons } from '../list/ExportButtons.tsx';
import type { Row } from '../list/paged-rows.ts';
import { VirtualTable } from '../list/VirtualTable.tsx';
import { allows, permissionOf } from '../access.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { ReportDownload } from './ReportDownload.tsx';
import { resolveScreen, type ScreenDef, type ScreenProps } from '../screen-types.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';
import { canOpenMenuKey } from '../../shell/home.ts';
import { isSchedulableReport } from '../../../core/report-schedulable.ts';

type Data = Record<string, unknown>;

export default function ReportScreen(props: ScreenProps) {
  const screen = resolveScreen(props);
  if (!screen || screen.kind !== 'report' || !screen.schema || !screen.operation) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return <ReportView key={screen.id} screen={screen} />;
}

/** The payload the operation receives: the declaration's mapping over the filter values. */
export function reportPayload(screen: { payload?: Record<string, unknown> }, filters: Data, ctx: ExpressionContext = {}): Data {
  const out = resolveValue(screen.payload ?? {}, { ...ctx, form: filters }) as Data;
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** One result of a report: the screen's own, or one of its sections. */
export interface ReportPart {
  label?: string;
  /** Absent: the part reads the report's own answer (its first part's). */
  operation?: string;
  params?: Record<string, unknown>;
  payload?: Record<string, unknown>;
  itemsPath?: string;
  columns: NonNullable<ScreenDef['columns']>;
  chart?: ScreenDef['chart'];
  totals?: ScreenDef['totals'];
  export?: ScreenDef['export'];
  exportName?: string;
  empty?: string;
}

/** The report's parts: its own result first, then its sections. */
export function reportParts(screen: ScreenDef): ReportPart[] {
  const own: ReportPart = {
    operation: screen.operation!, columns: screen.columns ?? [], ...pickDefined({ params: screen.params, payload: screen.payload, itemsPath: screen.itemsPath, chart: screen.chart, totals: screen.totals, export: screen.export, exportName: screen.exportName ?? screen.id, empty: screen.empty }),
  };
  return [own, ...((screen.sections ?? []) as ReportPart[])];
}

const SCHEDULE_OPERATION = 'reportCenter.createSchedule';
const SCHEDULES_MENU_KEY = 'reports.scheduled';

/** The schedule form, prefilled with this report, its name and the body its filters made (reports-scheduled-form.yaml). */
export function scheduleAddress(screen: Pick<ScreenDef, 'id'>, name: string, payload: Data): string {
  const query = new URLSearchParams({ screen: screen.id, name: name.slice(0, 80), payload: JSON.stringify(payload) });
  return `/Reports/Scheduled/new?${query}`;
}

const pickDefined = <T extends Record<string, unknown>>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

function ReportView({ screen }: { screen: ScreenDef }) {
  const { t } = useTranslation();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const ctx: ExpressionContext = { session: session as unknown as Data, query, route };
  const [filters, setFilters] = useState<Data>(() => resolveObject(screen.prefill, ctx));
  const parts = useMemo(() => reportParts(screen), [screen]);
  const download = screen.download;
  // The answer of each part that calls an operation (by index); null until the report ran.
  const [answers, setAnswers] = useState<(unknown | undefined)[] | null>(null);
  const [busy, setBusy] = useState(false);
  // The filters of the last run that answered (the server-made file uses the same payload).
  const [ranWith, setRanWith] = useState<Data | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema | undefined>();
  const properties = (screen.schema!.properties ?? {}) as Record<string, unknown>;
  const navigate = useNavigate();
  // `showWhen`: a filter the other filters' values do not call for is neither shown nor sent
  // (its value is dropped, so an upload's parameters or the payload never carry it).
  const hidden = useMemo(() => new Set(hiddenByCondition(screen, filters, ctx)), [screen, filters]);
  const shownOnly = (d: Data): Data => {
    const drop = hiddenByCondition(screen, d, ctx);
    return drop.length ? Object.fromEntries(Object.entries(d).filter(([k]) => !drop.includes(k))) : d;
  };
  // Any report with a table can be received on a schedule (the server runs the screen's operation
  // for the days each run covers): offered to who may schedule reports and reach their page.
  const schedulable = !!session && isSchedulableReport(screen, permissionOf({ operation: screen.operation })) && allows(session, permissionOf({ operation: SCHEDULE_OPERATION })) && canOpenMenuKey(session, SCHEDULES_MENU_KEY);

  const callPart = async (part: ReportPart, values: Data): Promise<unknown> => {
    const operation = part.operation!;
    const method = operationById(operation)?.method ?? 'POST';
    const payload = reportPayload(part, values, ctx);
    const fixed = resolveObject(part.params, ctx);
    const args = method === 'GET' ? buildArgs(operation, { ...fixed, ...payload }) : buildArgs(operation, fixed, payload);
    return call(operation as OperationId, args as never);
  };

  const run = async (values: Data) => {
    setBusy(true);
    setProblems([]);
    setFieldErrors(undefined);
    try {
      setComponent({ action: 'report' });
      // Every part that calls an operation runs at once; parts without one read the first answer.
      const settled = await Promise.allSettled(parts.map((part, i) => (i === 0 || part.operation ? callPart(part, values) : Promise.resolve(undefined))));
      const list: string[] = [];
      const fields: Record<string, string[]> = {};
      for (const r of settled) {
        if (r.status === 'fulfilled') continue;
        const error = r.reason;
        if (error instanceof ApiError) {
          const field = serverEntry(error.code)?.field;
          const text = errorText(t, error, 'errors.client.generateReport');
          if (field && field in properties) (fields[field] ??= []).push(text);
          else list.push(text);
          for (const p of error.errors) {
            if (p.field && p.field in properties) (fields[p.field] ??= []).push(problemText(t, p));
            else list.push(problemText(t, p));
          }
        } else list.push(errorText(t, error, 'errors.client.generateReport'));
      }
      const own = settled.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
      setAnswers(settled.every((r) => r.status === 'rejected') ? null : parts.map((part, i) => (i === 0 || part.operation ? own[i] : own[0])));
      setRanWith(settled[0].status === 'fulfilled' ? values : null);
      setProblems([...new Set(list)]);
      setFieldErrors(Object.keys(fields).length ? (Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { __errors: [...new Set(v)] }])) as ErrorSchema) : undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <ScreenFrame title={t(screen.title)} description={screen.description ? t(screen.description) : undefined} maxWidth={1200}>
      <Box sx={{ maxWidth: 760 }}>
        <SchemaForm cacheKey={screen.id} schema={screen.schema!} uiSchema={screen.uiSchema} formData={filters} onChange={(d) => setFilters(shownOnly(d))} onSubmit={(d) => void run(shownOnly(d))} extraErrors={fieldErrors} hidden={hidden} disabled={busy}>
          <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
            <SubmitButton busy={busy} disabled={busy}>
              {t(screen.submitLabel ?? 'common.report.run')}
            </SubmitButton>
          </Box>
        </SchemaForm>
      </Box>
      {problems.length > 0 && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {problems.length === 1 ? (
            problems[0]
          ) : (
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </Box>
          )}
        </Alert>
      )}
      {answers !== null && ranWith && ((download && allows(session, permissionOf(download))) || schedulable) && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 2, flexWrap: 'wrap' }}>
          {download && allows(session, permissionOf(download)) && (
            <ReportDownload label={download.label} fileName={download.fileName} fetchFile={() => callPart({ ...parts[0], operation: download.operation }, ranWith)} />
          )}
          {schedulable && (
            <Tooltip title={t('common.report.scheduleHint')} describeChild>
              <Button variant="outlined" startIcon={<ScheduleIcon />} onClick={() => navigate(scheduleAddress(screen, t(screen.title), reportPayload(parts[0], ranWith, ctx)))}>
                {t('common.report.schedule')}
              </Button>
            </Tooltip>
          )}
        </Box>
      )}
      {answers !== null &&
        parts.map((part, i) =>
          answers[i] === undefined ? null : <ReportResult key={i} part={part} answer={answers[i]} title={t(part.label ?? screen.title)} heading={part.label ? t(part.label) : undefined} />,
        )}
    </ScreenFrame>
  );
}

/** One part's result: its chart, totals line, row count with export, and table. */
function ReportResult({ part, answer, title, heading }: { part: ReportPart; answer: unknown; title: string; heading?: string }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const chart = part.chart;
  const columns = part.columns;
  const rows = useMemo(() => {
    const items = pick(answer, part.itemsPath);
    // A part may name one object of the answer (getImpFtpReport's folder): shown as its one row.
    if (items && typeof items === 'object' && !Array.isArray(items)) return [items as Row];
    return Array.isArray(items) ? (items as Row[]).filter(Boolean) : [];
  }, [answer, part.itemsPath]);
  const { chartRows, chartSpec } = useMemo(() => {
    const picked = chart?.itemsPath ? pick(answer, chart.itemsPath) : rows;
    const list = Array.isArray(picked) ? (picked as Row[]).filter(Boolean) : [];
    const translated = chart ? displayRows(list, chart, t) : list;
    const fold = chart?.fold;
    // Each series in the colour of its meaning (delivered green, failed red…), labelled as the legend reads it.
    const meaning = chart ? meaningScale(chart, list, t, theme) : null;
    // Folded here, not by Vega's fold: the legend then reads each field's label, in the user's language.
    const folded = fold ? translated.flatMap((r) => fold.fields.map((f) => ({ ...r, [fold.key]: t(`fields.${f}`), [fold.value]: r[f] }))) : translated;
    return { chartRows: folded, chartSpec: chart ? withMeaningColors(chart.spec, meaning) : {} };
  }, [chart, answer, rows, t, theme]);
  const totals = useMemo(() => {
    const sums = part.totals ? pick(answer, part.totals.path) : undefined;
    if (!sums || typeof sums !== 'object') return [];
    return columns.filter((c) => typeof (sums as Data)[c.field] === 'number').map((c) => ({ label: c.label, value: (sums as Data)[c.field] as number }));
  }, [part.totals, answer, columns]);
  const exportRows = useMemo(() => (onProgress: (d: number, total: number) => void) => Promise.resolve(rows).then((r) => (onProgress(r.length, r.length), r)), [rows]);

  return (
    <Box component="section" aria-label={heading} sx={{ mt: 3 }}>
      {heading && (
        <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
          {heading}
        </Typography>
      )}
      {rows.length === 0 ? (
        <Typography color="text.secondary">{t(part.empty ?? 'common.report.noData')}</Typography>
      ) : (
        <>
          {chart && chartRows.length > 0 && <Chart spec={chartSpec} rows={chartRows} top={chart.itemsPath ? undefined : chart.top} sortBy={chart.sortBy} label={t(chart.label ?? title)} />}
          {totals.length > 0 && (
            <Box role="group" aria-label={t(part.totals?.label ?? 'common.report.totals')} sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, my: 2, p: 1.5, bgcolor: 'action.hover', borderRadius: 1 }}>
              <Typography component="span" variant="subtitle2">
                {t(part.totals?.label ?? 'common.report.totals')}
              </Typography>
              <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, m: 0 }}>
                {totals.map((x) => (
                  <div key={x.label}>
                    <Typography component="dt" variant="caption" color="text.secondary">
                      {t(x.label)}
                    </Typography>
                    <Typography component="dd" variant="body1" sx={{ m: 0, fontWeight: 600 }}>
                      {formatInteger(x.value)}
                    </Typography>
                  </div>
                ))}
              </Box>
            </Box>
          )}
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
            <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
              {t('common.report.rows', { count: rows.length })}
            </Typography>
            <ExportButtons formats={part.export ?? []} name={part.exportName ?? 'report'} columns={columns} rows={exportRows} />
          </Box>
          <VirtualTable caption={title} columns={columns} count={rows.length} rowAt={(i) => rows[i]} idOf={(r) => r.id ?? JSON.stringify(r)} />
        </>
      )}
    </Box>
  );
}
