// The typed API client: one function per operation and an SWR hook per GET operation, and each
// operation's path parameter names (read here, once, from its path template), so the console
// fills them from a record or the route without parsing paths.
// The transport (headers, 401 rule, error mapping) is set once by the console (src/console/api).
import type { Model } from '../model.ts';
import { f, ts, printFile, importDecl, importDefault, toExpr, exportConst } from '../ts.ts';
import { pascal } from '../schema-utils.ts';

const PRELUDE = `
export type OperationId = keyof OperationTypes;
export type Args<K extends OperationId> = OperationTypes[K]['args'];
export type Result<K extends OperationId> = OperationTypes[K]['response'];
export type Transport = <K extends OperationId>(id: K, args: Args<K>) => Promise<Result<K>>;
let transport: Transport | null = null;
export function setTransport(next: Transport): void { transport = next; }
export function call<K extends OperationId>(id: K, args: Args<K>): Promise<Result<K>> {
  if (!transport) throw new Error('API transport not set: call setTransport() first');
  return transport(id, args);
}
export function useOperation<K extends OperationId>(id: K, args: Args<K> | null, config?: SWRConfiguration<Result<K>>) {
  return useSWR<Result<K>>(args === null ? null : [id, JSON.stringify(args)], () => call(id, args as Args<K>), config);
}
`;

function camel(id: string) {
  const p = pascal(id);
  return p[0].toLowerCase() + p.slice(1);
}

export function emitClient(model: Model): string {
  const prelude = ts.createSourceFile('p.ts', PRELUDE, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS).statements;
  const argsType = (id: string) => f.createTypeReferenceNode('Args', [f.createLiteralTypeNode(f.createStringLiteral(id))]);
  const fns: ts.Statement[] = [];
  for (const op of model.operations) {
    if (op.sandbox) continue;
    const id = f.createStringLiteral(op.id);
    fns.push(f.createVariableStatement([f.createModifier(ts.SyntaxKind.ExportKeyword)], f.createVariableDeclarationList([
      f.createVariableDeclaration(camel(op.id), undefined, undefined, f.createArrowFunction(undefined, undefined,
        [f.createParameterDeclaration(undefined, undefined, 'args', undefined, argsType(op.id))], undefined,
        f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
        f.createCallExpression(f.createIdentifier('call'), undefined, [id, f.createIdentifier('args')]))),
    ], ts.NodeFlags.Const)));
    if (op.method === 'GET' && op.produces === 'json') {
      fns.push(f.createVariableStatement([f.createModifier(ts.SyntaxKind.ExportKeyword)], f.createVariableDeclarationList([
        f.createVariableDeclaration(`use${pascal(op.id)}`, undefined, undefined, f.createArrowFunction(undefined, undefined, [
          f.createParameterDeclaration(undefined, undefined, 'args', undefined, f.createUnionTypeNode([argsType(op.id), f.createLiteralTypeNode(f.createNull())])),
          f.createParameterDeclaration(undefined, undefined, 'config', f.createToken(ts.SyntaxKind.QuestionToken),
            f.createTypeReferenceNode('SWRConfiguration', [f.createTypeReferenceNode('Result', [f.createLiteralTypeNode(f.createStringLiteral(op.id))])])),
        ], undefined, f.createToken(ts.SyntaxKind.EqualsGreaterThanToken),
        f.createCallExpression(f.createIdentifier('useOperation'), undefined, [id, f.createIdentifier('args'), f.createIdentifier('config')]))),
      ], ts.NodeFlags.Const)));
    }
  }
  const names = Object.fromEntries(model.operations.map((op) => [op.id, [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])]).filter(([, n]) => n.length));
  const pathParamsType = f.createMappedTypeNode(f.createToken(ts.SyntaxKind.ReadonlyKeyword),
    f.createTypeParameterDeclaration(undefined, 'K', f.createTypeReferenceNode('OperationId')), undefined, f.createToken(ts.SyntaxKind.QuestionToken),
    f.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, f.createArrayTypeNode(f.createKeywordTypeNode(ts.SyntaxKind.StringKeyword))), undefined);
  const pathParams = ts.addSyntheticLeadingComment(exportConst('pathParams', toExpr(names), pathParamsType, false), ts.SyntaxKind.MultiLineCommentTrivia,
    '* The names in each operation\'s path template, in order (operations without any are left out). ', true);
  return printFile([
    importDefault('useSWR', 'swr'),
    importDecl(['SWRConfiguration'], 'swr', true),
    importDecl(['OperationTypes'], './types.gen.ts', true),
    ...prelude,
    pathParams,
    ...fns,
  ]);
}
