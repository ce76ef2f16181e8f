// The rows a chart draws: the top N by a numeric field (spec 9: "top-10 charts for accounts and
// traffic"), largest first. Rows without a number sort last. A chart that aggregates (no field to
// rank by) gets every row: cutting raw rows would change its totals. `top: 0` keeps every row in the
// answer's order (a series per day).
export function topN<T extends Record<string, unknown>>(rows: readonly T[], n: number | undefined, sortBy: string | undefined): T[] {
  if (!sortBy || n === 0) return [...rows];
  const num = (r: T) => (typeof r[sortBy] === 'number' ? (r[sortBy] as number) : Number.NEGATIVE_INFINITY);
  const sorted = [...rows].sort((a, b) => num(b) - num(a));
  return n ? sorted.slice(0, n) : sorted;
}

/** The quantitative field of a Vega-Lite spec (encoding.y or encoding.x of type quantitative): the default sort. */
export function quantitativeField(spec: Record<string, unknown>): string | undefined {
  const enc = (spec.encoding ?? {}) as Record<string, { field?: string; type?: string } | undefined>;
  for (const ch of ['y', 'x', 'theta', 'size']) if (enc[ch]?.type === 'quantitative' && enc[ch]?.field) return enc[ch]!.field;
  return undefined;
}

/** The spec with its data, sized to its container; no data URLs and no actions menu. */
export function withData(spec: Record<string, unknown>, values: readonly Record<string, unknown>[]): Record<string, unknown> {
  return { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', width: 'container', height: 280, autosize: { type: 'fit', contains: 'padding' }, ...spec, data: { values } };
}
