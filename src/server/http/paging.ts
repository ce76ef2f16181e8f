// The list convention every paged list follows: query page, pageSize, sort, order, q (+ filters
// the handler applies); answer { items, total, page, pageSize }. Sorting, search and counting run
// in SQL. The sort column comes from the handler's fixed map, never from the request's text (the
// declared `sort` enum already limits it), and the row id breaks ties so pages never overlap.
//
// Speed at 100,000 rows (tests/bench/server-lists.ts): no page costs more than COUNT_BOUND rows of
// counting or one page of reading, however deep it is.
// - Bounded total: the rows are counted up to COUNT_BOUND. Past it the answer says `total`
//   COUNT_BOUND with `totalIsEstimate: true` ("more than 1,000", as GitHub shows "1,000+" of its searches)
//   instead of counting the whole table on every page; below it the total is exact.
// - Keyset paging: every full page answers `next`, an opaque cursor holding the page's last sort
//   value and row id; a request with `after: next` reads the rows after that one through the sort
//   index (WHERE (sort, id) > (value, id) … LIMIT pageSize) instead of skipping page × pageSize
//   rows. A row inserted or deleted meanwhile neither repeats nor hides another one. `page`
//   without a cursor still works (OFFSET) within the first PAGE_WINDOW rows, which is as far as a
//   person turns pages by number; a page number past it is refused (99931 on `page`, naming
//   `after`) rather than paid for by skipping tens of thousands of rows on every call — the
//   window Elasticsearch calls max_result_window (10,000) and answers search_after past it
//   (src/core/page-window.ts). The console follows `next` as it scrolls, and its exports page by
//   `next` too. NULL sort values (sorted last ascending, first
//   descending, PostgreSQL's default) are read by a second statement at the edge of the non-null
//   run, so the index stays usable on both sides.
// - A `q` of 3 or more characters first reads the ids of at most FEW_ROWS + 1 matches. When that is
//   all of them (the usual case for a search), their number is the total and the page is read
//   among those ids, so no query ever walks the sort index hoping to meet matches (a trigram
//   index, where one exists, finds them: migration 0204). Otherwise counting and paging go on as
//   above. A shorter `q` can't use a trigram index and is searched by a scan.
// - `narrow` paging (opt-in) orders and skips over the filtered rows' ids alone, with no joined
//   columns, and then reads the joined columns of the page's rows only.
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { failFields, fieldError } from '../errors/api-error.ts';
import { PAGE_WINDOW, withinPageWindow } from '../../core/page-window.ts';

export interface ListQuery { page?: number; pageSize?: number; sort?: string; order?: 'asc' | 'desc'; q?: string; after?: string }
export interface Page<T> {
  items: T[]; total: number; page: number; pageSize: number;
  /** Cursor of the rows after this page (`after`), null on a page that is not full. */
  next?: string | null;
  /** True when more than COUNT_BOUND rows match: `total` is then COUNT_BOUND, a lower bound. */
  totalIsEstimate?: boolean;
}

export interface PageOptions<O, T> {
  /** API sort field -> SQL column reference ("users.full_name"). */
  sortable: Record<string, string>;
  /** Used when the request names no sort. */
  defaultSort: { column: string; order: 'asc' | 'desc' };
  /** The unique column that makes the order total ("users.id"). */
  tieBreaker: string;
  /** Columns the free-text `q` is searched in (case-insensitive substring). */
  search: string[];
  map: (row: O) => T;
  /**
   * Page over the ids first (ORDER BY … LIMIT/OFFSET selecting only `tieBreaker`), then read the
   * selected columns for those ids. Pays off when the base query joins other tables; only for
   * lists whose sort columns are table columns (not select aliases) and whose tie breaker is
   * unique per row.
   */
  narrow?: boolean;
  /** False when a sort column is a select alias (a WHERE can't name it): no `next`, `after` refused. */
  keyset?: boolean;
}

/** Up to this many matches of a `q`, the matching ids are read and counted in one go. */
export const FEW_ROWS = 1000;
/** Trigram indexes find substrings of at least 3 characters; a shorter `q` is searched by a scan. */
export const MIN_INDEXED_Q = 3;
/** Totals are exact up to this many rows; past it `total` is this with `totalIsEstimate`. */
export const COUNT_BOUND = 1000;
export { PAGE_WINDOW };

/** ILIKE pattern for "contains q", with the LIKE wildcards in q taken literally. */
export const containsPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What a cursor holds: the sort it belongs to, and the last row's sort value (as text) and id. */
interface Cursor { sort: string; order: 'asc' | 'desc'; value: string | null; id: string }

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.sort, c.order, c.value, c.id])).toString('base64url');

function decodeCursor(after: string, sort: string, order: 'asc' | 'desc'): Cursor {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  const ok = Array.isArray(parts) && parts.length === 4 && parts[0] === sort && parts[1] === order &&
    (parts[2] === null || typeof parts[2] === 'string') && typeof parts[3] === 'string';
  // A cursor of another sort or order (or not a cursor) would start at a meaningless place.
  if (!ok) throw failFields([fieldError('after', '99931', 'not a cursor of this sort and order')]);
  const [, , value, id] = parts as [string, 'asc' | 'desc', string | null, string];
  return { sort, order, value, id };
}

const SORT_VALUE = 'page_sort_value';
const ROW_ID = 'page_row_id';

