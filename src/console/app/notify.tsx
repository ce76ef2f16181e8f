// Short confirmations ("Password updated") that survive a navigation: a tiny store and one
// Snackbar at the app root. The Snackbar loads with the first notice (the sign-in page has none:
// the first load stays small) and then stays, so later notices come and go with its transitions.
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { withChunkReload } from './chunk-reload.ts';

const NoticeSnackbar = lazy(withChunkReload(() => import('./NoticeSnackbar.tsx')));

export interface Notice { id: number; key: string; severity: 'success' | 'info' | 'warning' | 'error'; text?: string }

let notice: Notice | null = null;
let seq = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows the translated text of `key` (or a ready `text`). */
export function notify(key: string, severity: Notice['severity'] = 'success', text?: string): void {
  notice = { id: ++seq, key, severity, text };
  emit();
}

export function dismissNotice(): void {
  notice = null;
  emit();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const useNotice = (): Notice | null => useSyncExternalStore(subscribe, () => notice, () => notice);

export function Notifier() {
  const current = useNotice();
  const [needed, setNeeded] = useState(false);
  if (current && !needed) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <NoticeSnackbar />
    </Suspense>
  ) : null;
}
