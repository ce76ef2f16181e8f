// Screens compiled for the console runtime (src/console/runtime): each screen's rjsf schema and
// uiSchema, table columns with the field schemas their cells are chosen from, filters, tabs,
// steps, report payloads and charts are built here once, so schema identity stays stable in the
// browser (rjsf #1961) and a declaration error is found at generation time, not in the browser.
// A field's widget is not chosen here: the schema keeps what the YAML said (`x-widget`, formats)
// and the console's ranked widget registry (src/console/runtime/form/widgets) chooses.
// docs/console.md "Screen kinds" documents the vocabulary (schemas/_meta/screen.schema.yaml).
import { join } from 'node:path';
import { Ajv } from 'ajv';
import type { Model, Schema, Json, Screen, Operation } from '../model.ts';
import { DeclarationError, loadYaml } from '../load.ts';
import { exportConst, printFile, toExpr, exportType, stringUnion, raw, f } from '../ts.ts';

type Where = (string | number)[];

/** Throws a DeclarationError naming the screen file, the path inside it and its line. */
function failer(model: Model, screen: Screen) {
  return (path: Where, reason: string): never => {
    let line: number | undefined;
    try {
      line = loadYaml(model.root, join(model.root, screen.file), model.productKey).lineOf(path);
    } catch {
      line = undefined;
    }
    throw new DeclarationError(screen.file, '/' + path.join('/'), reason, line);
  };
}

/**
 * Inlines "$ref": "x#" like schema-utils' deref, and marks an inlined enum with `x-enum: <id>` so
 * the console can find its labels (`enums.<id>.<value>`) whatever the field is called.
 */
export function derefForScreen(schema: Json, entities: Map<string, Schema>, seen: string[] = []): Json {
  if (Array.isArray(schema)) return schema.map((s) => derefForScreen(s, entities, seen));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') {
    const id = schema.$ref.replace(/#$/, '');
    if (seen.includes(id)) throw new Error(`recursive $ref ${id} cannot be inlined`);
    const { $id: _id, description: _d, ...target } = entities.get(id)!;
    const { $ref: _r, ...rest } = schema;
    const inlined = derefForScreen({ ...target, ...rest }, entities, [...seen, id]) as Schema;
    return Array.isArray(target.enum) ? { ...inlined, 'x-enum': id } : inlined;
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, derefForScreen(v, entities, seen)]));
}

/** What a screen's `$ref` may name: the entities and enums, and the shared screen fields (config/screen-fields). */
const schemasCache = new WeakMap<Model, Map<string, Schema>>();
function screenSchemas(model: Model): Map<string, Schema> {
  let all = schemasCache.get(model);
  if (!all) schemasCache.set(model, (all = new Map([...model.entities, ...model.screenFields])));
  return all;
}

const opById = (model: Model, id: string) => model.operations.find((o) => o.id === id);

/**
 * The file size a screen's upload allows is the operation's (its YAML's `uploadLimit`, else the
 * campaign file's, resolved in model.ts; the server's body limit reads the same): filled
 * in here, so the console refuses a file over it before sending, from the same declaration the
 * server's body limit reads. A screen that names another limit is refused.
 */
function withOperationLimit(upload: Schema, op: Model['operations'][number], fail: (r: string) => never): Schema {
  const limit = op.uploadLimit!; // a multipart operation always has one (model.ts)
  if (upload.maxBytes !== undefined && upload.maxBytes !== limit) fail(`maxBytes "${String(upload.maxBytes)}" is not ${op.id}'s limit ("${limit}"): leave it out, the operation's uploadLimit is the one`);
  return { ...upload, maxBytes: limit };
}

