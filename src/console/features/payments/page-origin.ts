// The page's origin as the payments worker posts it (origin-worker.ts); the page's own if a
// worker cannot start (an old browser): the server uses it only when the request's Origin agrees.
export function pageOrigin(): Promise<string> {
  return new Promise((resolve) => {
    try {
      const worker = new Worker(new URL('./origin-worker.ts', import.meta.url), { type: 'module' });
      const done = (origin: string) => { worker.terminate(); resolve(origin); };
      worker.onmessage = (event: MessageEvent<unknown>) => done(typeof event.data === 'string' ? event.data : window.location.origin);
      worker.onerror = () => done(window.location.origin);
    } catch {
      resolve(window.location.origin);
    }
  });
}
