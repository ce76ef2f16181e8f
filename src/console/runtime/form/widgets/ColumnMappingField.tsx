// A mapping of names to columns (`x-widget: columnMapping` on an object of strings): one select per
// key, offering the columns. Where the keys and the columns come from is declared beside it
// (`x-mapping: { keys, choices }`, both fields of the loaded record): a WhatsApp campaign maps each
// template parameter ({{1}}, {{2}} or named) to a column of its uploaded recipients file. Without
// keys or without columns a line says what is missing instead.
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { FieldProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import type { FormContext } from '../SchemaForm.tsx';

type Mapping = Record<string, string>;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export default function ColumnMappingField(props: FieldProps) {
  const { t } = useTranslation();
  const { formData, onChange, schema, uiSchema, disabled, readonly, errorSchema, fieldPathId, name, registry } = props;
  const mapping = (formData ?? {}) as Mapping;
  const id = fieldPathId?.$id ?? `root_${name}`;
  const spec = (schema as Record<string, unknown>)['x-mapping'] as { keys: string; choices: string } | undefined;
  const record = ((registry.formContext as FormContext | undefined)?.record ?? {}) as Record<string, unknown>;
  const keys = strings(spec ? record[spec.keys] : undefined);
  const choices = strings(spec ? record[spec.choices] : undefined);
  const errors = (errorSchema?.__errors as string[] | undefined) ?? [];
  // ui:title arrives translated (ui-schema.ts): translating it again looked up the text as a key.
  const title = (uiSchema?.['ui:title'] as string | undefined) ?? t((schema.title as string | undefined) ?? `fields.${name}`);
  const set = (key: string, column: string) => {
    const next: Mapping = { ...mapping };
    if (column) next[key] = column;
    else delete next[key];
    onChange(next, fieldPathId?.path ?? [name]);
  };
  const missing = !keys.length ? t('common.mapping.noKeys') : !choices.length ? t('common.mapping.noChoices') : null;
  return (
    <FormControl fullWidth error={errors.length > 0} component="fieldset">
      <FormLabel component="legend" sx={{ mb: 1 }}>
        {title}
      </FormLabel>
      {missing ? (
        <FormHelperText sx={{ mx: 0 }}>{missing}</FormHelperText>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {keys.map((key) => (
            <TextField
              key={key}
              id={`${id}_${key}`}
              select
              label={t('common.mapping.key', { key: `{{${key}}}`, interpolation: { escapeValue: false } })}
              value={mapping[key] && choices.includes(mapping[key]) ? mapping[key] : ''}
              disabled={disabled || readonly}
              onChange={(e) => set(key, e.target.value)}
            >
              <MenuItem value="">
                <em>{t('common.mapping.none')}</em>
              </MenuItem>
              {choices.map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </TextField>
          ))}
        </Box>
      )}
      {errors.length > 0 && <FormHelperText>{[...new Set(errors)].join(' ')}</FormHelperText>}
    </FormControl>
  );
}
