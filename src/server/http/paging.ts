// The list convention every paged list follows: query page, pageSize, sort, order, q (+ filters
// the handler applies); answer { items, total, page, pageSize }. Sorting, search and counting run
// in SQL. The sort column comes from the handler's fixed map, never from the request's text (the
// declared `sort` enum already limits it), and the row id breaks ties so pages never overlap.
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
}

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
  const counted = await (qb as SelectQueryBuilder<DB, TB, object>)
    .clearSelect()
    .clearOrderBy()
    .select(sql<string>`count(*)`.as('n'))
    .executeTakeFirst();
  const total = Number((counted as { n?: string } | undefined)?.n ?? 0);

  const named = query.sort ? options.sortable[query.sort] : undefined;
  const column = named ?? options.defaultSort.column;
  const order = named ? (query.order ?? 'asc') : options.defaultSort.order;
  const rows = await qb
    .orderBy(sql.ref(column), order)
    .orderBy(sql.ref(options.tieBreaker), order)
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { items: rows.map(options.map), total, page, pageSize };
}
