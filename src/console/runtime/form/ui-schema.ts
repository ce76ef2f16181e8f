// The uiSchema a form renders with: the compiled screen's uiSchema plus, per language, the
// translated titles and enum names and the widget chosen by the ranked testers. Cached at module
// level so each (screen, language, revealed fields) has one stable identity (rjsf #1961).
import type { TFunction } from 'i18next';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { passwordPolicyValues } from './validation.ts';
import { chooseWidget } from './widgets/index.ts';

type T = TFunction;
type Exists = (key: string) => boolean;

const cache = new Map<string, UiSchema>();
const schemaCache = new WeakMap<object, RJSFSchema>();

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The schema a form validates with: the compiled one minus `description`s (they are English notes
 * for developers; users read translated help instead). Same identity for every render.
 */
export function formSchema(schema: RJSFSchema): RJSFSchema {
  let out = schemaCache.get(schema);
  if (!out) {
    const properties = Object.fromEntries(
      Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>).map(([k, p]) => {
        const { description: _drop, ...rest } = p;
        return [k, rest];
      }),
    );
    out = { ...schema, properties } as RJSFSchema;
    schemaCache.set(schema, out);
  }
  return out;
}

export interface UiOptions { cacheKey: string; language: string; hidden?: ReadonlySet<string>; readonly?: ReadonlySet<string>; t: T; exists: Exists }

type Props = Record<string, Record<string, unknown>>;

/**
 * One field's uiSchema: its translated title, the widget (or whole-object field) the ranked testers
 * choose, translated enum names; nested objects and array items get theirs the same way.
 */
function fieldUi(name: string, prop: Record<string, unknown>, base: Record<string, unknown> | undefined, o: UiOptions, nested: boolean): Record<string, unknown> {
  const field: Record<string, unknown> = { ...(base ?? {}) };
  if (typeof prop.title === 'string') field['ui:title'] = o.t(prop.title);
  else if (nested && o.exists(`fields.${name}`)) field['ui:title'] = o.t(`fields.${name}`);
  // A form's own e-mail field lets the browser offer the saved address.
  if (!nested && name === 'email') field['ui:autocomplete'] = 'email';
  const choice = chooseWidget(prop, field, name);
  if (choice?.kind === 'widget') field['ui:widget'] = choice.key;
  if (choice?.kind === 'field') field['ui:field'] = choice.key;
  if (Array.isArray(prop.enum)) {
    // Labels of an inlined enum are enums.<its id>.<value>; else the field's name in kebab case.
    const enumId = typeof prop['x-enum'] === 'string' ? prop['x-enum'] : kebab(name);
    field['ui:enumNames'] = prop.enum.map((v) => {
      const k = `enums.${enumId}.${String(v)}`;
      return o.exists(k) ? o.t(k) : String(v);
    });
  }
  if (prop.format === 'password-policy') field['ui:help'] = o.t('validation.hint.password-policy', passwordPolicyValues());
  // A field whose name alone does not explain it has its help in the locale (fields.help.<name>).
  else if (o.exists(`fields.help.${name}`)) field['ui:help'] = o.t(`fields.help.${name}`);
  if (!choice && prop.type === 'object' && prop.properties) {
    for (const [k, p] of Object.entries(prop.properties as Props)) field[k] = fieldUi(k, p, field[k] as Record<string, unknown> | undefined, o, true);
  }
  const items = prop.items as Record<string, unknown> | undefined;
  if (!choice && prop.type === 'array' && items?.type === 'object' && items.properties) {
    const itemUi: Record<string, unknown> = { ...((field.items as Record<string, unknown> | undefined) ?? {}) };
    // Each item is headed by the list's translated label (rjsf would write the schema's title, an
    // i18n key, with the item's number: "fields.accountSids-1").
    if (itemUi['ui:title'] === undefined && typeof field['ui:title'] === 'string') itemUi['ui:title'] = field['ui:title'];
    for (const [k, p] of Object.entries(items.properties as Props)) itemUi[k] = fieldUi(k, p, itemUi[k] as Record<string, unknown> | undefined, o, true);
    field.items = itemUi;
  }
  return field;
}

export function formUiSchema(schema: RJSFSchema, base: UiSchema | undefined, o: UiOptions): UiSchema {
  const key = `${o.cacheKey}|${o.language}|${[...(o.hidden ?? [])].sort().join(',')}|${[...(o.readonly ?? [])].sort().join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const ui: UiSchema = { ...(base ?? {}) };
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Props)) {
    const field = fieldUi(name, prop, base?.[name] as Record<string, unknown> | undefined, o, false);
    if (o.hidden?.has(name)) field['ui:widget'] = 'hidden';
    if (o.readonly?.has(name)) field['ui:readonly'] = true;
    ui[name] = field;
  }
  cache.set(key, ui);
  return ui;
}
