// A stand-in for a list-convention operation (GET with page, pageSize, sort, order, q and filters,
// answering { items, total, page, pageSize }) over rows in memory: what the server does, enough
// for stories and the benchmark page.
import type { StubRequest } from './stub-api.ts';

export type Row = Record<string, unknown>;

const sorted = new WeakMap<readonly Row[], Map<string, Row[]>>();

/** Sorting 100,000 rows once per (rows, field, order), not once per page. */
function sortRows(rows: readonly Row[], field: string, order: string): Row[] {
  let byKey = sorted.get(rows);
  if (!byKey) sorted.set(rows, (byKey = new Map()));
  const key = `${field}|${order}`;
  let out = byKey.get(key);
  if (!out) {
    const dir = order === 'desc' ? -1 : 1;
    out = [...rows].sort((a, b) => (String(a[field]) < String(b[field]) ? -dir : String(a[field]) > String(b[field]) ? dir : 0));
    byKey.set(key, out);
  }
  return out;
}

export function listAnswer(rows: readonly Row[], query: Record<string, string>, search: readonly string[] = ['name']) {
  const page = Math.max(1, Number(query.page ?? 1));
  const pageSize = Math.min(200, Math.max(1, Number(query.pageSize ?? 50)));
  let out = (query.sort ? sortRows(rows, query.sort, query.order ?? 'asc') : rows) as Row[];
  const q = (query.q ?? '').toLowerCase();
  if (q) out = out.filter((r) => search.some((f) => String(r[f] ?? '').toLowerCase().includes(q)));
  for (const [k, v] of Object.entries(query)) {
    // Filters on fields of the rows; others (date ranges) are the server's business.
    if (['page', 'pageSize', 'sort', 'order', 'q'].includes(k) || !rows.length || !(k in rows[0])) continue;
    out = out.filter((r) => String(r[k]) === v);
  }
  return { items: out.slice((page - 1) * pageSize, page * pageSize), total: out.length, page, pageSize };
}

/** A stub handler answering the list convention over `rows()` (read at each request). */
export const listHandler = (rows: () => readonly Row[], search?: readonly string[]) => (req: StubRequest) => listAnswer(rows(), req.query, search);
