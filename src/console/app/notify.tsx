// Short confirmations ("Password updated") that survive a navigation: a tiny store and one
// Snackbar at the app root.
import { useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';

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

export function Notifier() {
  const { t } = useTranslation();
  const current = useSyncExternalStore(subscribe, () => notice, () => notice);
  return (
    <Snackbar key={current?.id} open={!!current} autoHideDuration={6000} onClose={(_, reason) => reason !== 'clickaway' && dismissNotice()} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      {current ? (
        <Alert role="status" severity={current.severity} variant="filled" onClose={dismissNotice} sx={{ width: '100%' }}>
          {current.text ?? t(current.key)}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
