// Tags and keywords (a list of short texts): typed and added with Enter or a comma, shown as chips,
// each removable. Repeated values are added once; each item's own rules (pattern, length) are
// checked by the schema on submit.
import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';

export function addChips(current: readonly string[], typed: string): string[] {
  const next = [...current];
  for (const part of typed.split(/[,;\n]/)) {
    const v = part.trim();
    if (v && !next.includes(v)) next.push(v);
  }
  return next;
}

export default function ChipsInputWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, required, label, rawErrors = [] } = props;
  const values = Array.isArray(value) ? (value as string[]) : [];
  const [input, setInput] = useState('');
  const commit = (text: string) => {
    const next = addChips(values, text);
    setInput('');
    if (next.length !== values.length) onChange(next);
  };
  return (
    <Autocomplete
      id={id}
      multiple
      freeSolo
      options={[] as string[]}
      value={values}
      inputValue={input}
      disabled={disabled || readonly}
      onInputChange={(_, v, reason) => {
        if (reason !== 'input') return;
        if (/[,;]/.test(v)) commit(v);
        else setInput(v);
      }}
      onChange={(_, next) => {
        setInput('');
        onChange(addChips([], (next as string[]).join(',')));
      }}
      onBlur={() => {
        if (input.trim()) commit(input);
        onBlur(id, value);
      }}
      onFocus={() => onFocus(id, value)}
      renderValue={(tags, getItemProps) =>
        (tags as string[]).map((tag, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={tag} {...itemProps} />;
        })
      }
      renderInput={(params) => <TextField {...params} label={label} required={required && values.length === 0} error={rawErrors.length > 0} helperText={t('common.chips.help')} />}
    />
  );
}