export async function paginate<DB, TB extends keyof DB, O, T>(
  base: SelectQueryBuilder<DB, TB, O>,
  query: ListQuery,
  options: PageOptions<O, T>,
): Promise<Page<T>> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 50;
  let qb = base;
  const q = query.q?.trim();
  if (q && options.search.length) {
    const pattern = containsPattern(q);
    qb = qb.where(({ or }) => or(options.search.map((column) => sql<boolean>`${sql.ref(column)} ilike ${pattern}`))) as typeof qb;
  }
  const named = query.sort ? options.sortable[query.sort] : undefined;
  const column = named ?? options.defaultSort.column;
  const order = named ? (query.order ?? 'asc') : options.defaultSort.order;
  const sortName = named ? query.sort! : '';
  const keyset = options.keyset ?? true;
  const col = sql.ref(column);
  const tie = sql.ref(options.tieBreaker);
  const sorted = <R>(b: SelectQueryBuilder<DB, TB, R>) => b.orderBy(col, order).orderBy(tie, order);
  const idsOnly = () => (qb as SelectQueryBuilder<DB, TB, object>).clearSelect().clearOrderBy().select(tie.as(ROW_ID));
  const offset = (page - 1) * pageSize;
  const cursor = query.after !== undefined && query.after !== '' ? decodeCursor(query.after, sortName, order) : null;
  if (cursor && !keyset) throw failFields([fieldError('after', '99931', 'this list pages by number only')]);
  if (!cursor && keyset && !withinPageWindow(page, pageSize)) {
    throw failFields([fieldError('page', '99931', `pages by number reach the first ${PAGE_WINDOW} rows; read further with \`after\` (the previous page's \`next\`)`)]);
  }

  // The rows, with the sort value and id the next cursor is made of (dropped before `map`).
  const withKey = (b: SelectQueryBuilder<DB, TB, O>) => (keyset
    ? (b as SelectQueryBuilder<DB, TB, object>).select([sql<string | null>`${col}::text`.as(SORT_VALUE), sql<string>`${tie}::text`.as(ROW_ID)])
    : b) as SelectQueryBuilder<DB, TB, O>;
  const finish = (rows: O[], total: number, totalIsEstimate: boolean): Page<T> => {
    const last = rows.length === pageSize ? (rows[rows.length - 1] as Record<string, unknown>) : null;
    const next = keyset && last ? encodeCursor({ sort: sortName, order, value: last[SORT_VALUE] as string | null, id: String(last[ROW_ID]) }) : null;
    const items = rows.map((row) => {
      if (!keyset) return options.map(row);
      const { [SORT_VALUE]: _v, [ROW_ID]: _id, ...rest } = row as Record<string, unknown>;
      return options.map(rest as O);
    });
    return { items, total, page, pageSize, next, ...(totalIsEstimate ? { totalIsEstimate } : {}) };
  };
  /** `limit` rows of qb narrowed by `where`, in the list's order (narrow: over the ids first). */
  const read = async (where: RawBuilder<boolean> | null, limit: number, skip = 0): Promise<O[]> => {
    const filtered = where ? (qb.where(where) as typeof qb) : qb;
    if (options.narrow) {
      const ids = (where ? idsOnly().where(where) : idsOnly());
      const pageIds = sorted(ids).limit(limit).offset(skip);
      return sorted(withKey(qb).where(sql<boolean>`${tie} in (${pageIds})`)).execute();
    }
    return sorted(withKey(filtered)).limit(limit).offset(skip).execute();
  };
  /** The rows after the cursor: the keyset statement, then the NULL run when the page reaches it. */
  const readAfter = async (c: Cursor): Promise<O[]> => {
    const cmp = order === 'asc' ? sql.raw('>') : sql.raw('<');
    if (c.value === null) {
      // Inside the NULL run (last ascending, first descending): by id.
      const rows = await read(sql<boolean>`${col} is null and ${tie} ${cmp} ${c.id}`, pageSize);
      if (order === 'asc' || rows.length === pageSize) return rows;
      return [...rows, ...(await read(sql<boolean>`${col} is not null`, pageSize - rows.length))];
    }
    const rows = await read(sql<boolean>`(${col}, ${tie}) ${cmp} (${c.value}, ${c.id})`, pageSize);
    if (order === 'desc' || rows.length === pageSize) return rows;
    return [...rows, ...(await read(sql<boolean>`${col} is null`, pageSize - rows.length))];
  };

  if (q && options.search.length && [...q].length >= MIN_INDEXED_Q) {
    const found = (await idsOnly().limit(FEW_ROWS + 1).execute()) as unknown as { page_row_id: unknown }[];
    if (found.length <= FEW_ROWS) {
      const total = found.length;
      if (offset >= total && !cursor) return { items: [], total, page, pageSize, next: null };
      const ids = found.map((r) => r.page_row_id);
      qb = qb.where(sql<boolean>`${tie} in (${sql.join(ids)})`) as typeof qb;
      return finish(cursor ? await readAfter(cursor) : await read(null, pageSize, offset), total, false);
    }
  }

  // Bounded total: one row read past COUNT_BOUND tells "more than COUNT_BOUND" without counting
  // them all; below it the rows are few and counted exactly.
  const unordered = () => (qb as SelectQueryBuilder<DB, TB, object>).clearSelect().clearOrderBy();
  const beyond = await unordered().select(sql<number>`1`.as('one')).limit(1).offset(COUNT_BOUND).executeTakeFirst();
  let total = COUNT_BOUND;
  if (!beyond) {
    const counted = await unordered().select(sql<string>`count(*)`.as('n')).executeTakeFirst();
    total = Number((counted as { n?: string } | undefined)?.n ?? 0);
  }
  const rows = cursor ? await readAfter(cursor) : await read(null, pageSize, offset);
  return finish(rows, total, beyond !== undefined);
}
