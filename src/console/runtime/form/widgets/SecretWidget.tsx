// A secret the server keeps (tokens, private keys, passwords of a channel or FTP account): typed
// once, never shown back. A stored secret comes back masked ("••••1234"); leaving the field empty
// sends the mask, which the server reads as "keep the stored one".
import { useState } from 'react';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';

const MASK = '••••';

export default function SecretWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, required, label, rawErrors = [] } = props;
  const stored = typeof value === 'string' && value.startsWith(MASK) ? value : null;
  const [typed, setTyped] = useState('');
  if (readonly || disabled) {
    return <TextField id={id} fullWidth label={label} disabled value={stored ?? (value ? MASK : '')} slotProps={{ htmlInput: { 'data-secret': 'masked' } }} />;
  }
  return (
    <TextField
      id={id}
      fullWidth
      type="password"
      autoComplete="new-password"
      label={label}
      required={required && !stored}
      error={rawErrors.length > 0}
      value={typed}
      placeholder={stored ?? undefined}
      helperText={stored ? t('common.secret.keep') : t('common.secret.once')}
      onChange={(e) => {
        setTyped(e.target.value);
        onChange(e.target.value ? e.target.value : (stored ?? undefined));
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      slotProps={{ htmlInput: { spellCheck: false } }}
    />
  );
}
