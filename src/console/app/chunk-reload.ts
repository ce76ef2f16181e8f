// A deploy replaces the hashed chunks; a tab opened before it fails to load a lazy screen.
// Spec 8: "a failed chunk load reloads the page". Once only: a second failure within a minute
// is a real error and is shown instead of looping.
const KEY = 'colibri.chunkReloadAt';
const WINDOW_MS = 60_000;

export function reloadOnceForChunkError(now = Date.now()): boolean {
  try {
    const last = Number(sessionStorage.getItem(KEY) ?? 0);
    if (now - last < WINDOW_MS) return false;
    sessionStorage.setItem(KEY, String(now));
  } catch {
    /* storage unavailable: still try one reload */
  }
  window.location.reload();
  return true;
}

export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|ChunkLoadError|Failed to fetch dynamically|error loading dynamically/i.test(text);
}

/** Vite fires vite:preloadError when a chunk's preload fails. */
export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    event.preventDefault();
    reloadOnceForChunkError();
  });
}

/** Wraps a lazy import so that a chunk failure reloads the page once. */
export function withChunkReload<T>(load: () => Promise<T>): () => Promise<T> {
  return () =>
    load().catch((error: unknown) => {
      if (isChunkLoadError(error) && reloadOnceForChunkError()) return new Promise<T>(() => {});
      throw error;
    });
}
