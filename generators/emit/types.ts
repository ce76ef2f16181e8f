// Entity and operation types (json-schema-to-typescript), plus the OperationTypes map built as a syntax tree.
// Enum types are not compiled again: they come from enums.gen.ts (one derivation per vocabulary)
// and are re-exported here, so `import type { ChannelPlatform } from 'types.gen.ts'` keeps working.
import { compile } from 'json-schema-to-typescript';
import type { Model, Schema, Json } from '../model.ts';
import { pascal, rewriteRefs, stripX } from '../schema-utils.ts';
import { f, ts, printFile, importDecl } from '../ts.ts';
import { enumNames } from './enums.ts';

export const opTypeName = (id: string, part: string) => `${pascal(id)}${part}`;

/** Replaces each "$ref" to an enum by its imported type name (json-schema-to-typescript's tsType). */
function enumRefsAsTypes(schema: Json, enumIds: Set<string>): Json {
  if (Array.isArray(schema)) return schema.map((s) => enumRefsAsTypes(s, enumIds));
  if (!schema || typeof schema !== 'object') return schema;
  const id = typeof schema.$ref === 'string' ? schema.$ref.replace(/#$/, '') : null;
  const entries = Object.entries(schema).map(([k, v]) => [k, enumRefsAsTypes(v, enumIds)] as const);
  if (id === null || !enumIds.has(id)) return Object.fromEntries(entries);
  return { ...Object.fromEntries(entries.filter(([k]) => k !== '$ref')), tsType: enumNames(id).type };
}

export async function emitTypes(model: Model): Promise<string> {
  const definitions: Record<string, Json> = {};
  const local = (id: string) => `#/definitions/${id}`;
  const enumIds = new Set(model.enums.map((e) => e.id));
  const typed = (schema: Json) => stripX(rewriteRefs(enumRefsAsTypes(schema, enumIds), local)) as Schema;
  for (const [id, s] of model.entities) {
    if (enumIds.has(id)) continue;
    const { $id, ...rest } = s;
    void $id;
    definitions[id] = { ...typed(rest), title: pascal(id) };
  }
  for (const op of model.operations) {
    for (const [part, schema] of [['Params', op.params], ['Query', op.query], ['Body', op.body], ['Response', op.response]] as const) {
      if (!schema) continue;
      if (part === 'Response' && typeof schema.$ref === 'string') continue; // the entity type is used directly
      definitions[`${op.id}.${part}`] = { ...typed(schema), title: opTypeName(op.id, part) };
    }
  }
  const root = { title: 'GeneratedSchemas', type: 'object', additionalProperties: false, properties: {}, definitions };
  const body = await compile(root as never, 'GeneratedSchemas', {
    bannerComment: '', unreachableDefinitions: true, additionalProperties: false, declareExternallyReferenced: true,
    format: false, style: { singleQuote: true },
  });

  // OperationTypes: for each operation id, its call arguments and its answer.
  const ref = (name: string) => f.createTypeReferenceNode(name);
  const members = model.operations.map((op) => {
    const args: ts.TypeElement[] = [];
    if (op.params) args.push(f.createPropertySignature(undefined, 'params', undefined, ref(opTypeName(op.id, 'Params'))));
    if (op.query) args.push(f.createPropertySignature(undefined, 'query', f.createToken(ts.SyntaxKind.QuestionToken), ref(opTypeName(op.id, 'Query'))));
    if (op.body) args.push(f.createPropertySignature(undefined, 'body', undefined, ref(opTypeName(op.id, 'Body'))));
    if (op.multipart) args.push(f.createPropertySignature(undefined, 'form', undefined, ref('FormData')));
    const response = op.produces === 'binary' || !op.response
      ? ref('Blob')
      : typeof op.response.$ref === 'string' ? ref(pascal(op.response.$ref.replace(/#$/, ''))) : ref(opTypeName(op.id, 'Response'));
    return f.createPropertySignature(undefined, f.createStringLiteral(op.id), undefined, f.createTypeLiteralNode([
      f.createPropertySignature(undefined, 'args', undefined, f.createTypeLiteralNode(args)),
      f.createPropertySignature(undefined, 'response', undefined, response),
    ]));
  });
  const map = f.createInterfaceDeclaration([f.createModifier(ts.SyntaxKind.ExportKeyword)], 'OperationTypes', undefined, undefined, members);
  const tail = printFile([map]).split('\n').slice(3).join('\n');
  const enumTypes = model.enums.map((e) => enumNames(e.id).type);
  const head = enumTypes.length === 0 ? printFile([]) : printFile([
    importDecl(enumTypes, './enums.gen.ts', true),
    f.createExportDeclaration(undefined, true, f.createNamedExports(enumTypes.map((n) => f.createExportSpecifier(false, undefined, n)))),
  ]);
  return head.trimEnd() + '\n' + body + '\n' + tail;
}