/** Every `x-options.operation` and `x-upload.operation` inside a schema must be declared; an upload gets its operation's file limit. */
function checkOptions(model: Model, schema: Json, fail: (p: Where, r: string) => never, at: Where) {
  const walk = (s: Json, path: Where) => {
    if (Array.isArray(s)) return s.forEach((x, i) => walk(x, [...path, i]));
    if (!s || typeof s !== 'object') return;
    const opts = s['x-options'] as Schema | undefined;
    if (opts && typeof opts.operation === 'string' && !opById(model, opts.operation)) fail(path, `x-options: unknown operation "${opts.operation}"`);
    const upload = s['x-upload'] as Schema | undefined;
    if (upload && typeof upload.operation === 'string') {
      const op = opById(model, upload.operation);
      if (!op) fail(path, `x-upload: unknown operation "${upload.operation}"`);
      // The schema is the screen's own copy (derefForScreen builds new objects): filled in place.
      (s as Schema)['x-upload'] = withOperationLimit(upload, op!, (r) => fail([...path, 'x-upload'], `x-upload: ${r}`));
    }
    for (const [k, v] of Object.entries(s)) if (k !== 'x-options' && k !== 'x-upload') walk(v, [...path, k]);
  };
  walk(schema, at);
}

/**
 * `x-options.fill: { <form field>: <row property> }` on a form's (or wizard's) field: each target
 * must be another field of the form, the field must take one choice, and the first segment of each
 * property must be a property of the options operation's rows when their schema is declared.
 */
function checkFill(model: Model, screen: Screen, properties: Schema, fields: string[], fieldPath: (name: string) => Where, fail: (p: Where, r: string) => never) {
  const extra = (screen.extraFields as Schema | undefined) ?? {};
  for (const name of fields) {
    const p = properties[name] as Schema;
    const opts = (p['x-options'] ?? (p.items as Schema | undefined)?.['x-options']) as Schema | undefined;
    if (!opts || opts.fill === undefined) continue;
    const at: Where = name in extra ? ['extraFields', name, 'x-options', 'fill'] : fieldPath(name);
    const fill = opts.fill as Schema;
    if (!fill || typeof fill !== 'object' || Array.isArray(fill)) fail(at, 'x-options.fill must be an object { <form field>: <row property> }');
    if (p.type === 'array') fail(at, `x-options.fill needs a single choice; "${name}" takes several`);
    const rows = itemSchema(model, opById(model, opts.operation as string), opts.itemsPath as string | undefined)?.properties as Schema | undefined;
    for (const [target, from] of Object.entries(fill)) {
      if (target === name || !fields.includes(target)) fail([...at, target], `"${target}" is not another field of this form`);
      if (typeof from !== 'string' || !from) fail([...at, target], 'the row property must be a non-empty string');
      if (rows && !((from as string).split('.')[0] in rows)) fail([...at, target], `"${from as string}" is not a property of ${opts.operation as string}'s rows`);
    }
  }
}

/**
 * A nullable object (`anyOf: [X, {type: null}]`, e.g. a campaign's recurrence) is edited as X: a
 * form leaves it out when empty, and the anyOf would otherwise render as a choice between
 * "option 1" and "option 2" instead of X's fields.
 */
export function nonNull(p: Schema): Schema {
  const any = p.anyOf as Schema[] | undefined;
  if (!Array.isArray(any) || any.length !== 2) return p;
  const rest = any.filter((s) => s.type !== 'null');
  if (rest.length !== 1) return p;
  const { anyOf: _a, ...own } = p;
  return { ...rest[0], ...own };
}

export function formSchema(model: Model, screen: Screen, fields: string[], opId: string, requiredOverride?: string[]) {
  const op = opById(model, opId)!;
  const body = (op.body ?? { properties: {} }) as Schema;
  const props = { ...((body.properties as Schema) ?? {}), ...((screen.extraFields as Schema) ?? {}) };
  const properties: Record<string, Json> = {};
  const uiSchema: Record<string, Json> = { 'ui:order': [...fields, '*'], 'ui:submitButtonOptions': { norender: true } };
  for (const name of fields) {
    const p = nonNull(derefForScreen(props[name] as Json, screenSchemas(model)) as Schema);
    properties[name] = { ...p, title: (p.title as string | undefined) ?? `fields.${name}` };
  }
  if (Array.isArray(screen.rows)) uiSchema['ui:rows'] = screen.rows as Json;
  const required = requiredOverride ?? ((body.required as string[]) ?? []).filter((r) => fields.includes(r));
  return { schema: { type: 'object', required, properties }, uiSchema };
}

