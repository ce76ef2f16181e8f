// The state of a list (page, pageSize, sort, order, q and the filters) kept in the URL query, so
// back/forward and reload show the same rows. A nested list (a detail tab) keeps it in memory.
// A change of what is listed (sort, search, a filter, the page size) is a new history entry and
// starts at page 1; the page a scroll reaches replaces the current entry.
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from '../navigation.tsx';

export interface ListState {
  page: number;
  pageSize: number;
  sort?: string;
  order: 'asc' | 'desc';
  q: string;
  filters: Record<string, string>;
}

export interface ListStateDefaults { pageSize: number; sort?: string; order?: 'asc' | 'desc'; filters: readonly string[]; maxPageSize?: number }

const int = (v: string | null, fallback: number, min: number, max: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
};

export function parseListState(query: URLSearchParams, d: ListStateDefaults): ListState {
  const filters: Record<string, string> = {};
  for (const f of d.filters) {
    const v = query.get(f);
    if (v !== null && v !== '') filters[f] = v;
  }
  const order = query.get('order');
  return {
    page: int(query.get('page'), 1, 1, 1_000_000),
    pageSize: int(query.get('pageSize'), d.pageSize, 1, d.maxPageSize ?? 200),
    sort: query.get('sort') || d.sort,
    order: order === 'asc' || order === 'desc' ? order : (d.order ?? 'asc'),
    q: query.get('q') ?? '',
    filters,
  };
}

/** The query string of a state, without the defaults (short, shareable URLs). */
export function writeListState(base: URLSearchParams, s: ListState, d: ListStateDefaults): URLSearchParams {
  const out = new URLSearchParams(base);
  for (const k of ['page', 'pageSize', 'sort', 'order', 'q', ...d.filters]) out.delete(k);
  if (s.page > 1) out.set('page', String(s.page));
  if (s.pageSize !== d.pageSize) out.set('pageSize', String(s.pageSize));
  // The default sort stays out of the URL; any other sort is written with its order.
  if (s.sort && s.sort !== d.sort) {
    out.set('sort', s.sort);
    out.set('order', s.order);
  } else if (s.sort && s.order !== (d.order ?? 'asc')) out.set('order', s.order);
  if (s.q) out.set('q', s.q);
  for (const [k, v] of Object.entries(s.filters)) if (v !== '') out.set(k, v);
  return out;
}

export type ListStatePatch = Partial<Omit<ListState, 'filters'>> & { filters?: Record<string, string | undefined> };

export function applyPatch(s: ListState, patch: ListStatePatch): ListState {
  const filters = { ...s.filters };
  for (const [k, v] of Object.entries(patch.filters ?? {})) {
    if (v === undefined || v === '') delete filters[k];
    else filters[k] = v;
  }
  const narrows = patch.sort !== undefined || patch.order !== undefined || patch.q !== undefined || patch.filters !== undefined || patch.pageSize !== undefined;
  return { ...s, ...patch, filters, page: patch.page ?? (narrows ? 1 : s.page) };
}

export function useListState(defaults: ListStateDefaults, inUrl: boolean): [ListState, (patch: ListStatePatch, options?: { replace?: boolean }) => void] {
  const [query, setQuery] = useSearchParams();
  const [local, setLocal] = useState<ListState>(() => parseListState(new URLSearchParams(), defaults));
  const fromUrl = useMemo(() => parseListState(query, defaults), [query, defaults]);
  const state = inUrl ? fromUrl : local;
  const update = useCallback(
    (patch: ListStatePatch, options: { replace?: boolean } = {}) => {
      if (!inUrl) return setLocal((s) => applyPatch(s, patch));
      setQuery((prev) => writeListState(prev, applyPatch(parseListState(prev, defaults), patch), defaults), { replace: options.replace ?? false });
    },
    [inUrl, setQuery, defaults],
  );
  return [state, update];
}
