// Loads schemas/ and config/, validates each kind against its meta-schema in schemas/_meta,
// checks the cross-references, and builds the one model every emitter reads.
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { listYaml, loadYaml, DeclarationError, type Loaded } from './load.ts';
import { readEnum, checkEnumMeta, apiSchema, type EnumDecl } from './enums.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Schema = { [k: string]: Json };

export interface Operation {
  id: string; tag: string; name: string; file: string;
  method: string; path: string; access: 'public' | 'session' | 'active'; credentials: ('token' | 'apiKey')[];
  /** Abuse throttling: the limit class and the body field that names the account. */
  throttle: { class: 'signin' | 'register' | 'recovery' | 'otp'; account: string } | null;
  permission: { component: number; action: string; self?: string; node?: string } | null;
  summary: string; params: Schema | null; query: Schema | null; body: Schema | null;
  /** Request headers the operation reads, each optional, by their usual spelling (Idempotency-Key). */
  headers: Schema | null;
  multipart: string[] | null;
  /** A multipart operation's file limit: a constants uploads key (its YAML's, else campaignFileBytes); null when it takes no file. */
  uploadLimit: string | null;
  response: Schema | null; produces: 'json' | 'binary';
  sandbox: boolean; errors: string[];
  /** x-list: the list convention's sortable, filter and search fields (list operations only). */
  list: { sortable: string[]; filters: string[]; search: string[] } | null;
}

export interface MenuNode {
  key: string; id: number | null; componentId: number | null; path: string; parentKey: string | null;
  roles: string[] | null; manageRoles: string[] | null; flags: string[]; hidden: boolean; noId: boolean; planExclude: string[];
  actions: string[]; screen: string | null; icon: string | null; label: string;
  subtabs: { id: number; key: string; label: string; actions: string[] }[];
}

export interface Screen { id: string; file: string; [k: string]: unknown }

export interface Model {
  root: string;
  productKey: string;
  app: Record<string, any>;
  constants: Record<string, any>;
  entities: Map<string, Schema>;
  /**
   * Fields several screens declare alike (config/screen-fields: a report's account picker, a date
   * range), referenced from a screen as `$ref: "<id>#"` and inlined there; never part of the API.
   */
  screenFields: Map<string, Schema>;
  /** schemas/enums in file order, with the facts x-meta / x-values declare about each value. */
  enums: EnumDecl[];
  operations: Operation[];
  menu: MenuNode[];
  errors: Record<string, any[]>;
  screens: Screen[];
}

