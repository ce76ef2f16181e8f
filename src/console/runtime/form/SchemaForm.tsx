// The generic schema form: @rjsf/mui with our validator, widgets and translations. Validation
// runs on blur for the fields the user has left and on submit for all; never on each keystroke
// (liveValidate off), so typing stays responsive.
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import Form from '@rjsf/mui';
import { Templates } from '@rjsf/mui';
import type { IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, FieldErrorProps, RJSFSchema, UiSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { errorsFor, makeCustomValidate, makeTransformErrors, validator } from './validation.ts';
import { formSchema, formUiSchema } from './ui-schema.ts';
import { widgets } from './widgets/index.ts';

type Data = Record<string, unknown>;

const MuiFieldError = Templates.FieldErrorTemplate!;

/** Blur, submit and server errors can say the same thing: show each message once. */
function FieldErrorTemplate(props: FieldErrorProps) {
  const unique = props.errors ? [...new Set(props.errors.map((e) => (typeof e === 'string' ? e : String(e))))] : props.errors;
  return <MuiFieldError {...props} errors={unique} />;
}

const templates = { FieldErrorTemplate };

export const fieldOfId = (id: string) => id.replace(/^root_/, '').split('_')[0];

export function mergeErrorSchemas(...schemas: (ErrorSchema | undefined)[]): ErrorSchema | undefined {
  const out: Record<string, { __errors: string[] }> = {};
  for (const s of schemas) {
    for (const [field, v] of Object.entries((s ?? {}) as Record<string, { __errors?: string[] }>)) {
      if (!v?.__errors?.length) continue;
      (out[field] ??= { __errors: [] }).__errors.push(...v.__errors);
    }
  }
  return Object.keys(out).length ? (out as ErrorSchema) : undefined;
}

export interface SchemaFormProps {
  /** A stable name for caching the translated uiSchema (the screen id). */
  cacheKey: string;
  schema: RJSFSchema;
  uiSchema?: UiSchema;
  formData: Data;
  onChange: (data: Data, field?: string) => void;
  onSubmit: (data: Data) => void;
  /** Errors from outside the schema (server answers), shown on their fields. */
  extraErrors?: ErrorSchema;
  /** Fields not shown (revealed later). */
  hidden?: ReadonlySet<string>;
  disabled?: boolean;
  children?: ReactNode;
}

export function SchemaForm(props: SchemaFormProps) {
  const { t, i18n } = useTranslation();
  const schema = formSchema(props.schema);
  const uiSchema = formUiSchema(schema, props.uiSchema, { cacheKey: props.cacheKey, language: i18n.language, hidden: props.hidden, t, exists: (k) => i18n.exists(k) });
  const transformErrors = useMemo(() => makeTransformErrors(t), [t]);
  const customValidate = useMemo(() => makeCustomValidate(t, schema), [t, schema]);
  const [blurErrors, setBlurErrors] = useState<ErrorSchema | undefined>();
  const data = useRef<Data>(props.formData);
  data.current = props.formData;
  const touched = useRef(new Set<string>());

  const onBlur = useCallback(
    (id: string) => {
      const field = fieldOfId(id);
      touched.current.add(field);
      const found = errorsFor(touched.current, data.current, schema, t);
      setBlurErrors(Object.keys(found).length ? found : undefined);
    },
    [schema, t],
  );

  const onChange = useCallback(
    (e: IChangeEvent<Data>, id?: string) => {
      const field = id ? fieldOfId(id) : undefined;
      data.current = e.formData ?? {};
      if (field) setBlurErrors((prev) => {
        if (!prev || !(field in prev)) return prev;
        const { [field]: _gone, ...rest } = prev as Record<string, unknown>;
        return Object.keys(rest).length ? (rest as ErrorSchema) : undefined;
      });
      props.onChange(e.formData ?? {}, field);
    },
    [props.onChange],
  );

  const extraErrors = useMemo(() => mergeErrorSchemas(blurErrors, props.extraErrors), [blurErrors, props.extraErrors]);

  return (
    <Form
      schema={schema}
      uiSchema={uiSchema}
      formData={props.formData}
      validator={validator}
      widgets={widgets}
      templates={templates}
      transformErrors={transformErrors}
      customValidate={customValidate}
      extraErrors={extraErrors}
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
      experimental_defaultFormStateBehavior={{ constAsDefaults: 'never' }}
      disabled={props.disabled}
      onBlur={onBlur}
      onChange={onChange}
      onError={() => setBlurErrors(undefined)}
      onSubmit={(e) => {
        setBlurErrors(undefined);
        props.onSubmit(e.formData ?? {});
      }}
    >
      {props.children}
    </Form>
  );
}
