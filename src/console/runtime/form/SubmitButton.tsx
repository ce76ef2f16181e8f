// The one submit button of every schema form (form, wizard, report): contained, with its
// spinner while sending, and a press that a layout shift cannot lose (landing-click.ts). With the
// field messages keeping their space (StableFieldError), the button does not move when a message
// goes; this catches what still moves it (a longer message, an alert above it).
import { useRef, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';
import { useLandingClick } from './landing-click.ts';

export function SubmitButton({ busy, disabled, children }: { busy: boolean; disabled: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLButtonElement>(null);
  const landing = useLandingClick(ref);
  return (
    <Button ref={ref} onPointerDown={landing} type="submit" variant="contained" disabled={disabled} startIcon={busy ? <CircularProgress size={18} color="inherit" aria-label={t('common.sending')} /> : undefined}>
      {children}
    </Button>
  );
}
