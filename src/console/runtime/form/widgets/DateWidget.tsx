// A calendar date (format: date). With `x-max: today` the picker stops at today in the product's
// time zone (reports hold data only up to today, spec 5); the rule is also checked on submit.
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { today } from '../date-rules.ts';
import { textFieldProps } from './text-field.ts';

export default function DateWidget(props: WidgetProps) {
  const { id, schema, value, onChange, onBlur, onFocus } = props;
  const max = schema['x-max'] === 'today' ? today() : undefined;
  return (
    <TextField
      {...textFieldProps(props)}
      type="date"
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value || undefined)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { max } }}
    />
  );
}