/** The item schema a list or report operation answers (`{ items: [x] }` or `[x]`), if declared. */
function itemSchema(model: Model, op: Operation | undefined, itemsPath?: string): Schema | null {
  let s = op?.response ? (derefForScreen(op.response, model.entities) as Schema) : null;
  if (!s) return null;
  for (const part of (itemsPath ?? (op?.list ? 'items' : '')).split('.').filter(Boolean)) {
    s = ((s.properties as Schema | undefined)?.[part] as Schema | undefined) ?? null;
    if (!s) return null;
  }
  if (s.type === 'array' && s.items) s = s.items as Schema;
  return s.type === 'object' && s.properties ? s : null;
}

/** A column's display schema: what the cell testers look at (no validation keywords). */
function cellSchema(p: Schema | undefined): Schema {
  if (!p) return {};
  const keep = ['type', 'format', 'enum', 'x-enum', 'x-display', 'x-secret', 'writeOnly', 'x-widget', 'x-options', 'x-source', 'items'];
  const out: Schema = {};
  for (const k of keep) if (p[k] !== undefined) out[k] = k === 'items' ? cellSchema(p[k] as Schema) : p[k];
  return out;
}

type ColumnDecl = string | { field: string; label?: string; cell?: string; enum?: string; width?: number; colors?: Schema };

function compileColumns(decls: ColumnDecl[], props: Schema | null, fail: (p: Where, r: string) => never, at: string, sortable: string[] = []) {
  return decls.map((d, i) => {
    const c = typeof d === 'string' ? { field: d } : d;
    const head = c.field.split('.')[0];
    if (props && !(head in props)) fail([at, i], `column "${c.field}" is not a field of the records`);
    const p = props ? (props[head] as Schema) : undefined;
    return {
      field: c.field,
      label: c.label ?? `fields.${head}`,
      // A column that names its cell reads a nullable value (anyOf [X, null]) as X: `cell: enum` on a nullable enum shows its labels.
      // A nullable enum is read as its enum whatever the cell (a detail's "last run" shows "Procesado", not "completed").
      schema: c.enum ? { ...cellSchema(p), 'x-enum': c.enum } : cellSchema(p && (c.cell || Array.isArray(nonNull(p).enum)) ? nonNull(p) : p),
      ...(c.cell ? { cell: c.cell } : {}),
      ...(c.width ? { width: c.width } : {}),
      ...(c.colors ? { colors: c.colors } : {}),
      sortable: sortable.includes(c.field),
    };
  });
}

/** Actions keep what the runtime needs: the operation's method and declared permission. */
function compileActions(model: Model, list: unknown, fail: (p: Where, r: string) => never, at: string) {
  return ((list as Schema[] | undefined) ?? []).map((a, i) => {
    const out: Record<string, Json> = { ...a };
    if (typeof a.operation === 'string') {
      const op = opById(model, a.operation);
      if (!op) fail([at, i, 'operation'], `unknown operation "${a.operation}"`);
      out.method = op!.method;
      if (!a.permission && op!.permission) out.permission = { component: op!.permission.component, action: op!.permission.action };
      if (a.confirm === undefined && op!.method === 'DELETE') out.confirm = true;
      const confirmLoad = a.confirmLoad as { operation: string } | undefined;
      if (confirmLoad && !opById(model, confirmLoad.operation)) fail([at, i, 'confirmLoad', 'operation'], `unknown operation "${confirmLoad.operation}"`);
      if (confirmLoad && !a.confirm) fail([at, i, 'confirmLoad'], 'a confirmLoad fills a confirmation: the action needs `confirm`');
      // An upload action needs an operation that takes a file.
      if (a.upload && !op!.multipart?.length) fail([at, i, 'upload'], `${op!.id} takes no file (multipart)`);
      if (a.upload) out.upload = withOperationLimit(a.upload as Schema, op!, (r) => fail([at, i, 'upload', 'maxBytes'], r)) as Json;
      // `result`: answer fields shown after the action, each with the cell its schema calls for.
      if (Array.isArray(a.result)) {
        const answer = itemSchema(model, op)?.properties as Schema | undefined;
        out.result = compileColumns(a.result as ColumnDecl[], answer ?? null, (p, r) => fail([at, i, 'result', ...p.slice(1)], r), 'result') as unknown as Json;
      }
    }
    return out;
  });
}

