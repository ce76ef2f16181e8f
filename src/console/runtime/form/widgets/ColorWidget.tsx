// A colour (`x-widget: color`, e.g. a channel's chart colour): the browser's picker beside the hex
// code, which can also be typed.
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { textFieldProps } from './text-field.ts';

const HEX = /^#[0-9a-fA-F]{6}$/;

export default function ColorWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, label } = props;
  const hex = typeof value === 'string' ? value : '';
  return (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <Box
        component="input"
        type="color"
        aria-label={t('common.color.pick', { field: label })}
        value={HEX.test(hex) ? hex : '#000000'}
        disabled={disabled || readonly}
        onChange={(e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value.toUpperCase())}
        sx={{ width: 48, height: 40, p: 0, border: 0, bgcolor: 'transparent', cursor: 'pointer' }}
      />
      <TextField
        {...textFieldProps(props)}
        value={hex}
        placeholder="#FFC400"
        onChange={(e) => onChange(e.target.value.trim() || undefined)}
        onBlur={(e) => onBlur(id, e.target.value)}
        onFocus={(e) => onFocus(id, e.target.value)}
        slotProps={{ htmlInput: { maxLength: 7, spellCheck: false } }}
      />
    </Box>
  );
}
