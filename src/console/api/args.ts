// Operation arguments from flat values: names in the operation's path template become `params`,
// the rest `query` (GET) — the shape the generated client's types describe. The path names come
// from the generated client (`pathParams`), never from parsing paths here.
import { pathParams, type OperationId } from '../../generated/client.gen.ts';

type Data = Record<string, unknown>;

/** The names in an operation's path template (`/v1/things/{id}` → id). */
export const pathParamNames = (operationId: string): readonly string[] => pathParams[operationId as OperationId] ?? [];

/**
 * The params with the path names they leave out taken from `source`: a row action on
 * /things/{id} acts on its row, a form or detail at …/:id loads that record.
 */
export function fillPathParams(operationId: string, params: Data, source: Data | undefined): Data {
  const out = { ...params };
  for (const name of pathParamNames(operationId)) if (out[name] === undefined && source?.[name] !== undefined) out[name] = source[name];
  return out;
}

export function buildArgs(operationId: string, values: Record<string, unknown> = {}, body?: unknown): Record<string, unknown> {
  const inPath = new Set(pathParamNames(operationId));
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) (inPath.has(k) ? params : query)[k] = v;
  const args: Record<string, unknown> = {};
  if (Object.keys(params).length) args.params = params;
  if (Object.keys(query).length) args.query = query;
  if (body !== undefined) args.body = body;
  return args;
}
