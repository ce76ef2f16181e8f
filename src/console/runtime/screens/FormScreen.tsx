// The generic form screen: renders a `kind: form` declaration of config/screens with the schema
// form, calls its operation and applies its effects. No screen-specific code lives here.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { landingFor } from '../../../core/access.ts';
import { call, useOperation, type OperationId } from '../../../generated/client.gen.ts';
import { routes } from '../../../generated/routes.gen.ts';
import type { SessionUser } from '../../../generated/types.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { setComponent } from '../../api/component.ts';
import { ApiError, errorText, problemText, serverEntry } from '../../api/errors.ts';
import { getSession, startSession, updateSession, useSession } from '../../api/session.ts';
import { clearExpiredFlag, isClientPath } from '../../api/transport.ts';
import { notify } from '../../app/notify.tsx';
import { homeFor } from '../../shell/home.ts';
import { interpolate, resolveObject, type ExpressionContext } from '../expressions.ts';
import { ProfilePicture } from '../form/ProfilePicture.tsx';
import { SchemaForm } from '../form/SchemaForm.tsx';
import { errorsFor } from '../form/validation.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { screenById, type ScreenAction, type ScreenDef, type ScreenProps } from '../screen-types.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';

type Data = Record<string, unknown>;
type Props = Record<string, Record<string, unknown>>;

const SESSION_LANDING_STATES = new Set(['needsNewPassword', 'ExpiredPassword']);

/** The screen to render: a `sessionScreen` replaces it for a signed-in user who must land here. */
export function effectiveScreen(screenId: string | null, session: SessionUser | null): ScreenDef | undefined {
  const screen = screenById(screenId);
  if (screen?.sessionScreen && session && SESSION_LANDING_STATES.has(session.state) && landingFor(session) === screen.route) {
    return screenById(screen.sessionScreen) ?? screen;
  }
  return screen;
}

export default function FormScreen({ screenId, menuKey }: ScreenProps) {
  const session = useSession();
  const screen = effectiveScreen(screenId, session);
  if (!screen || screen.kind !== 'form' || !screen.schema) return <NotAvailableScreen screenId={screenId} menuKey={menuKey} />;
  return <FormView key={screen.id} screen={screen} />;
}

/** Only the properties the schema declares, without client-only confirmations (x-sameAs). */
function bodyOf(schema: RJSFSchema, data: Data, only?: readonly string[]): Data {
  const props = (schema.properties ?? {}) as Props;
  const out: Data = {};
  for (const [k, p] of Object.entries(props)) {
    if (only && !only.includes(k)) continue;
    if (p['x-sameAs'] || data[k] === undefined) continue;
    out[k] = data[k];
  }
  return out;
}

