// Rows of a list-convention operation ({ items, total, page, pageSize }) fetched page by page as
// the virtual window needs them, so 100,000 rows scroll without loading 100,000 rows. Pages are
// cached per query (operation + arguments + page size); answers for an older query are dropped.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { call, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';

export type Row = Record<string, unknown>;

export interface PageAnswer { items?: Row[]; total?: number }

export interface PagedRows {
  total: number | null;
  error: unknown;
  /** The row at an absolute index, or undefined while its page is on its way. */
  rowAt(index: number): Row | undefined;
  /** Asks for the pages covering rows first..last (inclusive). */
  ensure(first: number, last: number): void;
  /** Drops the cache and fetches again (after an action changed the rows). */
  reload(): void;
  /** Fetches the loaded pages again and swaps each in when it answers: no blank table meanwhile (periodic refresh). */
  refresh(): Promise<void>;
  /** Every row fetched so far, in order (the "select all loaded" checkbox). */
  loadedRows(): Row[];
  loading: boolean;
}

export function fetchPage(operation: string, values: Record<string, unknown>, page: number, pageSize: number): Promise<PageAnswer> {
  return call(operation as OperationId, buildArgs(operation, { ...values, page, pageSize }) as never) as Promise<PageAnswer>;
}

/** `operation` '' turns the hook off (a list whose operation is not paged). */
export function usePagedRows(operation: string, values: Record<string, unknown>, pageSize: number, firstPage: number): PagedRows {
  const signature = `${operation}|${pageSize}|${JSON.stringify(values)}`;
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const state = useRef({ signature: '', generation: 0, pages: new Map<number, Row[]>(), inflight: new Set<number>(), total: null as number | null, error: null as unknown });
  const args = useRef({ operation, values, pageSize });
  args.current = { operation, values, pageSize };

  const load = useCallback((page: number) => {
    const s = state.current;
    if (!args.current.operation) return;
    if (s.pages.has(page) || s.inflight.has(page)) return;
    s.inflight.add(page);
    const generation = s.generation;
    const { operation: op, values: v, pageSize: size } = args.current;
    fetchPage(op, v, page, size).then(
      (answer) => {
        if (state.current.generation !== generation) return;
        s.inflight.delete(page);
        s.pages.set(page, (answer.items ?? []).filter(Boolean));
        if (typeof answer.total === 'number') s.total = answer.total;
        s.error = null;
        bump();
      },
      (error: unknown) => {
        if (state.current.generation !== generation) return;
        s.inflight.delete(page);
        s.error = error;
        if (s.total === null) s.total = 0;
        bump();
      },
    );
  }, []);

  const reset = useCallback(() => {
    const s = state.current;
    s.generation++;
    s.pages = new Map();
    s.inflight = new Set();
    s.total = null;
    s.error = null;
  }, []);

  if (state.current.signature !== signature) {
    state.current.signature = signature;
    reset();
  }

  const generation = state.current.generation;
  useEffect(() => {
    load(Math.max(1, firstPage));
    // A new query starts at the page the state names; later pages follow the scroll.
  }, [generation, load]);

  const s = state.current;
  return {
    total: s.total,
    error: s.error,
    loading: s.inflight.size > 0,
    rowAt: (index) => s.pages.get(Math.floor(index / pageSize) + 1)?.[index % pageSize],
    ensure: (first, last) => {
      if (s.total === null) return;
      const lastPage = Math.max(1, Math.ceil(s.total / pageSize));
      for (let p = Math.floor(first / pageSize) + 1; p <= Math.min(lastPage, Math.floor(last / pageSize) + 1); p++) load(p);
    },
    reload: () => {
      reset();
      bump();
    },
    refresh: async () => {
      const generation = s.generation;
      const { operation: op, values: v, pageSize: size } = args.current;
      if (!op) return;
      const pages = s.pages.size ? [...s.pages.keys()] : [Math.max(1, firstPage)];
      await Promise.all(pages.map((page) => fetchPage(op, v, page, size).then(
        (answer) => {
          if (state.current.generation !== generation) return;
          s.pages.set(page, (answer.items ?? []).filter(Boolean));
          if (typeof answer.total === 'number') s.total = answer.total;
        },
        () => undefined, // a failed refresh keeps the rows shown; the next one tries again
      )));
      if (state.current.generation === generation) bump();
    },
    loadedRows: () => [...s.pages.entries()].sort(([a], [b]) => a - b).flatMap(([, rows]) => rows),
  };
}
