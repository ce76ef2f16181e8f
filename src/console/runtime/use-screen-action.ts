// Running a screen action, for every screen kind (a list's row and bulk actions, a record's
// actions, a form's secondary actions): navigation (`to`), the file chooser of an upload, the
// confirmation, the busy state, the upload's progress, the call (path parameters from the row or
// record), the fields shown once (a new secret), the result box, the notice and `next`. Each
// screen says only what is its own: the expression context, the target (row or record), and what
// to do after a success (reload its rows, leave a deleted record). What it shows (the file chooser,
// progress, result box, confirmation, show-once box) is in ScreenActionParts.tsx, which a form
// loads lazily so the sign-in page stays small.
import { useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from './navigation.tsx';
import { errorText } from '../api/errors.ts';
import { notify } from '../app/notify.tsx';
import { noticeText } from './action-text.ts';
import { call, type OperationId } from '../../generated/client.gen.ts';
import { buildArgs, fillPathParams } from '../api/args.ts';
import { callAction, onceFields } from './action-call.ts';
import { navigationTarget, resolveObject, type ExpressionContext } from './expressions.ts';
import type { FilePickerHandle } from './list/FileAction.tsx';
import type { ScreenAction } from './screen-types.ts';

type Data = Record<string, unknown>;

/** The notice an action shows when it names none. */
const METHOD_NOTICE: Record<string, string> = { DELETE: 'common.deleted' };

/** 'stop': the screen has moved on (a deleted record's page is left), `next` is not followed. */
export type AfterAction = (action: ScreenAction, answer: Data | undefined, target: Data | undefined) => Promise<'stop' | void> | 'stop' | void;

export interface ScreenActionOptions {
  /** The expressions' context for an action's call on a target (row or record). */
  callContext: (target: Data | undefined) => ExpressionContext;
  /** The expressions' context for a navigation action's params. */
  linkContext: (target: Data | undefined) => ExpressionContext;
  /** The path relative targets (`to`, `next`) hang off. */
  base: string;
  /** What the screen does after a success, before `next`. */
  after?: AfterAction;
  /** The busy key of an action (default: its label): a row's button spins alone. */
  busyKey?: (action: ScreenAction, target: Data | undefined) => string;
  /** The call itself (default: the action's operation with its params and body; a form sends its fields). */
  call?: (action: ScreenAction, target: Data | undefined, file: File | undefined, onProgress: (percent: number) => void) => Promise<Data | undefined>;
  /** Checks before the call; false stops (a form's fields the action sends are invalid). */
  before?: (action: ScreenAction) => boolean;
  /** Shows a failure (default: an error line under the actions). */
  onError?: (error: unknown) => void;
}

export interface ScreenActions {
  /** The busy action's key, or null. */
  busy: string | null;
  /** The failure of the last action, as text (shown by the screen). */
  error: string | null;
  setError: (text: string | null) => void;
  /** Runs an action as its button does: navigate, pick a file, ask, or call. */
  run: (action: ScreenAction, target?: Data) => void;
  /** What ScreenActionParts.tsx shows. */
  parts: ActionParts;
}

/** The state the action's parts show, and their answers. */
export interface ActionParts {
  picker: RefObject<FilePickerHandle | null>;
  onFile: (action: ScreenAction, file: File) => void;
  onRefused: (text: string) => void;
  progress: number | null;
  result: { action: ScreenAction; answer: Data } | null;
  closeResult: () => void;
  confirming: ScreenAction | null;
  /** The record the action being confirmed is about (its words may name it). */
  confirmingTarget?: Data;
  /** The answer of the action's `confirmLoad`, which its words name as {{load.…}}. */
  confirmingLoaded?: Data;
  cancel: () => void;
  confirm: () => void;
  secrets: { field: string; label: string; value: string }[] | null;
  closeSecrets: () => void;
}

export function useScreenAction(o: ScreenActionOptions): ScreenActions {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ action: ScreenAction; target?: Data; loaded?: Data } | null>(null);
  const [secrets, setSecrets] = useState<{ field: string; label: string; value: string }[] | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<{ action: ScreenAction; answer: Data } | null>(null);
  const picker = useRef<FilePickerHandle>(null);
  /** The row or record an upload was chosen for: the chosen file comes back without it. */
  const pickedFor = useRef<Data | undefined>(undefined);

  const execute = async (action: ScreenAction, target?: Data, file?: File) => {
    if (o.before && !o.before(action)) return;
    setBusy(o.busyKey ? o.busyKey(action, target) : action.label);
    setError(null);
    setResult(null);
    try {
      const answer = (o.call ? await o.call(action, target, file, setProgress) : await callAction(action, o.callContext(target), target, file, setProgress)) as Data | undefined;
      const once = onceFields(action, answer, (f) => t(`fields.${f}`));
      if (once.length) setSecrets(once);
      if (action.result?.length && answer) setResult({ action, answer });
      const notice = action.notify ?? METHOD_NOTICE[action.method ?? ''];
      // The notice may name the answer's fields ({{result.going}}): a launch says what happened; with
      // `labelContext`, the record's words too (a scheduled campaign's date).
      // `notifyContext`: the answer's own variant first (a launch still preparing says so).
      if (notice) notify(notice, 'success', noticeText(t, (k) => i18n.exists(k), notice, action, target, answer as Record<string, unknown> | undefined));
      if ((await o.after?.(action, answer, target)) === 'stop') return;
      // `openFile`: a signed link to a file (a report file) is the browser's to follow: it downloads.
      const link = action.openFile ? answer?.[action.openFile] : undefined;
      if (typeof link === 'string' && link.startsWith('/') && !link.startsWith('//')) window.location.assign(link);
      // `next`: where the answer is shown (a launch's deployment: the deployments tab).
      if (action.next) navigate(navigationTarget(action.next, answer ?? {}, o.base));
    } catch (e) {
      if (o.onError) o.onError(e);
      else setError(errorText(t, e));
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  const run = (action: ScreenAction, target?: Data) => {
    if (action.to) return navigate(navigationTarget(action.to, target ?? {}, o.base, resolveObject(action.params, o.linkContext(target))));
    if (action.upload) {
      pickedFor.current = target;
      return picker.current?.open(action);
    }
    if (action.confirm && action.confirmLoad) return void openLoaded(action, target);
    if (action.confirm) return setConfirming({ action, target });
    void execute(action, target);
  };

  /** A confirmation that names another call's answer (a launch's credits): asked once that answer is in. */
  const openLoaded = async (action: ScreenAction, target?: Data) => {
    const load = action.confirmLoad!;
    setBusy(o.busyKey ? o.busyKey(action, target) : action.label);
    setError(null);
    try {
      const params = fillPathParams(load.operation, resolveObject(load.params, o.callContext(target)), target);
      const loaded = (await call(load.operation as OperationId, buildArgs(load.operation, params) as never)) as unknown as Data;
      setConfirming({ action, target, loaded });
    } catch (e) {
      if (o.onError) o.onError(e);
      else setError(errorText(t, e));
    } finally {
      setBusy(null);
    }
  };

  const parts: ActionParts = {
    picker,
    onFile: (a, file) => void execute(a, pickedFor.current, file),
    onRefused: setError,
    progress,
    result,
    closeResult: () => setResult(null),
    confirming: confirming?.action ?? null,
    confirmingTarget: confirming?.target,
    confirmingLoaded: confirming?.loaded,
    cancel: () => setConfirming(null),
    confirm: () => {
      const c = confirming!;
      setConfirming(null);
      void execute(c.action, c.target);
    },
    secrets,
    closeSecrets: () => setSecrets(null),
  };
  return { busy, error, setError, run, parts };
}
