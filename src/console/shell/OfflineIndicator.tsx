// Online/offline status (spec 8): a visible notice while the browser is offline.
import { useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import WifiOff from '@mui/icons-material/WifiOff';
import { useTranslation } from 'react-i18next';

const subscribe = (cb: () => void) => {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
};
const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false);

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}

export function OfflineIndicator() {
  const { t } = useTranslation();
  const online = useOnline();
  if (online) return null;
  return (
    <Alert severity="warning" icon={<WifiOff />} role="status" variant="filled" sx={{ position: 'fixed', left: 16, bottom: 16, zIndex: (th) => th.zIndex.snackbar }}>
      {t('errors.client.offline')}
    </Alert>
  );
}
