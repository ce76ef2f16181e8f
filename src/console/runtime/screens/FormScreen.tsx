// The generic form screen: renders a `kind: form` declaration of config/screens with the schema
// form, calls its operation and applies its effects. No screen-specific code lives here.
// A form with `edit` or `view` has modes: create at …/new, edit at …/:id/edit (the record loaded
// by `load`), view at …/:id (read-only, with Edit when the user may). After a successful save it
// goes back to view (spec 4: "after each successful response the current action resets to view").
// Server errors land on their fields; leaving with unsaved changes asks first.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import LinearProgress from '@mui/material/LinearProgress';
import { RouteLink, useLocation, useNavigate, useParams, useSearchParams } from '../navigation.tsx';
import { useSWRConfig } from 'swr';
import { landingFor } from '../../../core/access.ts';
import { call, useOperation, type OperationId } from '../../../generated/client.gen.ts';
import type { SessionUser } from '../../../generated/types.gen.ts';
import { buildArgs, fillPathParams } from '../../api/args.ts';
import { setComponent } from '../../api/component.ts';
import { ApiError, errorText, problemText, serverEntry } from '../../api/errors.ts';
import { getSession, startSession, updateSession, useSession } from '../../api/session.ts';
import { clearExpiredFlag } from '../../api/transport.ts';
import { notify } from '../../app/notify.tsx';
import { homeAfterSignIn, homeFor } from '../../shell/home.ts';
import { interpolate, resolveObject, rowApplies, type ExpressionContext } from '../expressions.ts';
import { allows, permissionOf } from '../access.ts';
import { readsAffectedBy } from '../cache.ts';
import { withChunkReload } from '../../app/chunk-reload.ts';
import { useDirtyGuard } from '../form/dirty-guard.ts';
import { SubmitButton } from '../form/SubmitButton.tsx';
import { hiddenByCondition } from '../form/field-visibility.ts';
import { typedPrefill } from '../form/prefill-types.ts';
import { PlainForm } from '../form/PlainForm.tsx';
import { plainErrorsFor, plainFormFits } from '../form/plain-form.ts';
import { deferredFields, type DeferredUploads, type UploadSpec } from '../form/upload.ts';
import { ScreenFrame } from '../ScreenFrame.tsx';
import { screenById, type ScreenDef, type ScreenProps } from '../screen-types.ts';
import { useScreenAction } from '../use-screen-action.ts';
import NotAvailableScreen from './NotAvailableScreen.tsx';
import { menuNodes } from '../../../generated/menu.gen.ts';

type Data = Record<string, unknown>;
type Props = Record<string, Record<string, unknown>>;

// The dialogs load when they are needed: the sign-in page, a form too, stays light.
const ConfirmDialog = lazy(withChunkReload(() => import('../ConfirmDialog.tsx').then((m) => ({ default: m.ConfirmDialog }))));
const RecordFields = lazy(withChunkReload(() => import('../cells/RecordFields.tsx')));
const SecretOnce = lazy(withChunkReload(() => import('../form/SecretOnce.tsx').then((m) => ({ default: m.SecretOnce }))));
const ActionInline = lazy(withChunkReload(() => import('../ScreenActionParts.tsx').then((m) => ({ default: m.ActionInline }))));
const ActionDialogs = lazy(withChunkReload(() => import('../ScreenActionParts.tsx').then((m) => ({ default: m.ActionDialogs }))));

// The schema form (rjsf + Ajv) loads with the first form the plain form cannot draw (// the sign-in page loads neither); its whole-form check comes with it, for secondary actions.
let schemaFormErrorsFor: typeof import('../form/validation.ts').errorsFor | null = null;
const SchemaForm = lazy(
  withChunkReload(() =>
    Promise.all([import('../form/SchemaForm.tsx'), import('../form/validation.ts')]).then(([form, validation]) => {
      schemaFormErrorsFor = validation.errorsFor;
      return { default: form.SchemaForm };
    }),
  ),
);
const ProfilePicture = lazy(withChunkReload(() => import('../form/ProfilePicture.tsx').then((m) => ({ default: m.ProfilePicture }))));

const SESSION_LANDING_STATES = new Set(['needsNewPassword', 'ExpiredPassword']);

