// Data tables the console and the server interpret at run time: operations, schemas, menu,
// errors, constants, settings. Each is one exported constant built with toExpr.
import type { Model, Json, Schema } from '../model.ts';
import { exportConst, exportType, printFile, stringUnion, toExpr, importDecl, f, ts } from '../ts.ts';
import { xKeywords } from '../schema-utils.ts';

export function emitOperations(model: Model): string {
  // Light table for the console's transport and runtime: no schemas, so the first load stays
  // small. `permission` lets the runtime hide what can() refuses; `list` is the x-list convention.
  const rows = model.operations.map((o) => ({
    id: o.id, method: o.method, path: o.path, access: o.access,
    multipart: o.multipart !== null, produces: o.produces,
    permission: o.permission ? { component: o.permission.component, action: o.permission.action } : null,
    list: o.list,
  }));
  return printFile([
    exportConst('operations', toExpr(rows)),
    exportType('OperationId', stringUnion(model.operations.map((o) => o.id))),
  ]);
}

export function emitServerOperations(model: Model): string {
  const rows = model.operations.map((o) => ({
    id: o.id, tag: o.tag, name: o.name, method: o.method, path: o.path, access: o.access, credentials: o.credentials, throttle: o.throttle,
    permission: o.permission, summary: o.summary, params: o.params, query: o.query, headers: o.headers, body: o.body,
    multipart: o.multipart, uploadLimit: o.uploadLimit, response: o.response, produces: o.produces, sandbox: o.sandbox, errors: o.errors,
  }));
  const entities = [...model.entities.values()];
  const allSchemas: Json[] = [...entities, ...model.operations.flatMap((o) => [o.params, o.query, o.headers, o.body, o.response].filter(Boolean) as Json[])];
  return printFile([
    importDecl(['OperationId'], './operations.gen.ts', true),
    exportConst('entitySchemas', toExpr(entities)),
    exportConst('serverOperations', toExpr(rows)),
    exportConst('annotationKeywords', toExpr([...xKeywords(allSchemas)].sort())),
    exportType('ServerOperation', f.createIndexedAccessTypeNode(f.createTypeQueryNode(f.createIdentifier('serverOperations')), f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword))),
    f.createTypeAliasDeclaration(undefined, '_Check', undefined, f.createTypeReferenceNode('OperationId')),
  ]);
}

export function emitMenu(model: Model): string {
  const ids = model.menu.flatMap((n) => [n.id, ...n.subtabs.map((s) => s.id)]).filter((x): x is number => x !== null).sort((a, b) => a - b);
  return printFile([
    exportConst('menuNodes', toExpr(model.menu)),
    exportConst('componentIds', toExpr(ids)),
    exportType('ComponentId', f.createUnionTypeNode(ids.map((i) => f.createLiteralTypeNode(f.createNumericLiteral(i))))),
    exportType('MenuKey', stringUnion(model.menu.map((n) => n.key))),
    // The action enum when declared (from enums.gen.ts, its one derivation), else the actions the menu uses.
    model.enums.some((e) => e.id === 'action')
      ? f.createExportDeclaration(undefined, true, f.createNamedExports([f.createExportSpecifier(false, undefined, 'Action')]), f.createStringLiteral('./enums.gen.ts'))
      : exportType('Action', stringUnion([...new Set(model.menu.flatMap((n) => n.actions))])),
  ]);
}

export function emitErrors(model: Model): string {
  const e = model.errors;
  const server = Object.fromEntries(e.server.map((x) => [x.code, { key: x.key, http: x.http, display: x.display ?? 'toast', field: x.field ?? null, locales: x.locales ?? ['es', 'en'] }]));
  const whatsapp = Object.fromEntries(e.whatsapp.map((x) => [x.code, { key: x.key, cloud: x.cloud ?? [], mapsTo: x.mapsTo ?? null, retry: x.retry }]));
  return printFile([
    exportConst('serverErrors', toExpr(server)),
    exportType('ServerErrorCode', stringUnion(e.server.map((x) => x.code))),
    exportConst('messageErrors', toExpr(e.messages)),
    exportConst('whatsappErrors', toExpr(whatsapp)),
    exportConst('fileProcessorErrors', toExpr(Object.fromEntries(e.fileProcessor.map((x) => [x.code, x.key])))),
    exportConst('clientErrors', toExpr(Object.fromEntries(e.client.map((x) => [x.code, x.key])))),
    exportType('ClientErrorCode', stringUnion(e.client.map((x) => x.code))),
  ]);
}

