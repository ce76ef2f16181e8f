// The plain form: a declared form of one-line text fields (the sign-in family, plain-form.ts says
// which) drawn with MUI's input parts and checked by plain-form.ts, so the sign-in page loads
// neither rjsf nor Ajv (its first load ≤ 200 KB gzip). It behaves as the schema form
// does for such fields: translated labels with the required mark, the field's help, errors on the
// fields the user has left and on every field at submit (the first one focused), server errors on
// their fields, the password's show/hide button, the captcha box (loaded when revealed).
import { lazy, Suspense, useMemo, useRef, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import type { ErrorSchema, WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { withChunkReload } from '../../app/chunk-reload.ts';
import { passwordPolicyValues } from './messages.ts';
import { plainErrorsFor, plainFieldOrder } from './plain-form.ts';
import { mergeErrorSchemas } from './error-schemas.ts';
import type { SchemaFormProps } from './SchemaForm.tsx';

type Data = Record<string, unknown>;
type Prop = Record<string, unknown>;

const CaptchaWidget = lazy(withChunkReload(() => import('./widgets/CaptchaWidget.tsx'))) as unknown as ComponentType<Partial<WidgetProps>>;

const messagesOf = (errors: ErrorSchema | undefined, field: string): string[] => (errors as Record<string, { __errors?: string[] }> | undefined)?.[field]?.__errors ?? [];

type PlainFormProps = Pick<SchemaFormProps, 'schema' | 'uiSchema' | 'formData' | 'onChange' | 'onSubmit' | 'extraErrors' | 'hidden' | 'disabled'> & { children?: ReactNode };

export function PlainForm(props: PlainFormProps) {
  const { t, i18n } = useTranslation();
  const { schema } = props;
  const properties = (schema.properties ?? {}) as Record<string, Prop>;
  const required = new Set(schema.required ?? []);
  const order = useMemo(() => plainFieldOrder(schema, props.uiSchema), [schema, props.uiSchema]);
  const [checked, setChecked] = useState<ErrorSchema | undefined>();
  const touched = useRef(new Set<string>());
  const form = useRef<HTMLFormElement>(null);
  const data = props.formData;

  const recheck = (next: Data, fields?: Iterable<string>) => {
    const found = plainErrorsFor(schema, next, t, fields);
    setChecked(Object.keys(found).length ? found : undefined);
    return found;
  };
  const change = (field: string, value: string | undefined) => {
    const next = { ...data, [field]: value === '' ? undefined : value };
    // A field's own message goes as it changes; it is checked again when the user leaves it.
    setChecked((prev) => {
      if (!prev || !(field in prev)) return prev;
      const { [field]: _gone, ...rest } = prev as Data;
      return Object.keys(rest).length ? (rest as ErrorSchema) : undefined;
    });
    props.onChange(next, field);
  };
  const blur = (field: string) => {
    touched.current.add(field);
    recheck(data, touched.current);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const shown = Object.fromEntries(Object.entries(data).filter(([k]) => !props.hidden?.has(k)));
    const found = recheck(shown, order.filter((f) => !props.hidden?.has(f)));
    const first = order.find((f) => f in found);
    if (first) return form.current?.querySelector<HTMLElement>(`#root_${first}`)?.focus();
    props.onSubmit(data);
  };

  const errors = mergeErrorSchemas(checked, props.extraErrors);
  return (
    <form ref={form} noValidate onSubmit={submit}>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {order
          .filter((f) => !props.hidden?.has(f))
          .map((field) => {
            const p = properties[field];
            const id = `root_${field}`;
            const label = typeof p.title === 'string' ? t(p.title) : field;
            const messages = messagesOf(errors, field);
            const help = p.format === 'password-policy' ? t('validation.hint.password-policy', passwordPolicyValues()) : i18n.exists(`fields.help.${field}`) ? t(`fields.help.${field}`) : null;
            if (p['x-widget'] === 'captcha') {
              return (
                <Suspense key={field} fallback={<div style={{ height: 56 }} aria-busy />}>
                  <CaptchaWidget id={id} label={label} required={required.has(field)} value={data[field]} disabled={props.disabled} rawErrors={messages} onChange={(v: string | undefined) => change(field, v)} onBlur={() => blur(field)} onFocus={() => undefined} />
                  {messages.map((m) => (
                    <FormHelperText key={m} error>
                      {m}
                    </FormHelperText>
                  ))}
                </Suspense>
              );
            }
            return <TextInput key={field} id={id} field={field} prop={p} label={label} required={required.has(field)} value={data[field]} disabled={props.disabled} messages={messages} help={help} onChange={(v) => change(field, v)} onBlur={() => blur(field)} />;
          })}
      </Box>
      {props.children}
    </form>
  );
}

interface TextInputProps { id: string; field: string; prop: Prop; label: string; required: boolean; value: unknown; disabled?: boolean; messages: string[]; help: string | null; onChange: (v: string) => void; onBlur: () => void }

function TextInput({ id, field, prop, label, required, value, disabled, messages, help, onChange, onBlur }: TextInputProps) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const password = prop['x-widget'] === 'password' || prop.format === 'password-policy';
  const email = prop.format === 'email' || prop.format === 'corporate-email';
  const type = password && !shown ? 'password' : email ? 'email' : 'text';
  const autoComplete = password ? (prop.format === 'password-policy' ? 'new-password' : 'current-password') : field === 'email' ? 'email' : undefined;
  const describedBy = [messages.length ? `${id}__error` : null, help ? `${id}__help` : null].filter(Boolean).join(' ') || undefined;
  return (
    <FormControl fullWidth required={required} error={messages.length > 0} disabled={disabled}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        name={id}
        label={required ? `${label} *` : label}
        type={type}
        autoComplete={autoComplete}
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        inputProps={{ 'aria-describedby': describedBy }}
        endAdornment={
          password ? (
            <InputAdornment position="end">
              <IconButton aria-label={t(shown ? 'common.hidePassword' : 'common.showPassword')} onClick={() => setShown((s) => !s)} edge="end" size="small">
                {shown ? <VisibilityOff fontSize="small" /> : <Visibility fontSize="small" />}
              </IconButton>
            </InputAdornment>
          ) : undefined
        }
      />
      {help && <FormHelperText id={`${id}__help`}>{help}</FormHelperText>}
      <Box data-testid="field-messages" id={`${id}__error`}>
        {messages.map((m) => (
          <FormHelperText key={m} error>
            {m}
          </FormHelperText>
        ))}
      </Box>
    </FormControl>
  );
}