/** The screen to render: a `sessionScreen` replaces it for a signed-in user who must land here. */
export function effectiveScreen(screen: ScreenDef | undefined, session: SessionUser | null): ScreenDef | undefined {
  if (screen?.sessionScreen && session && SESSION_LANDING_STATES.has(session.state) && landingFor(session) === screen.route) {
    return screen.sessionScreenDef ?? screenById(screen.sessionScreen) ?? screen;
  }
  return screen;
}

export default function FormScreen(props: ScreenProps) {
  const session = useSession();
  const { id } = useParams();
  const screen = effectiveScreen(props.screen ?? screenById(props.screenId), session);
  if (!screen || screen.kind !== 'form' || !screen.schema) return <NotAvailableScreen screenId={props.screenId} menuKey={props.menuKey} />;
  return <FormView key={`${screen.id}:${id ?? ''}`} screen={screen} menuKey={props.menuKey} />;
}

export type FormMode = 'single' | 'create' | 'edit' | 'view';

/**
 * The mode a URL asks for: …/new creates, …/:id/edit edits, …/:id shows. Forms without modes are
 * 'single'. A menu entry of its own that grants only creating or only editing (the spec's
 * /Agents/agentManagement/createAgent and …/editAgent/:id) opens the form in that mode.
 */
export function modeFor(screen: Pick<ScreenDef, 'edit' | 'view'>, pathname: string, entry?: { path: string; actions: readonly string[] } | null): FormMode {
  if (/\/new\/?$/.test(pathname)) return 'create';
  if (entry?.actions.length === 1 && entry.actions[0] === 'create' && pathname.replace(/\/+$/, '') === entry.path) return 'create';
  if (entry?.actions.length === 1 && entry.actions[0] === 'edit' && screen.edit) return 'edit';
  if (!screen.edit && !screen.view) return 'single';
  if (/\/edit\/?$/.test(pathname)) return 'edit';
  return screen.view ? 'view' : 'edit';
}

/** The list path a form's URLs hang off: /profile/management for /profile/management/7/edit. */
export const formBase = (pathname: string, id: string | undefined) =>
  pathname.replace(/\/new\/?$/, '').replace(/\/edit\/?$/, '').replace(id ? new RegExp(`/${id}/?$`) : /$^/, '');

/** The body of an edit: a PATCH sends what changed; other methods send every field. */
export function editBody(method: string | undefined, body: Data, loaded: Data): Data {
  if (method !== 'PATCH') return body;
  return Object.fromEntries(Object.entries(body).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(loaded[k])));
}

/**
 * Only the properties the schema declares, without client-only confirmations (x-sameAs); with
 * `takes` (the operation's body properties, from the generator) only those: an image uploaded
 * through its own operation or a carried id never reaches a body that refuses unknown properties.
 */
function bodyOf(schema: RJSFSchema, data: Data, only?: readonly string[], takes?: readonly string[]): Data {
  const props = (schema.properties ?? {}) as Props;
  const out: Data = {};
  for (const [k, p] of Object.entries(props)) {
    if (only && !only.includes(k)) continue;
    if (takes && !takes.includes(k)) continue;
    if (p['x-sameAs'] || data[k] === undefined) continue;
    out[k] = data[k];
  }
  return out;
}


