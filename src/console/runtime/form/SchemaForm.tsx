// The generic schema form: @rjsf/mui with our validator, widgets and translations. Validation
// runs on blur for the fields the user has left and on submit for all; never on each keystroke
// (liveValidate off), and text inputs tell the form their value after a pause or on leaving the
// field (DebouncedInputTemplate), so typing stays responsive on large forms. A picker whose
// choices depend on another field (country → region → city) is emptied when that field changes.
// A picker that fills other fields (`x-options.fill`, a campaign's template) tells the form, through
// the context's `fill`, what its next change sets beside its own value: one change, one update.
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import Form from '@rjsf/mui';
import type { IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, UiSchema } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { errorsFor, makeCustomValidate, makeTransformErrors, validator } from './validation.ts';
import { formSchema, formUiSchema } from './ui-schema.ts';
import { dependsOn, optionsSource } from '../options.ts';
import DebouncedInputTemplate from './DebouncedInputTemplate.tsx';
import { StableFieldError } from './StableFieldError.tsx';
import RowsObjectTemplate from './RowsObjectTemplate.tsx';
import { fields, widgets } from './widgets/index.ts';
import { NAMED_SOURCES } from './widgets/named-sources.ts';
import { mergeErrorSchemas } from './error-schemas.ts';

type Data = Record<string, unknown>;


// No made-up values: an array with minItems starts empty (not [undefined]), a const is not a default.
const DEFAULT_FORM_STATE = { constAsDefaults: 'never', arrayMinItems: { populate: 'never' } } as const;

const templates = { FieldErrorTemplate: StableFieldError, BaseInputTemplate: DebouncedInputTemplate, ObjectFieldTemplate: RowsObjectTemplate };

const dependentsCache = new WeakMap<object, [string, string[]][]>();

/** For each field, the fields whose choices depend on it (`$f.<field>` in their options source). */
export function dependentsOf(schema: RJSFSchema): [string, string[]][] {
  let out = dependentsCache.get(schema);
  if (!out) {
    const map = new Map<string, string[]>();
    for (const [name, p] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      const source = optionsSource(p) ?? NAMED_SOURCES[String(p['x-widget'] ?? '')];
      for (const parent of dependsOn(source)) map.set(parent, [...(map.get(parent) ?? []), name]);
    }
    out = [...map];
    dependentsCache.set(schema, out);
  }
  return out;
}

/**
 * Empties the fields that depend on a changed one (and theirs, down the cascade); `keep` are
 * fields just set on purpose (a picker's `fill`), left as they are.
 */
export function clearDependents(prev: Data, next: Data, schema: RJSFSchema, keep: readonly string[] = []): Data {
  const deps = dependentsOf(schema);
  if (!deps.length) return next;
  let out = next;
  let changed = deps.filter(([parent]) => prev[parent] !== next[parent]).map(([parent]) => parent);
  const seen = new Set<string>(keep);
  while (changed.length) {
    const more: string[] = [];
    for (const parent of changed) {
      for (const child of deps.find(([p]) => p === parent)?.[1] ?? []) {
        if (seen.has(child) || out[child] === undefined) continue;
        seen.add(child);
        out = { ...out, [child]: undefined };
        more.push(child);
      }
    }
    changed = more;
  }
  return out;
}

export const fieldOfId = (id: string) => id.replace(/^root_/, '').split('_')[0];

/** What the form offers its widgets through the context, beside the values (`formData`). */
export interface FormContext {
  formData?: Data;
  /**
   * The next change of the widget `id` also sets these fields (the row of a chosen option,
   * `x-options.fill`); they are spared the cascade's emptying. An empty `values` cancels.
   */
  fill?: (id: string, values: Data) => void;
  /** The record the form loaded (`load`), whole: a field may read other facts of it (`x-mapping`). */
  record?: Data;
}

export { mergeErrorSchemas } from './error-schemas.ts';

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
  /** View mode: every field read-only. */
  readonly?: boolean;
  /** Fields shown but not editable (those the edit operation does not take). */
  readonlyFields?: ReadonlySet<string>;
  /** More for the widgets' context (a form screen's deferred uploads). */
  context?: Record<string, unknown>;
  /**
   * The whole form's schema when this one shows a part of it (a wizard's step): a change empties
   * the fields of other parts that depend on it too.
   */
  cascadeSchema?: RJSFSchema;
  children?: ReactNode;
}

export function SchemaForm(props: SchemaFormProps) {
  const { t, i18n } = useTranslation();
  const schema = formSchema(props.schema);
  const uiSchema = formUiSchema(schema, props.uiSchema, { cacheKey: props.cacheKey, language: i18n.language, hidden: props.hidden, readonly: props.readonlyFields, t, exists: (k) => i18n.exists(k) });
  const transformErrors = useMemo(() => makeTransformErrors(t, schema), [t, schema]);
  const customValidate = useMemo(() => makeCustomValidate(t, schema), [t, schema]);
  const [blurErrors, setBlurErrors] = useState<ErrorSchema | undefined>();
  const data = useRef<Data>(props.formData);
  data.current = props.formData;
  const touched = useRef(new Set<string>());
  // Values a widget's next change sets beside its own (by field): `fill`.
  const fills = useRef(new Map<string, Data>());
  const fill = useCallback((id: string, values: Data) => {
    if (Object.keys(values).length) fills.current.set(fieldOfId(id), values);
    else fills.current.delete(fieldOfId(id));
  }, []);

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
      const filled = field ? fills.current.get(field) : undefined;
      if (field) fills.current.delete(field);
      const changed = filled ? { ...(e.formData ?? {}), ...filled } : (e.formData ?? {});
      const next = clearDependents(data.current ?? {}, changed, props.cascadeSchema ?? schema, filled ? Object.keys(filled) : []);
      data.current = next;
      const settled = [...(field ? [field] : []), ...Object.keys(filled ?? {})];
      if (settled.length) setBlurErrors((prev) => {
        if (!prev || !settled.some((f) => f in prev)) return prev;
        const rest = Object.fromEntries(Object.entries(prev as Record<string, unknown>).filter(([f]) => !settled.includes(f)));
        return Object.keys(rest).length ? (rest as ErrorSchema) : undefined;
      });
      props.onChange(next, field);
    },
    [props.onChange, props.cascadeSchema, schema],
  );

  const extraErrors = useMemo(() => mergeErrorSchemas(blurErrors, props.extraErrors), [blurErrors, props.extraErrors]);
  // Pickers read the other values through the context (cascades, `$f.x` in their params).
  const formContext = useMemo<FormContext & Record<string, unknown>>(() => ({ ...props.context, formData: props.formData, fill }), [props.formData, props.context, fill]);

  return (
    <Form
      schema={schema}
      uiSchema={uiSchema}
      formData={props.formData}
      validator={validator}
      widgets={widgets}
      fields={fields}
      templates={templates}
      formContext={formContext}
      readonly={props.readonly}
      transformErrors={transformErrors}
      customValidate={customValidate}
      extraErrors={extraErrors}
      showErrorList={false}
      noHtml5Validate
      focusOnFirstError
      experimental_defaultFormStateBehavior={DEFAULT_FORM_STATE}
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