function entityProps(model: Model, id: unknown, fail: (p: Where, r: string) => never): Schema | null {
  if (typeof id !== 'string') return null;
  const e = model.entities.get(id);
  if (!e) fail(['entity'], `unknown entity "${id}"`);
  return (derefForScreen(e!, model.entities) as Schema).properties as Schema;
}

function compileList(model: Model, s: Screen, fail: (p: Where, r: string) => never) {
  const op = opById(model, s.operation as string)!;
  const props = entityProps(model, s.entity, fail) ?? (itemSchema(model, op, s.itemsPath as string | undefined)?.properties as Schema | undefined) ?? null;
  const list = op.list;
  const query = ((op.query?.properties as Schema | undefined) ?? {}) as Schema;
  const filterNames = (s.filters as string[] | undefined) ?? list?.filters ?? [];
  const filters = filterNames.map((name, i) => {
    if (!(name in query)) fail(['filters', i], `filter "${name}" is not a query param of ${op.id}`);
    const p = derefForScreen(query[name], screenSchemas(model)) as Schema;
    return { field: name, label: `fields.${name}`, schema: cellSchema(p) };
  });
  // Subtab presets set filters the list shows.
  for (const [tab, preset] of Object.entries((s.subtabs as Record<string, Schema> | undefined) ?? {})) {
    for (const name of Object.keys(preset)) if (!filterNames.includes(name)) fail(['subtabs', tab, name], `"${name}" is not a filter of this list`);
  }
  const defaultSort = s.defaultSort as { field: string; order?: string } | undefined;
  if (defaultSort && !(list?.sortable ?? []).includes(defaultSort.field)) fail(['defaultSort', 'field'], `"${defaultSort.field}" is not sortable in ${op.id}'s x-list`);
  let formModes: Record<string, Json> | undefined;
  for (const [k, kind] of [['form', 'form'], ['detail', 'detail']] as const) {
    const ref = s[k] as string | undefined;
    if (!ref) continue;
    const target = model.screens.find((x) => x.id === ref);
    if (!target) fail([k], `unknown screen "${ref}"`);
    // `form` may be a wizard (create only); `detail` may be a form with view mode, or a feature (the flow editor).
    const fits = target!.kind === kind || (k === 'form' && target!.kind === 'wizard') || (k === 'detail' && (target!.kind === 'form' || target!.kind === 'feature'));
    if (!fits) fail([k], `screen "${ref}" is a ${target!.kind}, not a ${kind}`);
    // What the list needs of its form, inlined: each screen is a module of its own in the browser.
    if (k === 'form') {
      const edit = target!.edit as { operation?: string } | undefined;
      formModes = ({
        create: { operation: target!.operation as string, ...permissionOf(model, target!.operation as string) },
        ...(edit ? { edit: { operation: edit.operation ?? (target!.operation as string), ...permissionOf(model, edit.operation ?? (target!.operation as string)) } } : {}),
        view: !!target!.view,
      }) as Record<string, Json>;
    }
  }
  return {
    paged: !!list,
    itemsPath: (s.itemsPath as string | undefined) ?? (list ? 'items' : undefined),
    columns: compileColumns((s.columns as ColumnDecl[]) ?? [], props, fail, 'columns', list?.sortable ?? []),
    search: (s.search as boolean | undefined) ?? (list ? list.search.length > 0 : false),
    filters,
    pageSize: (s.pageSize as number | undefined) ?? 50,
    rowActions: compileActions(model, s.rowActions, fail, 'rowActions'),
    bulkActions: compileActions(model, s.bulkActions, fail, 'bulkActions'),
    export: (s.export as string[] | undefined) ?? [],
    exportName: (s.exportName as string | undefined) ?? s.id,
    ...(op.permission ? { permission: { component: op.permission.component, action: op.permission.action } } : {}),
    ...(formModes ? { formModes } : {}),
  };
}

