// The list convention every paged list follows: query page, pageSize, sort, order, q (+ filters
// the handler applies); answer { items, total, page, pageSize }. Sorting, search and counting run
// in SQL. The sort column comes from the handler's fixed map, never from the request's text (the
// declared `sort` enum already limits it), and the row id breaks ties so pages never overlap.
//
// Speed at 100,000 rows (tests/bench/server-lists.ts), with totals always exact:
// - A `q` of 3 or more characters first reads the ids of at most FEW_ROWS + 1 matches. When that is
//   all of them (the usual case for a search), their number is the total and the page is read
//   among those ids, so no query ever walks the sort index hoping to meet matches (a trigram
//   index, where one exists, finds them: migration 0204). Otherwise counting and paging go on as
//   below. A shorter `q` can't use a trigram index and is searched by a scan.
// - `narrow` paging (opt-in) orders and skips over the filtered rows' ids alone, with no joined
//   columns, and then reads the joined columns of the page's rows only.
import { sql, type SelectQueryBuilder } from 'kysely';

export interface ListQuery { page?: number; pageSize?: number; sort?: string; order?: 'asc' | 'desc'; q?: string }
export interface Page<T> { items: T[]; total: number; page: number; pageSize: number }

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
}

/** Up to this many matches of a `q`, the matching ids are read and counted in one go. */
export const FEW_ROWS = 1000;
/** Trigram indexes find substrings of at least 3 characters; a shorter `q` is searched by a scan. */
export const MIN_INDEXED_Q = 3;

/** ILIKE pattern for "contains q", with the LIKE wildcards in q taken literally. */
export const containsPattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

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
  const tie = sql.ref(options.tieBreaker);
  const sorted = <R>(b: SelectQueryBuilder<DB, TB, R>) => b.orderBy(sql.ref(column), order).orderBy(tie, order);
  const idsOnly = () => (qb as SelectQueryBuilder<DB, TB, object>).clearSelect().clearOrderBy().select(tie.as('page_row_id'));
  const offset = (page - 1) * pageSize;

  if (q && options.search.length && [...q].length >= MIN_INDEXED_Q) {
    const found = (await idsOnly().limit(FEW_ROWS + 1).execute()) as unknown as { page_row_id: unknown }[];
    if (found.length <= FEW_ROWS) {
      const total = found.length;
      if (offset >= total) return { items: [], total, page, pageSize };
      const ids = found.map((r) => r.page_row_id);
      const rows = await sorted(qb.where(sql<boolean>`${tie} in (${sql.join(ids)})`)).limit(pageSize).offset(offset).execute();
      return { items: rows.map(options.map), total, page, pageSize };
    }
  }

  const counted = await (qb as SelectQueryBuilder<DB, TB, object>)
    .clearSelect()
    .clearOrderBy()
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirst();
  const total = Number((counted as { n?: string } | undefined)?.n ?? 0);

  let rows: O[];
  if (options.narrow) {
    const pageIds = sorted(idsOnly()).limit(pageSize).offset(offset);
    rows = await sorted(qb.where(sql<boolean>`${tie} in (${pageIds})`)).execute();
  } else {
    rows = await sorted(qb).limit(pageSize).offset(offset).execute();
  }
  return { items: rows.map(options.map), total, page, pageSize };
}
