// Every enum of schemas/enums as an `as const` table of its values and the type derived from it,
// plus, when the enum declares x-meta, a table of the facts about each value (and, when those
// facts include a `name`, the value by name). The one place code gets a vocabulary from: the
// file imports nothing, so src/core, the engine, the sandbox and the console may all read it.
import type { Model } from '../model.ts';
import type { EnumDecl } from '../enums.ts';
import { pascal } from '../schema-utils.ts';
import { exportConst, exportType, printFile, toExpr, f, ts } from '../ts.ts';

const camel = (id: string) => { const p = pascal(id); return p[0].toLowerCase() + p.slice(1); };
/** channel-platform → channelPlatforms, delivery-status → deliveryStatuses. */
const plural = (word: string) => (/(s|x|sh|ch)$/.test(word) ? `${word}es` : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`);

/** The names an enum's exports take (also read by tests and by docs/console.md's example). */
export function enumNames(id: string) {
  return { values: plural(camel(id)), type: pascal(id), meta: `${camel(id)}Meta`, byName: `${camel(id)}ByName` };
}

function documented(node: ts.Statement, text: string | null): ts.Statement {
  if (!text) return node;
  return ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, `* ${text.replaceAll('*/', '* /')} `, true);
}

function emitEnum(e: EnumDecl): ts.Statement[] {
  const n = enumNames(e.id);
  const out = [
    documented(exportConst(n.values, toExpr(e.values)), `${e.description ?? e.id} (${e.file})`),
    exportType(n.type, f.createIndexedAccessTypeNode(f.createTypeQueryNode(f.createIdentifier(n.values)), f.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword))),
  ];
  if (e.meta) {
    const fields = e.fields.map(([name, m]) => (m.description ? `${name}: ${m.description}` : name)).join('; ');
    const table = Object.fromEntries(e.values.map((v) => [String(v), Object.fromEntries(e.fields.map(([field]) => [field, e.meta![String(v)][field]]))]));
    out.push(documented(exportConst(n.meta, toExpr(table)), `What code needs to know about each ${n.type}: ${fields}.`));
    if (e.fields.some(([field]) => field === 'name')) {
      const byName = Object.fromEntries(e.values.map((v) => [e.meta![String(v)].name as string, v]));
      out.push(documented(exportConst(n.byName, toExpr(byName)), `Each ${n.type} by its name in ${n.meta}.`));
    }
  }
  return out;
}

export function emitEnums(model: Model): string {
  const registry = Object.fromEntries(model.enums.map((e) => [e.id, f.createIdentifier(enumNames(e.id).values)]));
  const registryExpr = f.createObjectLiteralExpression(
    Object.entries(registry).map(([id, ident]) => f.createPropertyAssignment(f.createStringLiteral(id), ident)),
    true,
  );
  return printFile([
    ...model.enums.flatMap(emitEnum),
    documented(exportConst('enumValues', registryExpr), 'Every enum\'s values by its $id (schemas/enums/<id>.yaml).'),
  ]);
}