function compileForm(model: Model, s: Screen, fail: (p: Where, r: string) => never) {
  const fields = (s.fields as string[]) ?? [];
  ((s.rows as string[][] | undefined) ?? []).forEach((row, r) => row.forEach((f, c) => {
    if (!fields.includes(f)) fail(['rows', r, c], `field "${f}" is not in fields`);
  }));
  const out: Record<string, unknown> = formSchema(model, s, fields, s.operation as string, s.required as string[] | undefined);
  checkOptions(model, out.schema as Json, fail, ['fields']);
  checkFill(model, s, (out.schema as Schema).properties as Schema, fields, (name) => ['fields', fields.indexOf(name)], fail);
  // `showWhen`: a field shows only while the values meet its condition, read on the form's own fields.
  for (const [field, when] of Object.entries((s.showWhen as Record<string, { field: string }> | undefined) ?? {})) {
    if (!fields.includes(field)) fail(['showWhen', field], `field "${field}" is not in fields`);
    if (!fields.includes(when.field.split('.')[0])) fail(['showWhen', field, 'field'], `"${when.field}" is not a field of this form`);
  }
  const by = s.fieldsBy as { field: string } | undefined;
  if (by && !fields.includes(by.field)) fail(['fieldsBy', 'field'], `"${by.field}" is not a field of this form`);
  const edit = s.edit as { operation?: string; params?: Schema } | undefined;
  if (edit) {
    const op = edit.operation ?? (s.operation as string);
    if (!opById(model, op)) fail(['edit', 'operation'], `unknown operation "${op}"`);
    // Fields the edit operation does not take (a channel's platform, fixed at creation) are read-only when editing.
    const editProps = (opById(model, op)!.body?.properties as Schema | undefined) ?? null;
    const fixed = editProps ? fields.filter((f) => !(f in editProps) && !(f in ((s.extraFields as Schema) ?? {}))) : [];
    out.edit = { operation: op, params: edit.params ?? s.params ?? {}, method: opById(model, op)!.method, ...permissionOf(model, op), ...(fixed.length ? { readonly: fixed } : {}), ...bodyFieldsOf(model, op) };
  }
  if ((edit || s.view) && !s.load) fail(['load'], 'a form with edit or view mode needs `load`');
  out.create = { operation: s.operation, method: opById(model, s.operation as string)!.method, ...permissionOf(model, s.operation as string), ...bodyFieldsOf(model, s.operation as string) };
  out.secondaryActions = compileActions(model, s.secondaryActions, fail, 'secondaryActions');
  // `onSuccess.result`: answer fields shown in a result box after the save (a test message's
  // delivery status), each with the cell its schema in the answer calls for.
  const onSuccess = s.onSuccess as { result?: ColumnDecl[] } | undefined;
  if (onSuccess?.result) {
    const answer = itemSchema(model, opById(model, s.operation as string))?.properties as Schema | undefined;
    out.onSuccess = { ...onSuccess, result: compileColumns(onSuccess.result, answer ?? null, (p, r) => fail(['onSuccess', ...p], r), 'result') };
  }
  out.idField = (s.idField as string | undefined) ?? 'id';
  out.dirtyGuard = (s.dirtyGuard as boolean | undefined) ?? s.access !== 'public';
  return out;
}

/**
 * The properties an operation's body takes, when it refuses any other (additionalProperties:
 * false): the form sends only these, so a field that is not part of the body (an image uploaded
 * through its own operation, a carried id) never reaches it. Absent: the form sends its fields.
 */
const bodyFieldsOf = (model: Model, opId: string) => {
  const body = opById(model, opId)?.body as Schema | undefined;
  return body && body.additionalProperties === false && body.properties ? { body: Object.keys(body.properties as Schema) } : {};
};

const permissionOf = (model: Model, opId: string) => {
  const p = opById(model, opId)?.permission;
  return p ? { permission: { component: p.component, action: p.action } } : {};
};

