// A picker whose choices come from an operation (`x-options` / `x-source`): one value, or several
// shown as chips (role chips). Roles (GET /v1/roles), areas (GET /v1/account), cost centers,
// responsibles and the country → region → city cascade (GET /v1/countries…) are this widget with
// different sources; `x-widget: roles | area | country | region | city` names the usual ones.
// A paged source (list convention) is searched on the server as the user types. With `fill`, a
// choice also copies properties of the chosen row into other fields of the form (a campaign's
// template fills its content): the form hears both as one change, and the helper line, a polite
// live region, says which fields were filled.
import { useEffect, useMemo, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors.ts';
import { fillFrom, useOptions, type Option } from '../../options.ts';
import type { FormContext } from '../SchemaForm.tsx';
import { sourceOf } from './named-sources.ts';

export default function OptionsWidget(props: WidgetProps) {
  const { t } = useTranslation();
  const { id, schema, value, onChange, onBlur, onFocus, disabled, readonly, required, label, rawErrors = [], registry } = props;
  const source = useMemo(() => sourceOf(schema as Record<string, unknown>), [schema]);
  const multiple = schema.type === 'array';
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  const context = registry.formContext as FormContext | undefined;
  const form = (context?.formData ?? {}) as Record<string, unknown>;
  const { options, loading, waiting, error, paged } = useOptions(source, form, search);
  // The fields the last choice filled, named in the helper line (hidden fields are not named).
  const [filled, setFilled] = useState<string[]>([]);
  // Server search after a pause in typing (paged sources only).
  useEffect(() => {
    if (!paged) return;
    const timer = setTimeout(() => setSearch(input), 300);
    return () => clearTimeout(timer);
  }, [input, paged]);

  const selected = useMemo(() => {
    const find = (v: unknown): Option => options.find((o) => o.value === v) ?? { value: v, label: String(v) };
    if (multiple) return (Array.isArray(value) ? value : []).map(find);
    return value === undefined || value === null || value === '' ? null : find(value);
  }, [options, value, multiple]);

  const fills = !multiple && !!source?.fill && !!context?.fill;
  const choose = (next: Option | null) => {
    if (fills) {
      const values = next ? fillFrom(source, next.row) : {};
      context!.fill!(id, values);
      setFilled(Object.keys(values).filter((f) => fieldSchema(registry.rootSchema, f)?.['x-widget'] !== 'hidden').map((f) => fieldLabel(f, registry.rootSchema, t)));
    }
    onChange(next?.value ?? undefined);
  };

  const help = waiting ? t('common.options.chooseFirst') : error ? errorText(t, error) : filled.length ? t('common.options.filled', { fields: filled.join(', ') }) : undefined;
  return (
    <Autocomplete
      id={id}
      multiple={multiple}
      options={options}
      value={selected as never}
      loading={loading}
      disabled={disabled || readonly || waiting}
      filterSelectedOptions={multiple}
      filterOptions={paged ? (x) => x : undefined}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => String(o.value)}
      onInputChange={(_, v, reason) => reason === 'input' && setInput(v)}
      onChange={(_, next) => {
        if (multiple) onChange((next as Option[]).map((o) => o.value));
        else choose(next as Option | null);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
      noOptionsText={t('common.options.none')}
      loadingText={t('common.loading')}
      renderValue={
        multiple
          ? (tags, getItemProps) =>
              (tags as Option[]).map((o, index) => {
                const { key, ...itemProps } = getItemProps({ index }) as ReturnType<typeof getItemProps> & { key?: string | number };
                return <Chip key={key ?? String(o.value)} size="small" label={o.label} {...itemProps} />;
              })
          : undefined
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          required={required}
          error={rawErrors.length > 0}
          // A filling picker keeps its helper line (an empty one) so the live region is there before it speaks.
          helperText={help ?? (fills ? ' ' : undefined)}
          slotProps={{
            ...params.slotProps,
            // What a choice filled is said where the screen reader hears it, without moving focus.
            ...(fills ? { formHelperText: { role: 'status', 'aria-live': 'polite' } as never } : {}),
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {loading ? <CircularProgress color="inherit" size={18} aria-label={t('common.loading')} /> : null}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}

type Schema = Record<string, unknown>;

/** A top-level field's schema in the form (undefined when this form does not show it: another wizard step). */
const fieldSchema = (root: unknown, field: string): Schema | undefined => ((root as Schema | undefined)?.properties as Record<string, Schema> | undefined)?.[field];

/** A field's label: its schema's title (an i18n key) when the form shows it, else fields.<name>. */
function fieldLabel(field: string, root: unknown, t: (key: string) => string): string {
  const title = fieldSchema(root, field)?.title;
  return t(typeof title === 'string' ? title : `fields.${field}`);
}
