// A `kind: wizard` declaration: a form in steps (each a group of fields). Next validates the
// fields of the step; Back keeps every value; the last step submits everything to the operation.
// A server error goes to its field and the wizard returns to that field's step. A step with
// `when` is taken only when the values so far meet it (the date of a scheduled campaign); the
// values of a step not taken are not sent, nor are fields the operation's body does not take when
// it refuses others (a picker that only prefills, a carried value: `create.body`). A change empties
// the fields that depend on it in any step (a campaign's template when its channel changes).
import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from '../navigation.tsx';
import { call, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { setComponent } from '../../api/component.ts';
import { ApiError, errorText, problemText, serverEntry } from '../../api/errors.ts';
import { useSession } from '../../api/session.ts';
import { notify } from '../../app/notify.tsx';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { interpolate, resolveObject, rowApplies, type ExpressionContext } from '../expressions.ts';
import { useDirtyGuard } from '../form/dirty-guard.ts';
import { SchemaForm } from '../form/SchemaForm.tsx';
import { SubmitButton } from '../form/SubmitButton.tsx';
import { SecretOnce } from '../form/SecretOnce.tsx';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { resolveScreen, type ScreenDef, type ScreenProps } from '../screen-types.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';

type Data = Record<string, unknown>;

export default function WizardScreen(props: ScreenProps) {
  const screen = resolveScreen(props);
  if (!screen || screen.kind !== 'wizard' || !screen.schema || !screen.steps?.length) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return <WizardView key={screen.id} screen={screen} />;
}

const stepSchemas = new Map<string, RJSFSchema>();

/** The schema of one step: its fields and their required rules. Built once per step (stable identity). */
export function stepSchema(screen: ScreenDef, index: number): RJSFSchema {
  const key = `${screen.id}#${index}`;
  let s = stepSchemas.get(key);
  if (!s) {
    const fields = screen.steps![index].fields;
    const all = (screen.schema!.properties ?? {}) as Record<string, unknown>;
    s = {
      ...screen.schema!,
      required: ((screen.schema!.required as string[] | undefined) ?? []).filter((r) => fields.includes(r)),
      properties: Object.fromEntries(fields.map((f) => [f, all[f]])),
    } as RJSFSchema;
    stepSchemas.set(key, s);
  }
  return s;
}

function WizardView({ screen }: { screen: ScreenDef }) {
  const { t } = useTranslation();
  const session = useSession();
  const [query] = useSearchParams();
  const route = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const steps = screen.steps!;
  const ctx: ExpressionContext = { session: session as unknown as Data, query, route };
  const initial = useMemo(() => resolveObject(screen.prefill, ctx), []); // first render's values
  const [step, setStep] = useState(0);
  const [data, setData] = useState<Data>(initial);
  const [busy, setBusy] = useState(false);
  const [serverErrors, setServerErrors] = useState<ErrorSchema | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<{ field: string; label: string; value: string }[] | null>(null);
  const [done, setDone] = useState(false);
  const guard = useDirtyGuard(!done && !!screen.dirtyGuard && JSON.stringify(data) !== JSON.stringify(initial));
  // The steps taken with the values so far; `step` indexes the declared steps.
  const taken = steps.map((s) => rowApplies(s.when, data, { ...ctx, row: data }));
  const nextStep = taken.findIndex((ok, i) => ok && i > step);
  const previousStep = taken.map((ok, i) => (ok && i < step ? i : -1)).filter((i) => i >= 0).pop() ?? -1;
  const last = nextStep === -1;
  const properties = (screen.schema!.properties ?? {}) as Record<string, Record<string, unknown>>;

  const stepOf = (field: string) => Math.max(0, steps.findIndex((s) => s.fields.includes(field)));

  const leave = (answer: Data) => {
    guard.allowLeave();
    const to = screen.onSuccess?.to;
    navigate(to ? interpolate(to, { ...data, ...answer }) : pathname.replace(/\/[^/]+$/, '') || '/', { replace: true });
  };

  const finish = async (all: Data) => {
    setBusy(true);
    setFormError(null);
    setServerErrors(undefined);
    try {
      setComponent({ action: 'create' });
      const body: Data = {};
      const skipped = new Set(steps.filter((s) => !rowApplies(s.when, all, { ...ctx, row: all })).flatMap((s) => s.fields));
      const takes = screen.create?.body;
      for (const [k, v] of Object.entries(all)) if (k in properties && !properties[k]['x-sameAs'] && !skipped.has(k) && (!takes || takes.includes(k)) && v !== undefined) body[k] = v;
      Object.assign(body, resolveObject(screen.values, ctx));
      const answer = ((await call(screen.operation as OperationId, buildArgs(screen.operation!, resolveObject(screen.params, ctx), body) as never)) ?? {}) as unknown as Data;
      setDone(true);
      notify(screen.onSuccess?.notify ?? 'common.saved');
      const once = (screen.onSuccess?.showOnce ?? []).filter((f) => typeof answer[f] === 'string' && answer[f]);
      if (once.length) {
        setSecrets(once.map((f) => ({ field: f, label: t(`fields.${f}`), value: String(answer[f]) })));
        return;
      }
      if (screen.onSuccess?.effect !== 'stay') leave(answer);
    } catch (error) {
      const fields: Record<string, string[]> = {};
      let general: string | null = null;
      if (error instanceof ApiError) {
        const field = serverEntry(error.code)?.field ?? null;
        const text = errorText(t, error);
        if (field && field in properties) (fields[field] ??= []).push(text);
        else general = text;
        for (const p of error.errors) {
          if (p.field && p.field in properties) (fields[p.field] ??= []).push(problemText(t, p));
          else general ??= problemText(t, p);
        }
      } else general = errorText(t, error);
      const withErrors = Object.keys(fields);
      if (withErrors.length) setStep(Math.min(...withErrors.map(stepOf)));
      setServerErrors(withErrors.length ? (Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { __errors: v }])) as ErrorSchema) : undefined);
      setFormError(general);
    } finally {
      setBusy(false);
    }
  };

  const current = steps[step];
  return (
    <ScreenFrame title={t(screen.title)} description={screen.description ? t(screen.description) : undefined} maxWidth={760}>
      <Stepper activeStep={steps.filter((_, i) => taken[i] && i < step).length} alternativeLabel sx={{ mb: 3 }}>
        {steps.filter((_, i) => taken[i]).map((s) => (
          <Step key={s.label}>
            <StepLabel>{t(s.label)}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Typography component="h2" variant="h6" sx={{ mb: 1 }}>
        {t(current.label)}
      </Typography>
      {current.description && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t(current.description)}
        </Typography>
      )}
      <SchemaForm
        key={step}
        cacheKey={`${screen.id}#${step}`}
        schema={stepSchema(screen, step)}
        uiSchema={screen.uiSchema}
        cascadeSchema={screen.schema}
        formData={data}
        onChange={(d, field) => {
          setData((prev) => ({ ...prev, ...d }));
          if (field) setServerErrors((prev) => {
            if (!prev || !(field in prev)) return prev;
            const { [field]: _gone, ...rest } = prev as Data;
            return Object.keys(rest).length ? (rest as ErrorSchema) : undefined;
          });
        }}
        onSubmit={(d) => {
          const all = { ...data, ...d };
          setData(all);
          if (last) void finish(all);
          else setStep(nextStep);
        }}
        extraErrors={serverErrors}
        disabled={busy || done}
      >
        {formError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {formError}
          </Alert>
        )}
        <Box sx={{ display: 'flex', gap: 1, mt: 3 }}>
          <Button type="button" disabled={previousStep < 0 || busy} onClick={() => setStep(previousStep)}>
            {t('common.wizard.back')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <SubmitButton busy={busy} disabled={busy || done}>
            {last ? t(screen.submitLabel ?? 'common.save') : t('common.wizard.next')}
          </SubmitButton>
        </Box>
      </SchemaForm>
      <ConfirmDialog open={guard.asking} title={t('common.unsaved.title')} message={t('common.unsaved.message')} confirmLabel={t('common.unsaved.leave')} danger onCancel={guard.stay} onConfirm={guard.leave} />
      <SecretOnce
        secrets={secrets}
        onClose={() => {
          setSecrets(null);
          if (screen.onSuccess?.effect !== 'stay') leave({});
        }}
      />
    </ScreenFrame>
  );
}