function compileDetail(model: Model, s: Screen, fail: (p: Where, r: string) => never) {
  const load = s.load as { operation: string };
  const props = entityProps(model, s.entity, fail) ?? (itemSchema(model, opById(model, load.operation))?.properties as Schema | undefined) ?? null;
  const tabs = (s.tabs as Schema[]).map((tab, i) => {
    if (tab.screen) {
      const target = model.screens.find((x) => x.id === tab.screen);
      if (!target) fail(['tabs', i, 'screen'], `unknown screen "${tab.screen}"`);
      if (target!.kind !== 'list') fail(['tabs', i, 'screen'], `screen "${tab.screen}" is a ${target!.kind}, not a list`);
      return { label: tab.label, screen: tab.screen, params: tab.params ?? {}, list: compileScreen(model, target!) as Json };
    }
    // A tab may show another operation's answer (a campaign's pre-launch summary) instead of the record.
    const tabLoad = tab.load as { operation: string; params?: Schema } | undefined;
    let source = props;
    if (tabLoad) {
      const op = opById(model, tabLoad.operation);
      if (!op) fail(['tabs', i, 'load', 'operation'], `unknown operation "${tabLoad.operation}"`);
      source = (itemSchema(model, op)?.properties as Schema | undefined) ?? null;
    }
    const cols = compileColumns(tab.fields as string[], source, (p, r) => fail(['tabs', i, ...p], r), 'fields');
    return { label: tab.label, fields: cols, ...(tabLoad ? { load: tabLoad } : {}), ...(tab.checklist ? { checklist: tab.checklist as Json } : {}), ...(tab.hideEmpty ? { hideEmpty: true } : {}) };
  });
  return { tabs, actions: compileActions(model, s.actions, fail, 'actions'), idField: (s.idField as string | undefined) ?? 'id' };
}

function compileWizard(model: Model, s: Screen, fail: (p: Where, r: string) => never) {
  const steps = s.steps as { label: string; description?: string; fields: string[]; when?: { field: string } }[];
  const op = opById(model, s.operation as string)!;
  const props = { ...((op.body?.properties as Schema) ?? {}), ...((s.extraFields as Schema) ?? {}) };
  const seen = new Set<string>();
  steps.forEach((st, i) => {
    if (i === 0 && st.when) fail(['steps', 0, 'when'], 'the first step is always taken');
    if (st.when && !steps.slice(0, i).some((b) => b.fields.includes(st.when!.field))) fail(['steps', i, 'when', 'field'], `"${st.when.field}" is not a field of an earlier step`);
  });
  steps.forEach((st, i) => st.fields.forEach((f, j) => {
    if (!(f in props)) fail(['steps', i, 'fields', j], `field "${f}" is neither in ${op.id}'s body nor in extraFields`);
    if (seen.has(f)) fail(['steps', i, 'fields', j], `field "${f}" is in two steps`);
    seen.add(f);
  }));
  const all = steps.flatMap((st) => st.fields);
  const { schema, uiSchema } = formSchema(model, s, all, op.id, s.required as string[] | undefined);
  checkOptions(model, schema as Json, fail, ['steps']);
  const stepPath = (name: string): Where => {
    const i = steps.findIndex((st) => st.fields.includes(name));
    return ['steps', i, 'fields', steps[i].fields.indexOf(name)];
  };
  checkFill(model, s, schema.properties as Schema, all, stepPath, fail);
  // Like a form, a wizard sends only what its operation's body takes when that body refuses others.
  const create = { operation: op.id, method: op.method, ...permissionOf(model, op.id), ...bodyFieldsOf(model, op.id) };
  return { schema, uiSchema, create, steps: steps.map((st) => ({ label: st.label, ...(st.description ? { description: st.description } : {}), fields: st.fields, ...(st.when ? { when: st.when as Json } : {}) })), dirtyGuard: (s.dirtyGuard as boolean | undefined) ?? true };
}

