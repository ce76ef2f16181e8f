// How far a list is served by page number: a page by number (no `after` cursor) may
// reach at most constants.limits.pageWindowRows rows in; deeper rows are read by cursor. The
// server refuses a page past it (src/server/http/paging.ts) and the console, reopened on one,
// starts at the top (src/console/runtime/list/paged-rows.ts): one rule for both.
import { constants } from '../generated/constants.gen.ts';

export const PAGE_WINDOW = constants.limits.pageWindowRows;

/** True when page `page` (from 1) of `pageSize` rows lies within the rows served by page number. */
export const withinPageWindow = (page: number, pageSize: number): boolean => page >= 1 && page * pageSize <= PAGE_WINDOW;
