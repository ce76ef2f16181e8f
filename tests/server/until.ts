// Waiting for a state the test expects, by asking for it (the database, the stand-in's counters)
// until it holds, never by sleeping a fixed time. Shared by the server suites that watch the
// engine work in the background.

/** Polls `probe` until it answers something truthy and returns it; fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