/** `$f.a.b` references inside a payload. */
function formRefs(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string' && v.startsWith('$f.')) out.push(v.slice(3).split('.')[0]);
  else if (Array.isArray(v)) v.forEach((x) => formRefs(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => formRefs(x, out));
  return out;
}

/** An expression ($f.…, $today) or a value holding one: the runtime fills it, so it is not checked here. */
const hasExpression = (v: unknown): boolean =>
  typeof v === 'string' ? v.startsWith('$') : Array.isArray(v) ? v.some(hasExpression) : v !== null && typeof v === 'object' ? Object.values(v).some(hasExpression) : false;

const literalChecker = new Ajv({ allErrors: false, strict: false, validateFormats: false });

/**
 * A payload's written-out values against the operation's request (its body, else its query): a key
 * the request does not take, or a value it would refuse (a GroupBy dimension misspelt), fails here,
 * naming the file and the key, instead of answering 400 when the report runs.
 */
function checkPayloadLiterals(model: Model, op: Operation, payload: unknown, fail: (p: Where, r: string) => never, at: Where) {
  const request = op.body ?? op.query;
  if (!request || !payload || typeof payload !== 'object') return;
  const schema = derefForScreen(request, model.entities) as Schema;
  const properties = (schema.properties as Schema | undefined) ?? {};
  // A GET operation's path parameters come from the same values (the runtime puts each where it goes).
  const pathParams = op.body ? {} : (((op.params as Schema | null)?.properties as Record<string, unknown> | undefined) ?? {});
  for (const [key, value] of Object.entries(payload)) {
    const property = properties[key] as Schema | undefined;
    if (!property) {
      if (key in pathParams) continue;
      if (schema.additionalProperties === false) fail([...at, key], `"${key}" is not in ${op.id}'s request (${Object.keys(properties).join(', ')})`);
      continue;
    }
    if (hasExpression(value)) continue;
    const validate = literalChecker.compile(property);
    if (!validate(value)) fail([...at, key], `${JSON.stringify(value)} is refused by ${op.id}: ${validate.errors?.[0]?.instancePath ?? ''} ${validate.errors?.[0]?.message ?? 'invalid'}${validate.errors?.[0]?.params && 'allowedValues' in validate.errors[0].params ? ` (${(validate.errors[0].params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : ''}`);
  }
}

function compileChart(model: Model, c: Schema, fail: (p: Where, r: string) => never, at: Where) {
  if (typeof c.operation === 'string' && !opById(model, c.operation)) fail([...at, 'operation'], `unknown operation "${c.operation}"`);
  const top = (c.top as number | undefined) ?? (model.constants.reports?.topN as number | undefined);
  return { ...c, ...(top !== undefined ? { top } : {}) };
}

function compileReport(model: Model, s: Screen, fail: (p: Where, r: string) => never) {
  const op = opById(model, s.operation as string)!;
  const filters = derefForScreen(s.filters as Json, screenSchemas(model)) as Schema;
  // First: it fills each upload's file limit in place, which the copies below then carry.
  checkOptions(model, filters, fail, ['filters']);
  const fprops = (filters.properties as Schema) ?? {};
  const properties = Object.fromEntries(Object.entries(fprops).map(([k, p]) => [k, { ...(p as Schema), title: ((p as Schema).title as string | undefined) ?? `fields.${k}` }]));
  for (const ref of formRefs(s.payload)) if (!(ref in fprops)) fail(['payload'], `$f.${ref} is not a filter`);
  checkPayloadLiterals(model, op, s.payload, fail, ['payload']);
  const uiSchema: Record<string, Json> = { 'ui:order': [...Object.keys(fprops), '*'], 'ui:submitButtonOptions': { norender: true } };
  if (Array.isArray(s.rows)) uiSchema['ui:rows'] = s.rows as Json;
  const props = itemSchema(model, op, s.itemsPath as string | undefined)?.properties as Schema | undefined;
  return {
    schema: { ...filters, properties },
    uiSchema,
    payload: s.payload,
    columns: compileColumns(s.columns as ColumnDecl[], props ?? null, fail, 'columns'),
    ...(s.chart ? { chart: compileChart(model, s.chart as Schema, fail, ['chart']) } : {}),
    export: (s.export as string[] | undefined) ?? [],
    exportName: (s.exportName as string | undefined) ?? s.id,
    ...(s.download ? { download: compileDownload(model, s.download as Schema, fail) } : {}),
    ...(Array.isArray(s.sections) ? { sections: (s.sections as Schema[]).map((x, i) => compileSection(model, x, op, fprops, (p, r) => fail(['sections', i, ...p], r), `${s.id}-${i + 1}`)) } : {}),
    ...permissionOf(model, op.id),
  };
}

/** A report's server-made file: an operation that produces binary, called with the report's payload. */
function compileDownload(model: Model, d: Schema, fail: (p: Where, r: string) => never) {
  const op = opById(model, d.operation as string);
  if (!op) fail(['download', 'operation'], `unknown operation "${String(d.operation)}"`);
  if (op.produces !== 'binary') fail(['download', 'operation'], `"${op.id}" does not produce a file (produces: binary)`);
  return { ...d, ...permissionOf(model, op.id) };
}

/** A report's section: its operation (else the report's own answer), payload over the same filters, columns and chart. */
function compileSection(model: Model, x: Schema, reportOp: NonNullable<ReturnType<typeof opById>>, filters: Schema, fail: (p: Where, r: string) => never, exportName: string) {
  const op = typeof x.operation === 'string' ? opById(model, x.operation) : reportOp;
  if (!op) fail(['operation'], `unknown operation "${String(x.operation)}"`);
  if (x.payload && !x.operation) fail(['payload'], 'a section without an operation reads the report\'s answer: it has no payload');
  for (const ref of formRefs(x.payload)) if (!(ref in filters)) fail(['payload'], `$f.${ref} is not a filter`);
  if (x.payload) checkPayloadLiterals(model, op, x.payload, fail, ['payload']);
  const props = itemSchema(model, op, x.itemsPath as string | undefined)?.properties as Schema | undefined;
  return {
    ...x,
    columns: compileColumns(x.columns as ColumnDecl[], props ?? null, fail, 'columns'),
    ...(x.chart ? { chart: compileChart(model, x.chart as Schema, fail, ['chart']) } : {}),
    export: (x.export as string[] | undefined) ?? [],
    exportName: (x.exportName as string | undefined) ?? exportName,
    ...(x.operation ? permissionOf(model, op.id) : {}),
  };
}

/** One screen as the runtime reads it. */
export function compileScreen(model: Model, s: Screen): Record<string, unknown> {
  const fail = failer(model, s);
  const { file: _file, fields: _fields, extraFields: _extra, required: _required, rows: _rows, filters: _filters, ...rest } = s as Screen & Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest };
  switch (s.kind) {
    case 'form':
      Object.assign(out, compileForm(model, s, fail));
      if (typeof s.sessionScreen === 'string') {
        const other = model.screens.find((x) => x.id === s.sessionScreen);
        if (other) out.sessionScreenDef = compileScreen(model, other);
      }
      break;
    case 'list':
      Object.assign(out, compileList(model, s, fail));
      break;
    case 'detail':
      Object.assign(out, compileDetail(model, s, fail));
      break;
    case 'wizard':
      delete out.steps;
      Object.assign(out, compileWizard(model, s, fail));
      break;
    case 'report':
      Object.assign(out, compileReport(model, s, fail));
      break;
    case 'dashboard':
      out.charts = ((s.charts as Schema[] | undefined) ?? []).map((c, i) => compileChart(model, c, fail, ['charts', i]));
      out.tables = ((s.tables as Schema[] | undefined) ?? []).map((tb, i) => {
        const op = opById(model, tb.operation as string);
        if (!op) fail(['tables', i, 'operation'], `unknown operation "${String(tb.operation)}"`);
        const props = itemSchema(model, op, tb.itemsPath as string | undefined)?.properties as Schema | undefined;
        return { ...tb, columns: compileColumns(tb.columns as ColumnDecl[], props ?? null, fail, `tables/${i}/columns`) };
      });
      break;
  }
  return out;
}

/**
 * One module per screen (`screen.<id>.gen.ts`): the route table imports a screen's compiled form
 * lazily with its renderer, so the first load carries the sign-in screen, not every screen.
 */
export function emitScreenModules(model: Model): [string, string][] {
  return model.screens.map((s) => [`screen.${s.id}.gen.ts`, printFile([exportConst('screen', toExpr(compileScreen(model, s)))])]);
}

/**
 * The whole table, for tests and stories (the product loads screens one by one). It imports the
 * per-screen modules rather than repeating their data, so each screen is compiled into one place.
 */
export function emitScreens(model: Model): string {
  const alias = (id: string) => `screen_${id}`;
  const imports = model.screens.map((s) =>
    f.createImportDeclaration(
      undefined,
      f.createImportClause(false, undefined, f.createNamedImports([f.createImportSpecifier(false, f.createIdentifier('screen'), f.createIdentifier(alias(s.id)))])),
      f.createStringLiteral(`./screen.${s.id}.gen.ts`),
    ),
  );
  const table = Object.fromEntries(model.screens.map((s) => [s.id, raw(f.createIdentifier(alias(s.id)))]));
  return printFile([
    ...imports,
    exportConst('screens', toExpr(table)),
    exportType('ScreenId', stringUnion(model.screens.map((s) => s.id))),
  ]);
}
