// The stand-ins' rate limits (Graph answers 130429 / 613, RBM 429): at most `perSecond` calls per
// key (a sender, an agent) in each wall-clock second.

/** Answers, for each call, whether its key went over the limit in this second. */
export function perSecondLimit(perSecond: number, now: () => number): (key: string) => boolean {
  const seen = new Map<string, { second: number; count: number }>();
  return (key) => {
    const second = Math.floor(now() / 1000);
    const entry = seen.get(key);
    if (!entry || entry.second !== second) {
      seen.set(key, { second, count: 1 });
      return false;
    }
    return ++entry.count > perSecond;
  };
}
