// Operation arguments from flat values: names in the operation's path template become `params`,
// the rest `query` (GET) — the shape the generated client's types describe.
import { operationById } from './transport.ts';

export function buildArgs(operationId: string, values: Record<string, unknown> = {}, body?: unknown): Record<string, unknown> {
  const op = operationById(operationId);
  const inPath = new Set([...(op?.path.matchAll(/\{(\w+)\}/g) ?? [])].map((m) => m[1]));
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) (inPath.has(k) ? params : query)[k] = v;
  const args: Record<string, unknown> = {};
  if (Object.keys(params).length) args.params = params;
  if (Object.keys(query).length) args.query = query;
  if (body !== undefined) args.body = body;
  return args;
}