function metaValidator(root: string) {
  const ajv = new Ajv({ allErrors: false, strict: false });
  const metas = new Map<string, ReturnType<typeof ajv.compile>>();
  for (const kind of ['entity', 'enum', 'api', 'menu', 'errors', 'constants', 'app', 'screen']) {
    const meta = loadYaml(root, join(root, 'schemas/_meta', `${kind}.schema.yaml`)).data as object;
    metas.set(kind, ajv.compile(meta));
  }
  return (kind: string, loaded: Loaded) => {
    const validate = metas.get(kind)!;
    if (!validate(loaded.data)) {
      const e = validate.errors![0] as ErrorObject;
      const segs = e.instancePath.split('/').slice(1).map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
      const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as any).additionalProperty})` : '';
      throw new DeclarationError(loaded.file, e.instancePath, `${e.message ?? 'invalid'}${extra}`, loaded.lineOf(segs));
    }
  };
}

/** Every "$ref": "x#" inside a schema. */
export function refsOf(schema: Json, out: string[] = []): string[] {
  if (Array.isArray(schema)) schema.forEach((s) => refsOf(s, out));
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') out.push(v.replace(/#$/, ''));
      else refsOf(v, out);
    }
  }
  return out;
}

/**
 * An x-list operation follows the list convention: GET, the query params page, pageSize, sort,
 * order, q and after (the keyset cursor), `sort` enumerating exactly the sortable fields, every filter a query param.
 */
function checkList(l: Loaded, name: string, o: any): Operation['list'] {
  const list = { sortable: o['x-list'].sortable ?? [], filters: o['x-list'].filters ?? [], search: o['x-list'].search ?? [] };
  const at = ['operations', name];
  const fail = (reason: string) => { throw new DeclarationError(l.file, `/operations/${name}/x-list`, reason, l.lineOf(at)); };
  if (o.method !== 'GET') fail('a list operation must be GET');
  const query = o.query ?? {};
  for (const p of ['page', 'pageSize', 'sort', 'order', 'q', 'after']) if (!(p in query)) fail(`the list convention needs query param "${p}"`);
  // The keyset cursor is one declaration (schemas/entities/list-cursor.yaml) for every list.
  if (query.after.$ref !== 'list-cursor#') fail('query "after" must be { $ref: "list-cursor#" }');
  const sortEnum = (query.sort.enum ?? []) as string[];
  if ([...sortEnum].sort().join() !== [...list.sortable].sort().join()) fail('query "sort" must enumerate exactly the sortable fields');
  for (const f of list.filters) if (!(f in query)) fail(`filter "${f}" is not a query param`);
  return list;
}

export function buildModel(root: string): Model {
  const check = metaValidator(root);
  const appLoaded = loadYaml(root, join(root, 'config/app.yaml'));
  check('app', appLoaded);
  const app = appLoaded.data as Record<string, any>;
  const productKey: string = app.product.key;
  const load = (p: string) => loadYaml(root, p, productKey);

  const constantsLoaded = load(join(root, 'config/constants.yaml'));
  check('constants', constantsLoaded);

  // Entities and enums
  const entities = new Map<string, Schema>();
  const entityFiles = new Map<string, Loaded>();
  const enums = new Map<string, EnumDecl>();
  const enumFiles = listYaml(join(root, 'schemas/enums'));
  for (const p of [...enumFiles, ...listYaml(join(root, 'schemas/entities'))]) {
    const l = load(p);
    const isEnum = enumFiles.includes(p);
    check(isEnum ? 'enum' : 'entity', l);
    const s = isEnum ? apiSchema(l.data as Schema) : (l.data as Schema);
    const id = s.$id as string;
    if (entities.has(id)) throw new DeclarationError(l.file, '/$id', `duplicate $id "${id}"`, l.lineOf(['$id']));
    entities.set(id, s);
    entityFiles.set(id, l);
    if (isEnum) enums.set(id, readEnum(l));
  }
  for (const e of enums.values()) checkEnumMeta(e, entityFiles.get(e.id)!, enums);
  const checkRefs = (l: Loaded, path: (string | number)[], schema: Json) => {
    for (const ref of refsOf(schema)) {
      if (!entities.has(ref)) throw new DeclarationError(l.file, '/' + path.join('/'), `unknown $ref "${ref}#"`, l.lineOf(path));
    }
  };
  for (const [id, s] of entities) checkRefs(entityFiles.get(id)!, [], s);

  // Operations
  const operations: Operation[] = [];
  const seenRoutes = new Set<string>();
  // OpenAPI 3 forbids templated paths that differ only in their parameters' names
  // (/v1/events/{id} and /v1/events/{key} are one path): the first spelling of each shape wins.
  const pathShapes = new Map<string, string>();
  for (const p of listYaml(join(root, 'schemas/api'))) {
    const l = load(p);
    check('api', l);
    const d = l.data as { tag: string; operations: Record<string, any> };
    for (const [name, o] of Object.entries(d.operations)) {
      const id = `${d.tag}.${name}`;
      const route = `${o.method} ${o.path}`;
      if (seenRoutes.has(route)) throw new DeclarationError(l.file, `/operations/${name}`, `route ${route} declared twice`, l.lineOf(['operations', name]));
      seenRoutes.add(route);
      const shape = (o.path as string).replace(/\{[^}]+\}/g, '{}');
      const spelled = pathShapes.get(shape);
      if (spelled !== undefined && spelled !== o.path) {
        throw new DeclarationError(l.file, `/operations/${name}/path`, `path ${o.path} is ${spelled} with other parameter names (OpenAPI 3 forbids identical templated paths)`, l.lineOf(['operations', name, 'path']));
      }
      pathShapes.set(shape, o.path);
      if (operations.some((x) => x.id === id)) throw new DeclarationError(l.file, `/operations/${name}`, `operation ${id} declared twice`);
      const pathParams = [...(o.path as string).matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = Object.keys(o.params ?? {});
      if (pathParams.sort().join() !== declared.sort().join()) {
        throw new DeclarationError(l.file, `/operations/${name}/params`, `path parameters {${pathParams.join(', ')}} must each be declared under params`, l.lineOf(['operations', name]));
      }
      for (const part of ['params', 'query', 'headers', 'body', 'response'] as const) checkRefs(l, ['operations', name, part], o[part] ?? null);
      if (o.uploadLimit !== undefined && (!o.multipart || typeof (constantsLoaded.data as { uploads?: Record<string, unknown> }).uploads?.[o.uploadLimit] !== 'number')) {
        throw new DeclarationError(l.file, `/operations/${name}/uploadLimit`, `uploadLimit must name a number under uploads in config/constants.yaml, on a multipart operation`, l.lineOf(['operations', name, 'uploadLimit']));
      }
      // A throttled operation names its account by a required field of its body.
      if (o.throttle && !(o.body?.required ?? []).includes(o.throttle.account)) {
        throw new DeclarationError(l.file, `/operations/${name}/throttle`, `throttle.account ${o.throttle.account} must be a required field of the body`, l.lineOf(['operations', name]));
      }
      const objectOf = (props: Record<string, Json> | undefined, required: boolean): Schema | null =>
        props ? { type: 'object', additionalProperties: false, properties: props, ...(required ? { required: Object.keys(props) } : {}) } : null;
      operations.push({
        id, tag: d.tag, name, file: l.file,
        method: o.method, path: o.path,
        access: o.access ?? 'active',
        credentials: o.credentials ?? ['token'],
        throttle: o.throttle ?? null,
        permission: o.permission ?? null,
        summary: o.summary ?? '',
        params: objectOf(o.params, true),
        query: objectOf(o.query, false),
        // Not closed: a request carries many other headers.
        headers: o.headers ? { type: 'object', properties: o.headers } : null,
        body: o.body ?? null,
        multipart: o.multipart ?? null,
        // A multipart operation without its own limit takes the campaign file's (20 MB): resolved once here, read by the server's body limit and the screens.
        uploadLimit: o.uploadLimit ?? (o.multipart ? 'campaignFileBytes' : null),
        response: o.response ?? null,
        produces: o.produces ?? 'json',
        sandbox: o.sandbox ?? false,
        errors: o.errors ?? [],
        list: o['x-list'] ? checkList(l, name, o) : null,
      });
    }
  }

  // Menu: nested for reading, flattened with parent links for lookups
  const menuLoaded = load(join(root, 'config/menu.yaml'));
  check('menu', menuLoaded);
  const menu: MenuNode[] = [];
  const ids = new Set<number>();
  const walk = (nodes: any[], parent: MenuNode | null, path: (string | number)[]) => {
    nodes.forEach((n, i) => {
      const here = [...path, i];
      for (const id of [n.id, ...(n.subtabs ?? []).map((s: any) => s.id)].filter((x) => x !== undefined)) {
        if (ids.has(id)) throw new DeclarationError(menuLoaded.file, '/' + here.join('/'), `component id ${id} used twice`, menuLoaded.lineOf(here));
        ids.add(id);
      }
      if (menu.some((m) => m.key === n.key)) throw new DeclarationError(menuLoaded.file, '/' + here.join('/'), `menu key ${n.key} used twice`, menuLoaded.lineOf(here));
      const node: MenuNode = {
        key: n.key, id: n.id ?? null, componentId: n.id ?? parent?.componentId ?? null,
        path: n.path, parentKey: parent?.key ?? null,
        roles: n.roles ?? null, manageRoles: n.manageRoles ?? parent?.manageRoles ?? null, flags: n.flags ?? [], hidden: n.hidden ?? false, noId: n.noId ?? false,
        planExclude: n.plan?.exclude ?? [], actions: n.actions ?? ['view'], screen: n.screen ?? null,
        icon: n.icon ?? null, label: `menu.${n.key}`,
        subtabs: (n.subtabs ?? []).map((s: any) => ({ id: s.id, key: s.key, label: `menu.${s.key}`, actions: s.actions ?? ['view'] })),
      };
      menu.push(node);
      if (n.children) walk(n.children, node, [...here, 'children']);
    });
  };
  walk(menuLoaded.data as any[], null, []);
  for (const op of operations) {
    if (op.permission && !ids.has(op.permission.component)) {
      throw new DeclarationError(op.file, `/operations/${op.name}/permission/component`, `component ${op.permission.component} is not in config/menu.yaml`);
    }
    const nodeKey = op.permission?.node;
    if (nodeKey) {
      const node = menu.find((m) => m.key === nodeKey);
      if (!node) throw new DeclarationError(op.file, `/operations/${op.name}/permission/node`, `menu node "${nodeKey}" is not in config/menu.yaml`);
      if (node.componentId !== op.permission!.component) throw new DeclarationError(op.file, `/operations/${op.name}/permission/node`, `menu node "${nodeKey}" belongs to component ${node.componentId}, not ${op.permission!.component}`);
    }
  }

  // Errors
  const errorsLoaded = load(join(root, 'config/errors.yaml'));
  check('errors', errorsLoaded);
  const errors = errorsLoaded.data as Record<string, any[]>;
  const serverCodes = new Set(errors.server.map((e) => e.code));
  for (const op of operations) {
    for (const c of op.errors) if (!serverCodes.has(c)) throw new DeclarationError(op.file, `/operations/${op.name}/errors`, `error code ${c} is not in config/errors.yaml`);
    const walkCodes = (s: Json) => {
      if (s && typeof s === 'object') for (const [k, v] of Object.entries(s)) {
        if (k === 'x-errorCode' && !serverCodes.has(v as string)) throw new DeclarationError(op.file, `/operations/${op.name}`, `x-errorCode ${v} is not in config/errors.yaml`);
        walkCodes(v as Json);
      }
    };
    walkCodes(op.body);
  }

  // Fields shared by screens: entity-shaped, their own ids (a clash with an entity is refused).
  const screenFields = new Map<string, Schema>();
  for (const p of listYaml(join(root, 'config/screen-fields'))) {
    const l = load(p);
    check('entity', l);
    const s = l.data as Schema;
    const id = s.$id as string;
    if (entities.has(id) || screenFields.has(id)) throw new DeclarationError(l.file, '/$id', `duplicate $id "${id}"`, l.lineOf(['$id']));
    checkRefs(l, [], s);
    screenFields.set(id, s);
  }

  // Screens
  const screens: Screen[] = [];
  const opIds = new Set(operations.map((o) => o.id));
  for (const p of listYaml(join(root, 'config/screens'))) {
    const l = load(p);
    check('screen', l);
    const s = l.data as Screen;
    if (screens.some((x) => x.id === s.id)) throw new DeclarationError(l.file, '/id', `screen ${s.id} declared twice`, l.lineOf(['id']));
    for (const ref of refsOf(s as unknown as Json)) {
      if (!entities.has(ref) && !screenFields.has(ref)) throw new DeclarationError(l.file, '/', `unknown $ref "${ref}#" (neither an entity nor a screen field)`);
    }
    const opRefs: [string, (string | number)[]][] = [];
    if (s.operation) opRefs.push([s.operation as string, ['operation']]);
    if ((s.load as any)?.operation) opRefs.push([(s.load as any).operation, ['load', 'operation']]);
    for (const k of ['secondaryActions', 'rowActions', 'bulkActions', 'cards', 'tables'] as const) {
      // navigation actions (`to`) name no operation; the rest of a screen's references are checked by emit/screens.ts
      ((s[k] as any[]) ?? []).forEach((a, i) => { if (a.operation !== undefined) opRefs.push([a.operation, [k, i, 'operation']]); });
    }
    // A column may show its values by an enum's labels (`enum: role`): the enum must exist.
    const columnLists: [unknown, (string | number)[]][] = [[s.columns, ['columns']], ...((s.tables as any[]) ?? []).map((tb, i): [unknown, (string | number)[]] => [tb.columns, ['tables', i, 'columns']])];
    for (const [cols, at] of columnLists) {
      ((cols as any[]) ?? []).forEach((c, i) => {
        if (c && typeof c === 'object' && c.enum !== undefined && !enums.has(c.enum)) throw new DeclarationError(l.file, '/' + [...at, i, 'enum'].join('/'), `unknown enum "${c.enum}"`, l.lineOf([...at, i, 'enum']));
      });
    }
    for (const [op, path] of opRefs) {
      if (!opIds.has(op)) throw new DeclarationError(l.file, '/' + path.join('/'), `unknown operation "${op}"`, l.lineOf(path));
    }
    if (s.kind === 'form') {
      const op = operations.find((o) => o.id === s.operation)!;
      const props = { ...((op.body?.properties as Schema) ?? {}), ...((s.extraFields as Schema) ?? {}) };
      ((s.fields as string[]) ?? []).forEach((field, i) => {
        if (!(field in props)) throw new DeclarationError(l.file, `/fields/${i}`, `field "${field}" is neither in ${op.id}'s body nor in extraFields`, l.lineOf(['fields', i]));
      });
    }
    screens.push({ ...s, file: l.file });
  }
  // Screens that bring their own menu entry (screen.menu) hang it under an existing node.
  for (const s of screens) {
    const m = s.menu as { parent: string; key: string; path: string; roles?: string[]; flags?: string[]; icon?: string; hidden?: boolean; actions?: string[] } | undefined;
    if (!m) continue;
    const parent = menu.find((n) => n.key === m.parent);
    if (!parent) throw new DeclarationError(s.file, '/menu/parent', `menu node "${m.parent}" is not in config/menu.yaml`);
    if (menu.some((n) => n.key === m.key)) throw new DeclarationError(s.file, '/menu/key', `menu key ${m.key} is used already`);
    if (menu.some((n) => n.path === m.path)) throw new DeclarationError(s.file, '/menu/path', `menu path ${m.path} is used already`);
    const node: MenuNode = {
      key: m.key, id: null, componentId: parent.componentId, path: m.path, parentKey: parent.key,
      roles: m.roles ?? null, manageRoles: parent.manageRoles, flags: m.flags ?? [], hidden: m.hidden ?? false, noId: false,
      planExclude: [], actions: m.actions ?? ['view'], screen: s.id, icon: m.icon ?? null, label: `menu.${m.key}`, subtabs: [],
    };
    // After the parent's last descendant, so the tree order stays as declared.
    const under = (n: MenuNode): boolean => n.parentKey === parent.key || (n.parentKey !== null && under(menu.find((x) => x.key === n.parentKey)!));
    let at = menu.indexOf(parent) + 1;
    while (at < menu.length && under(menu[at])) at++;
    menu.splice(at, 0, node);
  }
  const screenIds = new Set(screens.map((s) => s.id));
  for (const n of menu) {
    if (n.screen && !screenIds.has(n.screen)) throw new DeclarationError(menuLoaded.file, `/${n.key}`, `unknown screen "${n.screen}"`);
  }
  for (const s of screens) {
    if (s.sessionScreen && !screenIds.has(s.sessionScreen as string)) throw new DeclarationError(s.file, '/sessionScreen', `unknown screen "${s.sessionScreen}"`);
  }

  if (!existsSync(join(root, 'locales'))) throw new DeclarationError('locales', '', 'folder missing');
  return { root, productKey, app, constants: constantsLoaded.data as Record<string, any>, entities, screenFields, enums: [...enums.values()], operations, menu, errors, screens };
}
