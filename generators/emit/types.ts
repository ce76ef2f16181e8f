// Entity and operation types (json-schema-to-typescript), plus the OperationTypes map built as a syntax tree.
import { compile } from 'json-schema-to-typescript';
import type { Model, Schema, Json } from '../model.ts';
import { pascal, rewriteRefs, stripX } from '../schema-utils.ts';
import { f, ts, printFile, importDecl } from '../ts.ts';

export const opTypeName = (id: string, part: string) => `${pascal(id)}${part}`;

export async function emitTypes(model: Model): Promise<string> {
  const definitions: Record<string, Json> = {};
  const local = (id: string) => `#/definitions/${id}`;
  for (const [id, s] of model.entities) {
    const { $id, ...rest } = s;
    void $id;
    definitions[id] = { ...(stripX(rewriteRefs(rest, local)) as Schema), title: pascal(id) };
  }
  for (const op of model.operations) {
    for (const [part, schema] of [['Params', op.params], ['Query', op.query], ['Body', op.body], ['Response', op.response]] as const) {
      if (!schema) continue;
      if (part === 'Response' && typeof schema.$ref === 'string') continue; // the entity type is used directly
      definitions[`${op.id}.${part}`] = { ...(stripX(rewriteRefs(schema, local)) as Schema), title: opTypeName(op.id, part) };
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
  void importDecl;
  return printFile([]).trimEnd() + '\n' + body + '\n' + tail;
}
