// The progress bar shown while a layout or a screen loads, named for screen readers (axe
// "aria-progressbar-name": a progress bar without a name says nothing).
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';

export function Loading() {
  const { t } = useTranslation();
  return <LinearProgress aria-label={t('common.loading')} />;
}