function FormView({ screen, menuKey }: { screen: ScreenDef; menuKey: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [query] = useSearchParams();
  const routeParams = useParams();
  const session = useSession();
  const { mutate } = useSWRConfig();
  const schema = screen.schema!;
  const properties = (schema.properties ?? {}) as Props;
  const ctx: ExpressionContext = { session: session as unknown as Data, query, route: routeParams };
  const entry = menuKey ? (menuNodes.find((n) => n.key === menuKey) ?? null) : null;
  const [mode, setMode] = useState<FormMode>(() => modeFor(screen, pathname, entry));
  // The router keeps this instance when …/:id/edit becomes …/:id (after a save, Cancel, Edit):
  // the mode follows the address. In-place modes (no record id in the path) are left alone.
  const [modePath, setModePath] = useState(pathname);
  if (modePath !== pathname) {
    setModePath(pathname);
    setMode(modeFor(screen, pathname, entry));
  }
  const base = formBase(pathname, routeParams.id);
  // The sign-in family (text fields only, one mode) draws without rjsf; every other form with it.
  const plain = mode === 'single' && !screen.load && !screen.picture && !screen.showWhen && !screen.fieldsBy && plainFormFits(schema, screen.uiSchema);
  const withLoad = mode !== 'create' && !!screen.load;

  const initial = useMemo(() => typedPrefill(properties, resolveObject(screen.prefill, { session: getSession() as unknown as Data, query, route: routeParams })), []);
  const [formData, setFormData] = useState<Data>(initial);
  const [baseline, setBaseline] = useState<Data>(initial);
  const [secrets, setSecrets] = useState<{ list: { field: string; label: string; value: string }[]; then: () => void } | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [serverErrors, setServerErrors] = useState<ErrorSchema | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [result, setResult] = useState<Data | null>(null);
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());

  // Hidden: fields revealed only by an error, and (`showWhen`) those whose condition the values do not meet.
  const unmet = hiddenByCondition(screen, formData, ctx).join();
  const hidden = useMemo(() => new Set([...Object.keys(screen.reveal ?? {}).filter((f) => !revealed.has(f)), ...unmet.split(',').filter(Boolean)]), [screen.reveal, revealed, unmet]);

  // The body the current mode's operation takes, and the uploads that wait for the Save.
  const takes = mode === 'edit' && screen.edit ? screen.edit.body : screen.create?.body;
  const pendingFiles = useRef(new Map<string, File>());
  const deferred = useMemo<DeferredUploads>(() => ({ fields: new Set(deferredFields(properties, takes)), files: pendingFiles.current }), [properties, takes]);


  // `load`: the record to edit or show (or the own profile to prefill).
  const loadArgs = withLoad && screen.load ? buildArgs(screen.load.operation, fillPathParams(screen.load.operation, resolveObject(screen.load.params, ctx), routeParams)) : null;
  const loaded = useOperation((screen.load?.operation ?? 'system.health') as OperationId, loadArgs as never, { revalidateOnFocus: false });
  const filledFromLoad = useRef(false);
  const [record, setRecord] = useState<Data>({});
  const [filled, setFilled] = useState(false);
  useEffect(() => {
    if (!withLoad || !loaded.data || filledFromLoad.current) return;
    filledFromLoad.current = true;
    const answer = loaded.data as unknown as Data;
    const values = Object.fromEntries(Object.keys(properties).filter((k) => answer[k] !== undefined && answer[k] !== null).map((k) => [k, answer[k]]));
    // `loadAs`: a field the record names otherwise (a schedule's ClientsIds are its accountIds).
    for (const [field, from] of Object.entries(screen.loadAs ?? {})) if (answer[from] !== undefined && answer[from] !== null) values[field] = answer[from];
    setRecord(values);
    // A record to edit wins over anything the form set meanwhile; a single form keeps its prefill.
    const merge = (prev: Data) => (mode === 'single' ? { ...values, ...prev } : { ...prev, ...values });
    setFormData(merge);
    setBaseline(merge);
    setFilled(true);
  }, [loaded.data]);

  const formContext = useMemo(() => ({ deferredUploads: deferred, record: withLoad ? (loaded.data as unknown as Data | undefined) : undefined }), [deferred, withLoad, loaded.data]);

  const dirty = mode !== 'view' && !!screen.dirtyGuard && JSON.stringify(formData) !== JSON.stringify(baseline);
  const guard = useDirtyGuard(dirty);
  // `editWhen`: the records the edit operation takes (not a system role), read on the loaded record
  // (none is offered before it has loaded).
  const canEdit = !!screen.edit && allows(session, permissionOf(screen.edit)) && (!screen.editWhen || (!!loaded.data && rowApplies(screen.editWhen, loaded.data as unknown as Data, ctx)));
  const recordId = routeParams.id;

  /** Back to the read-only record (after a save, or Cancel). */
  const goView = (id: unknown) => {
    guard.allowLeave();
    if (screen.view) {
      if (id !== undefined && id !== null && base !== pathname) return navigate(`${base}/${encodeURIComponent(String(id))}`, { replace: true });
      return setMode('view');
    }
    // No read-only view: back to the list the form was opened from.
    if (base !== pathname) return navigate(base, { replace: true });
    setMode(modeFor(screen, pathname, entry));
  };
  /** Cancel: back where the form was opened from; leaving with changes asks first (the guard). */
  const cancel = () => {
    if (mode === 'edit' && screen.view && !recordId) {
      setFormData(record);
      setBaseline(record);
      return setMode('view');
    }
    navigate(mode === 'edit' && screen.view && recordId ? `${base}/${encodeURIComponent(recordId)}` : base);
  };
  const goEdit = () => {
    if (recordId) return navigate(`${base}/${encodeURIComponent(recordId)}/edit`);
    setMode('edit');
  };

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
      let unplaced: string | null = null;
      for (const p of error.errors) {
        if (p.field && shown(p.field)) add(p.field, problemText(t, p));
        else unplaced ??= problemText(t, p);
      }
      // A message shows once: on its field when it has one; above the buttons only what no field took.
      if (!Object.keys(fields).length) general = unplaced ?? text;
      else if (unplaced) general = unplaced;
    } else {
      general = errorText(t, error, screen.onErrorDefault);
    }
    setServerErrors(Object.keys(fields).length ? (Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { __errors: v }])) as ErrorSchema) : undefined);
    setFormError(general);
  };

  const afterSuccess = async (answer: Data, data: Data) => {
    const effect = screen.onSuccess;
    setBaseline(data);
    if (effect?.result?.length) setResult(answer);
    if (effect?.showOnce?.length) {
      const list = effect.showOnce.filter((f) => typeof answer[f] === 'string' && answer[f]).map((f) => ({ field: f, label: t(`fields.${f}`), value: String(answer[f]) }));
      if (list.length) {
        // The secret is shown before anything else happens; closing the box continues.
        return setSecrets({ list, then: () => void finish(answer, data) });
      }
    }
    await finish(answer, data);
  };

  const finish = async (answer: Data, data: Data) => {
    const effect = screen.onSuccess;
    if (effect?.notify) notify(effect.notify);
    else if (mode === 'create' || mode === 'edit') notify('common.saved');
    guard.allowLeave();
    if (mode === 'create' || mode === 'edit' || effect?.effect === 'view') {
      if (mode === 'edit') await mutate([screen.load!.operation, JSON.stringify(loadArgs)], undefined, { revalidate: true });
      return goView(answer[screen.idField ?? 'id'] ?? recordId);
    }
    switch (effect?.effect) {
      case 'startSession': {
        const user = startSession(String(answer.clientToken ?? ''));
        if (!user) return setFormError(errorText(t, null));
        clearExpiredFlag();
        navigate(await homeAfterSignIn(user, effect.tokenKind), { replace: true });
        return;
      }
      case 'navigate':
        // {name} takes the form's values first, then the answer's and the route's (an edit form
        // at …/:id/edit going back to …/{id}).
        navigate(interpolate(effect.to ?? '/', { ...routeParams, ...answer, ...data }));
        return;
      case 'updateSession': {
        if (typeof answer.state === 'string') updateSession({ state: answer.state as SessionUser['state'] });
        const user = getSession();
        if (user) navigate(homeFor(user), { replace: true });
        return;
      }
      case 'reset':
        setFormData(initial);
        setBaseline(initial);
        setFormKey((k) => k + 1);
        return;
      case 'stay':
      default:
        if (loadArgs && screen.load) await mutate([screen.load.operation, JSON.stringify(loadArgs)]);
    }
  };

  const submit = async (data: Data) => {
    if (!screen.operation || mode === 'view') return;
    // Before its record has loaded a form saves nothing (it is not drawn either: waitsForLoad below).
    if (withLoad && !filled && !loaded.error) return;
    const editing = mode === 'edit' && !!screen.edit;
    const operation = editing ? screen.edit!.operation : screen.operation;
    setBusy('submit');
    setFormError(null);
    setServerErrors(undefined);
    setResult(null);
    try {
      const action = editing ? 'edit' : mode === 'create' ? 'create' : screen.operation.endsWith('.patch') ? 'edit' : 'view';
      setComponent({ action });
      const shown = bodyOf(schema, data, undefined, takes);
      for (const field of hiddenByCondition(screen, data, ctx)) delete shown[field];
      const full = { ...shown, ...resolveObject(screen.values, ctx) };
      const body = editing ? editBody(screen.edit!.method, full, record) : full;
      const uploads = [...pendingFiles.current].filter(([f]) => deferred.fields.has(f) && data[f] !== undefined);
      if (editing && Object.keys(body).length === 0 && !uploads.length) return goView(recordId);
      const params = fillPathParams(operation, resolveObject(editing ? screen.edit!.params : screen.params, ctx), routeParams);
      // Only a new picture changed: nothing to send to the record's own operation.
      const answer = editing && Object.keys(body).length === 0 ? { ...record } : (((await call(operation as OperationId, buildArgs(operation, params, body) as never)) as unknown as Data) ?? {});
      await sendUploads(uploads, answer, data);
      // What the save changed is fetched again where it shows next (the list it returns to).
      void mutate(readsAffectedBy(operation));
      await afterSuccess(answer, data);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  };

  /**
   * The files chosen in fields the body does not take, each through its own `x-upload` operation,
   * once the record is saved (`$record` is the saved record). The record stays saved when one
   * fails: the error is told, and the file can be chosen again from the record.
   */
  const sendUploads = async (uploads: [string, File][], answer: Data, data: Data) => {
    for (const [field, file] of uploads) {
      const spec = properties[field]['x-upload'] as UploadSpec;
      const op = spec.operation!;
      const form = new FormData();
      form.append('file', file);
      try {
        const params = fillPathParams(op, resolveObject(spec.params, { ...ctx, record: answer, form: data }), routeParams);
        await call(op as OperationId, { ...buildArgs(op, params), form } as never);
        pendingFiles.current.delete(field);
      } catch (error) {
        notify('common.upload.failed', 'error', `${t('common.upload.failed')} ${errorText(t, error)}`);
      }
    }
  };

  // Secondary actions (send a code again) send the form's fields they name, checked first.
  const secondary = useScreenAction({
    callContext: () => ctx,
    linkContext: () => ctx,
    base,
    before: (action) => {
      const fields = action.fields ?? [];
      const problems = plain ? plainErrorsFor(schema, formData, t, fields) : (schemaFormErrorsFor?.(fields, formData, schema, t) ?? {});
      if (Object.keys(problems).length) {
        setServerErrors(problems);
        return false;
      }
      setFormError(null);
      setServerErrors(undefined);
      return true;
    },
    call: async (action) => {
      const body = { ...bodyOf(schema, formData, action.fields ?? []), ...resolveObject(action.body, ctx) };
      return (await call(action.operation as OperationId, buildArgs(action.operation!, {}, body) as never)) as unknown as Data | undefined;
    },
    onError: showError,
  });
  /** The save or a secondary action is under way: the form and its buttons wait. */
  const working = busy !== null || secondary.busy !== null;
  const secondaryParts = (screen.secondaryActions ?? []).some((a) => a.upload || a.confirm || a.showOnce?.length || a.result?.length);

  const viewing = mode === 'view';
  const fixedFields = useMemo(() => (mode === 'edit' && screen.edit?.readonly?.length ? new Set(screen.edit.readonly) : undefined), [mode, screen.edit]);
  // A form with a record (to edit, to show, or a single form's own settings) is drawn once it has
  // loaded. A single form drawn before would hold its schema defaults, which then won over the
  // loaded values, and its Save, which replaces the whole record (the API settings: the authorised
  // IPs, the FTP folder), would wipe what was stored.
  const waitsForLoad = withLoad;
  const loading = waitsForLoad && !loaded.error && !filled;
  const title = t(screen.title);
  const formButtons = (
    <>
      {formError && (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {formError}
        </Alert>
      )}
      {!viewing && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
          <SubmitButton busy={busy === 'submit'} disabled={working}>
            {t(screen.submitLabel ?? 'common.save')}
          </SubmitButton>
          {(mode === 'edit' || mode === 'create') && (
            <Button type="button" onClick={cancel}>
              {t('common.cancel')}
            </Button>
          )}
          {(screen.secondaryActions ?? []).map((a) => (
            <Button key={a.label} type="button" variant="outlined" disabled={working} onClick={() => secondary.run(a)} startIcon={secondary.busy === a.label ? <CircularProgress size={18} color="inherit" /> : undefined}>
              {t(a.label)}
            </Button>
          ))}
        </Box>
      )}
    </>
  );
  return (
    <ScreenFrame title={title} description={screen.description ? t(screen.description) : undefined}>
      {mode !== 'single' && (
        <Box sx={{ display: 'flex', gap: 1, mb: 2 }} data-testid="form-mode" data-mode={mode}>
          {viewing && canEdit && (
            <Button variant="contained" onClick={goEdit}>
              {t('common.edit')}
            </Button>
          )}
          {viewing && base !== pathname && (
            <Button component={RouteLink} to={base}>
              {t('common.back')}
            </Button>
          )}
        </Box>
      )}
      {(screen.notices ?? []).filter((n) => rowApplies(n.when, { session: ctx.session }, ctx)).map((n) => (
        <Alert key={n.text} severity={n.severity ?? 'warning'} sx={{ mb: 2 }}>
          {t(n.text)}
        </Alert>
      ))}
      {screen.picture && (
        <Suspense fallback={null}>
          <ProfilePicture get={screen.picture.get} upload={screen.picture.upload} params={resolveObject(screen.picture.params, ctx)} />
        </Suspense>
      )}
      {loading && <LinearProgress aria-label={t('common.loading')} sx={{ mb: 2 }} />}
      {waitsForLoad && loaded.error ? (
        <Alert severity="error" role="alert">
          {errorText(t, loaded.error)}
        </Alert>
      ) : (
        !loading && (
          plain ? (
            <PlainForm key={`${formKey}:${mode}`} schema={schema} uiSchema={screen.uiSchema} formData={formData} onChange={onChange} onSubmit={(d) => void submit(d)} extraErrors={serverErrors} hidden={hidden} disabled={working}>
              {formButtons}
            </PlainForm>
          ) : (
            <Suspense fallback={<LinearProgress aria-label={t('common.loading')} />}>
              <SchemaForm key={`${formKey}:${mode}`} cacheKey={screen.id} schema={schema} uiSchema={screen.uiSchema} formData={formData} onChange={onChange} onSubmit={(d) => void submit(d)} extraErrors={serverErrors} hidden={hidden} disabled={working} readonly={viewing} readonlyFields={fixedFields} context={formContext}>
                {formButtons}
              </SchemaForm>
            </Suspense>
          )
        )
      )}
      {secondaryParts && (
        <Suspense fallback={null}>
          <ActionInline parts={secondary.parts} />
          {secondary.error && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {secondary.error}
            </Alert>
          )}
        </Suspense>
      )}
      {result && screen.onSuccess?.result && (
        <Box component="section" aria-label={t('common.result')} data-testid="form-result" role="status" sx={{ mt: 3, p: 2, border: 1, borderColor: 'divider', borderRadius: 1 }}>
          <Typography variant="subtitle2" component="h2" sx={{ mb: 1.5 }}>
            {t('common.result')}
          </Typography>
          <Suspense fallback={<LinearProgress aria-label={t('common.loading')} />}>
            <RecordFields fields={screen.onSuccess.result} record={result} />
          </Suspense>
        </Box>
      )}
      {!!screen.links?.length && (
        <Box component="nav" sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, mt: 3 }}>
          {screen.links.map((l) => (
            <Link key={l.to} component={RouteLink} to={interpolate(l.to, { ...routeParams, ...formData })}>
              {t(l.label)}
            </Link>
          ))}
        </Box>
      )}
      <Suspense fallback={null}>
        {secondaryParts && <ActionDialogs parts={secondary.parts} />}
        {guard.asking && <ConfirmDialog open title={t('common.unsaved.title')} message={t('common.unsaved.message')} confirmLabel={t('common.unsaved.leave')} danger onCancel={guard.stay} onConfirm={guard.leave} />}
        {secrets && (
          <SecretOnce
            secrets={secrets.list}
            onClose={() => {
              const then = secrets.then;
              setSecrets(null);
              then();
            }}
          />
        )}
      </Suspense>
    </ScreenFrame>
  );
}
