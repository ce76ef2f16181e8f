// Whether a benchmark met its goal, read from the goal's own words: a goal that starts with
// "ratio >= x" (or <=, <, >) compares the ratio to its anchor; one that starts with a bound on the
// value ("<= 200 KB", "p95 <= 50 ms", "value < 100 ms") compares the value. Other goals are
// described, not checked (null). `npm run bench` prints the results below their goal in its last
// lines, so a regression is seen the day it lands.
export function goalMet(r: { value: number; ratio: number; goal: string }): boolean | null {
  const m = /^\s*(ratio|value|p\d{2})?\s*(>=|<=|<|>)\s*(-?\d+(?:\.\d+)?)/.exec(r.goal);
  if (!m) return null;
  const measured = m[1] === 'ratio' ? r.ratio : r.value;
  const bound = Number(m[3]);
  switch (m[2]) {
    case '>=': return measured >= bound;
    case '<=': return measured <= bound;
    case '>': return measured > bound;
    default: return measured < bound;
  }
}
