// One screen action's call, for the list's actions (toolbar and rows) and a record's actions: the
// YAML's params and body resolved against the screen's values, the path names the YAML leaves out
// taken from the record (a row action on /things/{id} acts on its row), an optional file sent as
// the upload with its progress, and the fields of the answer shown once (a new secret).
import { call, type OperationId } from '../../generated/client.gen.ts';
import { buildArgs, fillPathParams } from '../api/args.ts';
import { resolveObject, resolveValue, type ExpressionContext } from './expressions.ts';
import type { ScreenAction } from './screen-types.ts';

type Data = Record<string, unknown>;

export function callAction(action: ScreenAction, local: ExpressionContext, record: Data | undefined, file: File | undefined, onProgress: (percent: number) => void): Promise<Data | undefined> {
  const op = action.operation!;
  const params = fillPathParams(op, resolveObject(action.params, local), record);
  const args = buildArgs(op, params, action.body ? resolveValue(action.body, local) : undefined);
  if (file) {
    const form = new FormData();
    form.append('file', file);
    onProgress(0);
    Object.assign(args, { form, onUploadProgress: (f: number) => onProgress(Math.round(f * 100)) });
  }
  return call(op as OperationId, args as never) as unknown as Promise<Data | undefined>;
}

/** The fields of an answer the action shows once (`showOnce`), with their labels. */
export function onceFields(action: ScreenAction, answer: Data | undefined, label: (field: string) => string): { field: string; label: string; value: string }[] {
  return (action.showOnce ?? []).filter((f) => typeof answer?.[f] === 'string' && answer[f]).map((f) => ({ field: f, label: label(f), value: String(answer![f]) }));
}
