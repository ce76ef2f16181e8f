// An amount in Colombian pesos (1 credit = 1 COP, spec 1): an integer, typed as digits and shown
// in es-CO ("$ 1.250.000") once the user leaves the field.
import { useEffect, useState } from 'react';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { textFieldProps } from './text-field.ts';

const grouped = new Intl.NumberFormat('es-CO', { maximumFractionDigits: 0 });

export const formatCopInput = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? grouped.format(v) : '');
/** "1.250.000", "$ 1250000" → 1250000; nothing typed → undefined. */
export const parseCopInput = (text: string): number | undefined => {
  const digits = text.replace(/\D/g, '');
  return digits ? Number(digits) : undefined;
};

export default function CopWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus } = props;
  const [focused, setFocused] = useState(false);
  const [text, setText] = useState(formatCopInput(value));
  useEffect(() => {
    if (!focused) setText(formatCopInput(value));
  }, [value, focused]);
  return (
    <TextField
      {...textFieldProps(props)}
      value={text}
      onChange={(e) => setText(e.target.value.replace(/[^\d.]/g, ''))}
      onFocus={() => {
        setFocused(true);
        setText(typeof value === 'number' ? String(value) : '');
        onFocus(id, value);
      }}
      onBlur={() => {
        const n = parseCopInput(text);
        setFocused(false);
        onChange(n);
        onBlur(id, n);
      }}
      slotProps={{ input: { startAdornment: <InputAdornment position="start">$</InputAdornment>, endAdornment: <InputAdornment position="end">COP</InputAdornment> }, htmlInput: { inputMode: 'numeric' } }}
    />
  );
}
