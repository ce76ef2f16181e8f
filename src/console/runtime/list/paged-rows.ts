// Rows of a list-convention operation ({ items, total, page, pageSize }) fetched page by page as
// the virtual window needs them, so 100,000 rows scroll without loading 100,000 rows. Pages are
// cached per query (operation + arguments + page size); answers for an older query are dropped.
// The page after a loaded one is asked for with that page's `next` cursor (`after`), which the
// server reads through the sort index however deep it is; a page reached by jumping is asked for
// by number. Past the server's counting bound (`totalIsEstimate`: "more than 1,000") the table
// grows by a page each time the last loaded page has a `next`, so every row can be scrolled to.
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { call, type OperationId } from '../../../generated/client.gen.ts';
import { buildArgs } from '../../api/args.ts';
import { withinPageWindow } from '../../../core/page-window.ts';

export type Row = Record<string, unknown>;

export interface PageAnswer { items?: Row[]; total?: number; next?: string | null; totalIsEstimate?: boolean }

export interface PagedRows {
  total: number | null;
  /** True when the server counted up to its bound only: `total` is then a lower bound ("más de …"). */
  totalIsEstimate: boolean;
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

export function fetchPage(operation: string, values: Record<string, unknown>, page: number, pageSize: number, after?: string | null): Promise<PageAnswer> {
  return call(operation as OperationId, buildArgs(operation, { ...values, page, pageSize, ...(after ? { after } : {}) }) as never) as Promise<PageAnswer>;
}

/** The rows a list shows: the total, or past the counting bound as far as the loaded pages reach (one page more while there is a `next`). */
function shownTotal(answer: PageAnswer, page: number, pageSize: number, known: number | null): number | null {
  if (typeof answer.total !== 'number') return known;
  if (!answer.totalIsEstimate) return answer.total;
  const reached = (page - 1) * pageSize + (answer.items?.length ?? 0) + (answer.next ? pageSize : 0);
  return Math.max(answer.total, known ?? 0, reached);
}

/**
 * The page a query opens on: the one its URL names, unless that page lies past the rows the
 * server serves by page number (src/core/page-window.ts; deeper pages are reached by
 * cursor while scrolling): a list reopened that deep starts at the top instead of failing.
 */
export function openingPage(page: number, pageSize: number): number {
  return withinPageWindow(page, pageSize) ? page : 1;
}

/** `operation` '' turns the hook off (a list whose operation is not paged). */
export function usePagedRows(operation: string, values: Record<string, unknown>, pageSize: number, firstPage: number): PagedRows {
  const signature = `${operation}|${pageSize}|${JSON.stringify(values)}`;
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const state = useRef({ signature: '', generation: 0, pages: new Map<number, Row[]>(), nexts: new Map<number, string>(), inflight: new Set<number>(), total: null as number | null, estimate: false, error: null as unknown });
  const args = useRef({ operation, values, pageSize });
  args.current = { operation, values, pageSize };

  const load = useCallback((page: number) => {
    const s = state.current;
    if (!args.current.operation) return;
    if (s.pages.has(page) || s.inflight.has(page)) return;
    s.inflight.add(page);
    const generation = s.generation;
    const { operation: op, values: v, pageSize: size } = args.current;
    fetchPage(op, v, page, size, s.nexts.get(page - 1)).then(
      (answer) => {
        if (state.current.generation !== generation) return;
        s.inflight.delete(page);
        s.pages.set(page, (answer.items ?? []).filter(Boolean));
        if (answer.next) s.nexts.set(page, answer.next);
        s.estimate = !!answer.totalIsEstimate;
        s.total = shownTotal(answer, page, size, s.total);
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
    s.nexts = new Map();
    s.inflight = new Set();
    s.total = null;
    s.estimate = false;
    s.error = null;
  }, []);

  if (state.current.signature !== signature) {
    state.current.signature = signature;
    reset();
  }

  const generation = state.current.generation;
  useEffect(() => {
    load(openingPage(firstPage, args.current.pageSize));
    // A new query starts at the page the state names; later pages follow the scroll.
  }, [generation, load]);

  const s = state.current;
  return {
    total: s.total,
    totalIsEstimate: s.estimate,
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
      const pages = s.pages.size ? [...s.pages.keys()] : [openingPage(firstPage, size)];
      await Promise.all(pages.map((page) => fetchPage(op, v, page, size, s.nexts.get(page - 1)).then(
        (answer) => {
          if (state.current.generation !== generation) return;
          s.pages.set(page, (answer.items ?? []).filter(Boolean));
          if (answer.next) s.nexts.set(page, answer.next);
          s.estimate = !!answer.totalIsEstimate;
          s.total = shownTotal(answer, page, size, s.total);
        },
        () => undefined, // a failed refresh keeps the rows shown; the next one tries again
      )));
      if (state.current.generation === generation) bump();
    },
    loadedRows: () => [...s.pages.entries()].sort(([a], [b]) => a - b).flatMap(([, rows]) => rows),
  };
}