export function emitConstants(model: Model): string {
  return printFile([exportConst('constants', toExpr(model.constants))]);
}

export function emitApp(model: Model): string {
  // Only what the browser may see goes into appSettings (Backstage's @visibility frontend idea):
  // a block marked `visibility: server` stays out.
  const visible = Object.fromEntries(
    Object.entries(model.app)
      .filter(([, v]) => !(v && typeof v === 'object' && !Array.isArray(v) && v.visibility === 'server'))
      .map(([k, v]) => [k, v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([kk]) => kk !== 'visibility')) : v]),
  );
  return printFile([exportConst('appSettings', toExpr(visible))]);
}

export function emitI18nKeys(keys: string[]): string {
  return printFile([
    exportType('I18nKey', stringUnion(keys)),
    exportConst('i18nKeys', toExpr(keys)),
  ]);
}

export function emitOpenApi(model: Model, pkgVersion: string): string {
  const comp = (id: string) => `#/components/schemas/${id}`;
  const rw = (s: Json): Json => {
    if (Array.isArray(s)) return s.map(rw);
    if (!s || typeof s !== 'object') return s;
    return Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$id').map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? comp(v.replace(/#$/, '')) : rw(v)]));
  };
  const errorRef = { $ref: comp('api-error') };
  const paths: Record<string, Record<string, Json>> = {};
  for (const o of model.operations) {
    const p = o.path;
    const parameters: Json[] = [];
    for (const [where, s] of [['path', o.params], ['query', o.query], ['header', o.headers]] as const) {
      if (!s) continue;
      for (const [name, schema] of Object.entries((s.properties as Schema) ?? {})) {
        parameters.push({ name, in: where, required: where === 'path', schema: rw(schema) });
      }
    }
    const responses: Record<string, Json> = {
      '200': o.produces === 'binary'
        ? { description: 'file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
        : { description: 'ok', content: { 'application/json': { schema: rw(o.response ?? { type: 'object' }) } } },
      default: { description: `error: ${o.errors.join(', ') || 'm1'}`, content: { 'application/json': { schema: errorRef } } },
    };
    const op: Record<string, Json> = {
      operationId: o.id, tags: [o.tag], summary: o.summary || o.id, parameters, responses,
      'x-access': o.access, 'x-permission': o.permission as Json,
    };
    if (o.list) op['x-list'] = o.list;
    if (o.body) op.requestBody = { required: true, content: { 'application/json': { schema: rw(o.body) } } };
    if (o.multipart) op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: Object.fromEntries(o.multipart.map((n) => [n, { type: 'string', format: 'binary' }])) } } } };
    // A session token travels in X-Auth-Token, X-Client-Token or Authorization: Bearer; an API key in Bearer ck_… or X-Api-Key.
    if (o.access !== 'public') {
      op.security = [
        ...(o.credentials.includes('token') ? [{ authToken: [] }, { clientToken: [] }] : []),
        { bearer: [] },
        ...(o.credentials.includes('apiKey') ? [{ apiKey: [] }] : []),
      ];
      op['x-credentials'] = o.credentials;
    }
    // Throttled operations: their limit class, counted per client IP and per account.
    if (o.throttle) op['x-throttle'] = o.throttle;
    (paths[p] ??= {})[o.method.toLowerCase()] = op;
  }
  const doc = {
    'x-generated': 'This file is generated by `npm run gen` from schemas/ and config/. Do not edit it by hand.',
    openapi: '3.1.0',
    info: { title: `${model.app.product.name} API`, version: pkgVersion },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      schemas: Object.fromEntries([...model.entities].map(([id, s]) => [id, rw(s)])),
      securitySchemes: {
        authToken: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' },
        clientToken: { type: 'apiKey', in: 'header', name: 'X-Client-Token' },
        bearer: { type: 'http', scheme: 'bearer' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
    },
  };
  return JSON.stringify(doc, null, 2) + '\n';
}
