// `refresh: { ms, while }` on a list or a detail: fetch again every `ms` milliseconds while a row
// (or the record) still meets `while` (a deployment that is running; a list of conditions: any),
// and stop by itself once none does, so a finished screen costs nothing. The next round waits for the previous answer.
import { useEffect, useRef } from 'react';
import { rowApplies, type ExpressionContext } from './expressions.ts';
import type { ScreenRefresh } from './screen-types.ts';

/** Whether any of the rows still asks for a refresh. */
export function refreshWanted(spec: ScreenRefresh | undefined, rows: readonly Record<string, unknown>[], ctx: ExpressionContext = {}): boolean {
  if (!spec) return false;
  if (!spec.while) return true;
  // A list of conditions: any of them keeps the refresh going (running, or receipts still due).
  const conditions = Array.isArray(spec.while) ? spec.while : [spec.while];
  return rows.some((row) => conditions.some((c) => rowApplies(c, row, { ...ctx, row })));
}

export function useRefresh(spec: ScreenRefresh | undefined, active: boolean, run: () => unknown): void {
  const latest = useRef(run);
  latest.current = run;
  const ms = spec?.ms;
  useEffect(() => {
    if (!ms || !active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        await latest.current();
      } finally {
        if (!stopped) timer = setTimeout(() => void tick(), ms);
      }
    };
    timer = setTimeout(() => void tick(), ms);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [ms, active]);
}
