// A date range (`x-widget: dateRange` on an object { start, end } of dates): two date inputs that
// stop at today; "end after start, up to today" (spec 5) is checked on submit by the form's
// custom validation (../validation.ts) with the same rule as the server (src/core/date-range.ts).
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import type { FieldProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { today } from '../date-rules.ts';

type Range = { start?: string; end?: string };

export default function DateRangeField(props: FieldProps) {
  const { t } = useTranslation();
  const { formData, onChange, onBlur, schema, uiSchema, disabled, readonly, errorSchema, required, fieldPathId, name } = props;
  const range = (formData ?? {}) as Range;
  const id = fieldPathId?.$id ?? `root_${name}`;
  const max = today();
  const errors = [...((errorSchema?.__errors as string[] | undefined) ?? []), ...(((errorSchema as Record<string, { __errors?: string[] }> | undefined)?.end?.__errors) ?? []), ...(((errorSchema as Record<string, { __errors?: string[] }> | undefined)?.start?.__errors) ?? [])];
  const title = (uiSchema?.['ui:title'] as string | undefined) ?? (schema.title as string | undefined) ?? name;
  const set = (key: keyof Range, v: string) => {
    const next = { ...range, [key]: v || undefined };
    onChange(next, fieldPathId?.path ?? [name]);
  };
  const locked = disabled || readonly;
  return (
    <FormControl fullWidth error={errors.length > 0} required={required} component="fieldset">
      <FormLabel component="legend" sx={{ mb: 1 }}>
        {title}
      </FormLabel>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {(['start', 'end'] as const).map((key) => (
          <TextField
            key={key}
            id={`${id}_${key}`}
            type="date"
            label={t(`common.dateRange.${key}`)}
            value={range[key] ?? ''}
            disabled={locked}
            error={errors.length > 0}
            onChange={(e) => set(key, e.target.value)}
            onBlur={() => onBlur(`${id}_${key}`, range[key])}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { max, min: key === 'end' ? range.start : undefined } }}
          />
        ))}
      </Box>
      {errors.length > 0 && <FormHelperText>{[...new Set(errors)].join(' ')}</FormHelperText>}
    </FormControl>
  );
}