function FormView({ screen }: { screen: ScreenDef }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const routeParams = useParams();
  const session = useSession();
  const { mutate } = useSWRConfig();
  const schema = screen.schema!;
  const properties = (schema.properties ?? {}) as Props;
  const ctx: ExpressionContext = { session: session as unknown as Data, query, route: routeParams };

  const initial = useMemo(() => resolveObject(screen.prefill, { session: getSession() as unknown as Data, query, route: routeParams }), []);
  const [formData, setFormData] = useState<Data>(initial);
  const [formKey, setFormKey] = useState(0);
  const [serverErrors, setServerErrors] = useState<ErrorSchema | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());

  const hidden = useMemo(() => new Set(Object.keys(screen.reveal ?? {}).filter((f) => !revealed.has(f))), [screen.reveal, revealed]);

  // `load`: prefill from an operation (own profile).
  const loadArgs = screen.load ? buildArgs(screen.load.operation, resolveObject(screen.load.params, ctx)) : null;
  const loaded = useOperation((screen.load?.operation ?? 'system.health') as OperationId, loadArgs as never, { revalidateOnFocus: false });
  const filledFromLoad = useRef(false);
  useEffect(() => {
    if (!screen.load || !loaded.data || filledFromLoad.current) return;
    filledFromLoad.current = true;
    const record = loaded.data as unknown as Data;
    setFormData((prev) => ({ ...Object.fromEntries(Object.keys(properties).filter((k) => record[k] !== undefined && record[k] !== null).map((k) => [k, record[k]])), ...prev }));
  }, [loaded.data]);

  const onChange = useCallback((data: Data, field?: string) => {
    setFormData(data);
    if (field) setServerErrors((prev) => {
      if (!prev || !(field in prev)) return prev;
      const { [field]: _gone, ...rest } = prev as Data;
      return Object.keys(rest).length ? (rest as ErrorSchema) : undefined;
    });
  }, []);

  /** Puts an error answer on its fields (catalogue `field`, `x-errorCode`, `errors[]`), else above the buttons. */
  const showError = (error: unknown) => {
    const fields: Record<string, string[]> = {};
    const add = (field: string, text: string) => (fields[field] ??= []).push(text);
    let general: string | null = null;
    if (error instanceof ApiError) {
      const toReveal = Object.entries(screen.reveal ?? {}).filter(([, r]) => r.onError === error.code).map(([f]) => f);
      if (toReveal.length) setRevealed((prev) => new Set([...prev, ...toReveal]));
      const field = serverEntry(error.code)?.field ?? Object.keys(properties).find((k) => properties[k]['x-errorCode'] === error.code) ?? null;
      const text = errorText(t, error, screen.onErrorDefault);
      const shown = (f: string) => f in properties && (!hidden.has(f) || toReveal.includes(f));
      if (field && shown(field)) add(field, text);
      else general = text;
      for (const p of error.errors) {
        if (p.field && shown(p.field)) add(p.field, problemText(t, p));
        else if (!general) general = problemText(t, p);
      }
    } else {
      general = errorText(t, error, screen.onErrorDefault);
    }
    setServerErrors(Object.keys(fields).length ? (Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { __errors: v }])) as ErrorSchema) : undefined);
    setFormError(general);
  };

  const afterSuccess = async (answer: Data, data: Data) => {
    const effect = screen.onSuccess;
    if (effect?.notify) notify(effect.notify);
    switch (effect?.effect) {
      case 'startSession': {
        const user = startSession(String(answer.clientToken ?? ''));
        if (!user) return setFormError(errorText(t, null));
        clearExpiredFlag();
        const clientHome = effect.tokenKind === 'client' ? routes.find((r) => isClientPath(r.path) && !r.path.includes(':'))?.path : undefined;
        navigate(landingFor(user) ? homeFor(user) : (clientHome ?? homeFor(user)), { replace: true });
        return;
      }
      case 'navigate':
        navigate(interpolate(effect.to ?? '/', data));
        return;
      case 'updateSession': {
        if (typeof answer.state === 'string') updateSession({ state: answer.state as SessionUser['state'] });
        const user = getSession();
        if (user) navigate(homeFor(user), { replace: true });
        return;
      }
      case 'reset':
        setFormData(initial);
        setFormKey((k) => k + 1);
        return;
      case 'stay':
      default:
        if (loadArgs && screen.load) await mutate([screen.load.operation, JSON.stringify(loadArgs)]);
    }
  };

  const submit = async (data: Data) => {
    if (!screen.operation) return;
    setBusy('submit');
    setFormError(null);
    setServerErrors(undefined);
    try {
      setComponent({ action: screen.operation.endsWith('.patch') ? 'edit' : 'view' });
      const body = { ...bodyOf(schema, data), ...resolveObject(screen.values, ctx) };
      const answer = (await call(screen.operation as OperationId, buildArgs(screen.operation, resolveObject(screen.params, ctx), body) as never)) as unknown as Data;
      await afterSuccess(answer ?? {}, data);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  };

  const runSecondary = async (action: ScreenAction) => {
    const fields = action.fields ?? [];
    const problems = errorsFor(fields, formData, schema, t);
    if (Object.keys(problems).length) {
      setServerErrors(problems);
      return;
    }
    setBusy(action.label);
    setFormError(null);
    setServerErrors(undefined);
    try {
      const body = { ...bodyOf(schema, formData, fields), ...resolveObject(action.body, ctx) };
      await call(action.operation as OperationId, buildArgs(action.operation, {}, body) as never);
      if (action.notify) notify(action.notify);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <ScreenFrame title={t(screen.title)} description={screen.description ? t(screen.description) : undefined}>
      {screen.picture && <ProfilePicture get={screen.picture.get} upload={screen.picture.upload} params={resolveObject(screen.picture.params, ctx)} />}
      <SchemaForm key={formKey} cacheKey={screen.id} schema={schema} uiSchema={screen.uiSchema} formData={formData} onChange={onChange} onSubmit={(d) => void submit(d)} extraErrors={serverErrors} hidden={hidden} disabled={busy !== null}>
        {formError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {formError}
          </Alert>
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
          <Button type="submit" variant="contained" disabled={busy !== null} startIcon={busy === 'submit' ? <CircularProgress size={18} color="inherit" aria-label={t('common.sending')} /> : undefined}>
            {t(screen.submitLabel ?? 'common.save')}
          </Button>
          {(screen.secondaryActions ?? []).map((a) => (
            <Button key={a.label} type="button" variant="outlined" disabled={busy !== null} onClick={() => void runSecondary(a)} startIcon={busy === a.label ? <CircularProgress size={18} color="inherit" /> : undefined}>
              {t(a.label)}
            </Button>
          ))}
        </Box>
      </SchemaForm>
      {!!screen.links?.length && (
        <Box component="nav" sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, mt: 3 }}>
          {screen.links.map((l) => (
            <Link key={l.to} component={RouterLink} to={l.to}>
              {t(l.label)}
            </Link>
          ))}
        </Box>
      )}
    </ScreenFrame>
  );
}
