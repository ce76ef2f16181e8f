// Screens compiled for the console runtime: each form's rjsf schema and uiSchema are built here
// once, so schema identity stays stable in the browser (rjsf #1961).
import type { Model, Schema, Json, Screen } from '../model.ts';
import { deref } from '../schema-utils.ts';
import { exportConst, printFile, toExpr, exportType, stringUnion } from '../ts.ts';

const WIDGETS: Record<string, string> = { password: 'password', captcha: 'CaptchaWidget', phone: 'PhoneWidget' };

export function formSchema(model: Model, screen: Screen, fields: string[], opId: string, requiredOverride?: string[]) {
  const op = model.operations.find((o) => o.id === opId)!;
  const body = (op.body ?? { properties: {} }) as Schema;
  const props = { ...((body.properties as Schema) ?? {}), ...((screen.extraFields as Schema) ?? {}) };
  const properties: Record<string, Json> = {};
  const uiSchema: Record<string, Json> = { 'ui:order': [...fields, '*'], 'ui:submitButtonOptions': { norender: true } };
  for (const name of fields) {
    const p = deref(props[name] as Json, model.entities) as Schema;
    properties[name] = { ...p, title: `fields.${name}` };
    const ui: Record<string, Json> = {};
    const widget = p['x-widget'] as string | undefined;
    if (widget) ui['ui:widget'] = WIDGETS[widget] ?? widget;
    if (p.type === 'boolean') ui['ui:widget'] = 'checkbox';
    if (name === 'email') ui['ui:autocomplete'] = 'email';
    if (Object.keys(ui).length) uiSchema[name] = ui;
  }
  const required = requiredOverride ?? ((body.required as string[]) ?? []).filter((r) => fields.includes(r));
  return { schema: { type: 'object', required, properties }, uiSchema };
}

export function emitScreens(model: Model): string {
  const compiled = model.screens.map((s) => {
    const { file, fields, extraFields, required, ...rest } = s as Screen & { fields?: string[]; required?: string[] };
    void file; void extraFields;
    const out: Record<string, unknown> = { ...rest };
    if (s.kind === 'form') {
      Object.assign(out, formSchema(model, s, fields ?? [], s.operation as string, required));
      out.secondaryActions = ((s.secondaryActions as any[]) ?? []).map((a) => ({ ...a }));
    }
    if (s.kind === 'list' && s.entity) {
      const entity = model.entities.get(s.entity as string)!;
      const props = entity.properties as Schema;
      out.columns = ((s.columns as string[]) ?? []).map((c) => {
        const p = props[c] as Schema;
        return { field: c, label: `fields.${c}`, type: p.format === 'date-time' ? 'datetime' : (p.type as string) };
      });
    }
    return out;
  });
  return printFile([
    exportConst('screens', toExpr(Object.fromEntries(compiled.map((c) => [c.id as string, c])))),
    exportType('ScreenId', stringUnion(model.screens.map((s) => s.id))),
  ]);
}
