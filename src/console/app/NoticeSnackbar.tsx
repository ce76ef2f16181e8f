// The app's one Snackbar for notices (notify.tsx keeps the store and loads this with the first notice).
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useTranslation } from 'react-i18next';
import { dismissNotice, useNotice } from './notify.tsx';

export default function NoticeSnackbar() {
  const { t } = useTranslation();
  const current = useNotice();
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
