// A `kind: report` declaration: a filter form (JSON Schema) → a payload built from its values by
// pure data (`{ ClientsIds: $f.ClientsIds, DateStart: $f.range.start }`) → the operation → a table,
// a Vega-Lite chart of the top N rows (or of another part of the answer: `chart.itemsPath`), an
// optional totals line (`totals.path`: one figure per table column the answer's object holds) and
// CSV/XLSX export. Report calls show every problem of the answer's errors list (spec 7); a
// catalogue error with a `field` lands on that filter.
import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ErrorSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { call, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { setComponent } from '../../api/component.ts';
import { ApiError, errorText, problemText, serverEntry } from '../../api/errors.ts';
import { operationById } from '../../api/transport.ts';
import { useSession } from '../../api/session.ts';
import { Chart } from '../chart/Chart.tsx';
import { formatInteger } from '../format.ts';
import { pick, resolveObject, resolveValue, type ExpressionContext } from '../expressions.ts';
import { SchemaForm } from '../form/SchemaForm.tsx';
import { SubmitButton } from '../form/SubmitButton.tsx';
import { ExportButtons } from '../list/ExportButtons.tsx';
import type { Row } from '../list/paged-rows.ts';
import { VirtualTable } from '../list/VirtualTable.tsx';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, type ScreenDef, type ScreenProps } from '../screen-types.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';

type Data = Record<string, unknown>;

export default function ReportScreen(props: ScreenProps) {
  const screen = resolveScreen(props);
  if (!screen || screen.kind !== 'report' || !screen.schema || !screen.operation) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return <ReportView key={screen.id} screen={screen} />;
}

/** The payload the operation receives: the declaration's mapping over the filter values. */
export function reportPayload(screen: Pick<ScreenDef, 'payload'>, filters: Data, ctx: ExpressionContext = {}): Data {
  const out = resolveValue(screen.payload ?? {}, { ...ctx, form: filters }) as Data;
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

function ReportView({ screen }: { screen: ScreenDef }) {
  const { t } = useTranslation();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const ctx: ExpressionContext = { session: session as unknown as Data, query, route };
  const [filters, setFilters] = useState<Data>(() => resolveObject(screen.prefill, ctx));
  const [rows, setRows] = useState<Row[] | null>(null);
  const [answer, setAnswer] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<ErrorSchema | undefined>();
  const operation = screen.operation!;
  const method = operationById(operation)?.method ?? 'POST';
  const properties = (screen.schema!.properties ?? {}) as Record<string, unknown>;

  const run = async (values: Data) => {
    setBusy(true);
    setProblems([]);
    setFieldErrors(undefined);
    try {
      setComponent({ action: 'report' });
      const payload = reportPayload(screen, values, ctx);
      const fixed = resolveObject(screen.params, ctx);
      const args = method === 'GET' ? buildArgs(operation, { ...fixed, ...payload }) : buildArgs(operation, fixed, payload);
      const answer = await call(operation as OperationId, args as never);
      const items = pick(answer, screen.itemsPath);
      setAnswer(answer);
      setRows(Array.isArray(items) ? (items as Row[]).filter(Boolean) : []);
    } catch (error) {
      setRows(null);
      const list: string[] = [];
      const fields: Record<string, string[]> = {};
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
      setProblems([...new Set(list)]);
      setFieldErrors(Object.keys(fields).length ? (Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { __errors: v }])) as ErrorSchema) : undefined);
    } finally {
      setBusy(false);
    }
  };

  const chart = screen.chart;
  const columns = screen.columns ?? [];
  const chartRows = useMemo(() => {
    const picked = chart?.itemsPath ? pick(answer, chart.itemsPath) : rows;
    const list = Array.isArray(picked) ? (picked as Row[]).filter(Boolean) : [];
    const translate = Object.entries(chart?.translate ?? {});
    if (!translate.length) return list;
    return list.map((r) => ({ ...r, ...Object.fromEntries(translate.map(([field, prefix]) => [field, r[field] == null ? r[field] : t(`${prefix}.${String(r[field])}`)])) }));
  }, [chart, answer, rows, t]);
  const totals = useMemo(() => {
    const sums = screen.totals ? pick(answer, screen.totals.path) : undefined;
    if (!sums || typeof sums !== 'object') return [];
    return columns.filter((c) => typeof (sums as Data)[c.field] === 'number').map((c) => ({ label: c.label, value: (sums as Data)[c.field] as number }));
  }, [screen.totals, answer, columns]);
  const exportRows = useMemo(() => (onProgress: (d: number, total: number) => void) => Promise.resolve(rows ?? []).then((r) => (onProgress(r.length, r.length), r)), [rows]);

  return (
    <ScreenFrame title={t(screen.title)} description={screen.description ? t(screen.description) : undefined} maxWidth={1200}>
      <Box sx={{ maxWidth: 760 }}>
        <SchemaForm cacheKey={screen.id} schema={screen.schema!} uiSchema={screen.uiSchema} formData={filters} onChange={(d) => setFilters(d)} onSubmit={(d) => void run(d)} extraErrors={fieldErrors} disabled={busy}>
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
      {rows !== null && (
        <Box sx={{ mt: 3 }}>
          {rows.length === 0 ? (
            <Typography color="text.secondary">{t(screen.empty ?? 'common.report.noData')}</Typography>
          ) : (
            <>
              {chart && chartRows.length > 0 && <Chart spec={chart.spec} rows={chartRows} top={chart.itemsPath ? undefined : chart.top} sortBy={chart.sortBy} label={t(chart.label ?? screen.title)} />}
              {totals.length > 0 && (
                <Box component="dl" aria-label={t(screen.totals?.label ?? 'common.report.totals')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, my: 2, p: 1.5, bgcolor: 'action.hover', borderRadius: 1 }}>
                  <Typography component="span" variant="subtitle2" sx={{ alignSelf: 'center' }}>
                    {t(screen.totals?.label ?? 'common.report.totals')}
                  </Typography>
                  {totals.map((x) => (
                    <Box key={x.label} sx={{ m: 0 }}>
                      <Typography component="dt" variant="caption" color="text.secondary">
                        {t(x.label)}
                      </Typography>
                      <Typography component="dd" variant="body1" sx={{ m: 0, fontWeight: 600 }}>
                        {formatInteger(x.value)}
                      </Typography>
                    </Box>
                  ))}
                </Box>
              )}
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
                <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
                  {t('common.report.rows', { count: rows.length })}
                </Typography>
                <ExportButtons formats={screen.export ?? []} name={screen.exportName ?? screen.id} columns={columns} rows={exportRows} />
              </Box>
              <VirtualTable caption={t(screen.title)} columns={columns} count={rows.length} rowAt={(i) => rows[i]} idOf={(r) => r.id ?? JSON.stringify(r)} />
            </>
          )}
        </Box>
      )}
    </ScreenFrame>
  );
}
