// The compiled screen types (src/generated/screen-types.gen.ts), read from the screen
// meta-schema (schemas/_meta/screen.schema.yaml) so the screen vocabulary (kinds, layouts,
// effects, cells, colours, action fields…) is typed once: a value added to the meta-schema
// reaches the console's types on the next `npm run gen`. What the screen compiler
// (emit/screens.ts) changes or adds is said here beside it: the YAML `fields` become an rjsf
// schema, columns gain their display schema, forms gain their create/edit calls, and so on.
import { join } from 'node:path';
import type { Model, Schema } from '../model.ts';
import { loadYaml } from '../load.ts';
import { f, ts, printFile, exportType, propName } from '../ts.ts';

type Node = ts.TypeNode;

const kw = (k: ts.KeywordTypeSyntaxKind) => f.createKeywordTypeNode(k);
const STRING = kw(ts.SyntaxKind.StringKeyword);
const NUMBER = kw(ts.SyntaxKind.NumberKeyword);
const BOOLEAN = kw(ts.SyntaxKind.BooleanKeyword);
const UNKNOWN = kw(ts.SyntaxKind.UnknownKeyword);
const ref = (name: string, args?: Node[]) => f.createTypeReferenceNode(name, args);
const record = (value: Node) => ref('Record', [STRING, value]);
const OBJECT = record(UNKNOWN);
const literal = (v: unknown) =>
  f.createLiteralTypeNode(typeof v === 'string' ? f.createStringLiteral(v) : typeof v === 'number' ? f.createNumericLiteral(v) : v ? f.createTrue() : f.createFalse());
const union = (types: Node[]) => (types.length === 1 ? types[0] : f.createUnionTypeNode(types));
const readonlyArray = (item: Node) =>
  f.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, f.createArrayTypeNode(ts.isUnionTypeNode(item) ? f.createParenthesizedType(item) : item));
const member = (name: string, type: Node, optional: boolean) =>
  f.createPropertySignature(undefined, propName(name), optional ? f.createToken(ts.SyntaxKind.QuestionToken) : undefined, type);
const comment = <T extends ts.Node>(node: T, text: string): T => ts.addSyntheticLeadingComment(node, ts.SyntaxKind.MultiLineCommentTrivia, `* ${text} `, true);

/** The compiled screen's schema and uiSchema types: the console names its form library's types. */
const TYPE_PARAMS = ['S', 'U'];
const typeParams = () => TYPE_PARAMS.map((p) => f.createTypeParameterDeclaration(undefined, p, undefined, OBJECT));
const withParams = (name: string) => ref(name, TYPE_PARAMS.map((p) => ref(p)));

/**
 * Meta-schema definitions that become named types (a `$ref` to them names the type); the
 * others (i18nKey, fieldName, fieldList, layout) are inlined.
 */
const NAMED: Record<string, Node> = {
  permission: ref('Permission'),
  rowCondition: ref('RowCondition'),
  action: ref('ScreenAction'),
  // every column the compiler emits is a compiled column (field, label, display schema, …)
  column: ref('ScreenColumn'),
  chart: ref('ScreenChart'),
  call: ref('ScreenCall'),
};

/** A meta-schema node as a TypeScript type. */
function typeOf(s: Schema | undefined, defs: Schema): Node {
  if (!s || Object.keys(s).length === 0) return UNKNOWN;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/definitions/', '');
    return NAMED[name] ?? typeOf(defs[name] as Schema, defs);
  }
  if (Array.isArray(s.enum)) return union((s.enum as unknown[]).map(literal));
  if (s.const !== undefined) return literal(s.const);
  const alternatives = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (alternatives) return union(alternatives.map((a) => typeOf(a, defs)));
  // `allOf: [{ $ref }, { required }]` narrows a named type: the type stays the named one.
  if (Array.isArray(s.allOf)) return typeOf((s.allOf as Schema[]).find((a) => a.$ref) ?? (s.allOf as Schema[])[0], defs);
  switch (s.type) {
    case 'string': return STRING;
    case 'integer':
    case 'number': return NUMBER;
    case 'boolean': return BOOLEAN;
    case 'array': return readonlyArray(s.items ? typeOf(s.items as Schema, defs) : UNKNOWN);
    case 'object':
      if (s.properties) return f.createTypeLiteralNode(members(s, defs));
      if (s.additionalProperties && typeof s.additionalProperties === 'object') return record(typeOf(s.additionalProperties as Schema, defs));
      return OBJECT;
  }
  return UNKNOWN;
}

interface Shape {
  /** Properties the compiler removes (consumed into another form). */
  omit?: string[];
  /** Properties the compiler always sets (optional in the YAML). */
  required?: string[];
  /** Properties the compiler replaces or adds, with their compiled type. */
  compiled?: Record<string, { type: Node; optional?: boolean; doc?: string }>;
}

function members(s: Schema, defs: Schema, shape: Shape = {}): ts.TypeElement[] {
  const required = new Set([...((s.required as string[] | undefined) ?? []), ...(shape.required ?? [])]);
  const out: ts.TypeElement[] = [];
  for (const [name, p] of Object.entries((s.properties as Schema | undefined) ?? {})) {
    if (shape.omit?.includes(name)) continue;
    const compiled = shape.compiled?.[name];
    const m = member(name, compiled?.type ?? typeOf(p as Schema, defs), compiled ? compiled.optional !== false : !required.has(name));
    out.push(compiled?.doc ? comment(m, compiled.doc) : m);
  }
  for (const [name, c] of Object.entries(shape.compiled ?? {})) {
    if (name in ((s.properties as Schema | undefined) ?? {})) continue;
    const m = member(name, c.type, c.optional !== false);
    out.push(c.doc ? comment(m, c.doc) : m);
  }
  return out;
}

const iface = (name: string, body: ts.TypeElement[], generic = false, doc?: string) => {
  const decl = f.createInterfaceDeclaration([f.createModifier(ts.SyntaxKind.ExportKeyword)], name, generic ? typeParams() : undefined, undefined, body);
  return doc ? comment(decl, doc) : decl;
};

export function emitScreenTypes(model: Model): string {
  const meta = loadYaml(model.root, join(model.root, 'schemas/_meta/screen.schema.yaml')).data as Schema;
  const defs = meta.definitions as Schema;
  const props = meta.properties as Schema;
  const objectOf = (s: Schema) => ((s.oneOf as Schema[] | undefined)?.find((x) => x.type === 'object') ?? s);
  const itemsOf = (name: string) => (props[name] as Schema).items as Schema;
  const screenDef = withParams('ScreenDef');

  const operationCall: ts.TypeElement[] = [
    member('operation', STRING, false),
    member('params', OBJECT, true),
    member('method', STRING, true),
    member('permission', ref('Permission'), true),
    comment(member('readonly', readonlyArray(STRING), true), 'Fields the edit operation does not take: read-only when editing.'),
    comment(member('body', readonlyArray(STRING), true), 'The properties the operation\'s body takes (it refuses others): the form sends only these.'),
  ];

  const statements: ts.Statement[] = [
    exportType('ScreenKind', typeOf(props.kind as Schema, defs)),
    iface('Permission', members(defs.permission as Schema, defs)),
    iface('RowCondition', members(defs.rowCondition as Schema, defs), false, 'Which rows an action shows on: values are data or expressions ($session.idUser).'),
    iface('ScreenCall', members(defs.call as Schema, defs), false, 'An operation to call, with its params (expressions allowed).'),
    iface('ScreenAction', members(defs.action as Schema, defs, { compiled: { method: { type: STRING, doc: 'The operation\'s HTTP method (added by the compiler).' } } })),
    exportType('CellSchema', OBJECT),
    iface('ScreenColumn', members(objectOf(defs.column as Schema), defs, {
      required: ['label'],
      compiled: {
        schema: { type: ref('CellSchema'), optional: false, doc: 'The field\'s display schema: what the cell testers look at.' },
        sortable: { type: BOOLEAN },
      },
    }), false, 'A column of a list, report table or detail tab, compiled: a YAML field name becomes an object.'),
    iface('ScreenFilter', [member('field', STRING, false), member('label', STRING, false), member('schema', ref('CellSchema'), false)]),
    iface('ScreenChart', members(defs.chart as Schema, defs)),
    iface('ScreenCard', members(itemsOf('cards'), defs)),
    iface('ScreenTable', members(itemsOf('tables'), defs, { compiled: { columns: { type: readonlyArray(ref('ScreenColumn')) } } }), false, 'A dashboard\'s small table, its columns compiled like a list\'s.'),
    iface('ScreenStep', members(itemsOf('steps'), defs)),
    iface('ScreenRefresh', members(props.refresh as Schema, defs), false, 'Periodic refresh of a list or detail while its rows (or record) still change.'),
    iface('OperationCall', operationCall, false, 'An operation a form calls (create, edit), with what the compiler knows of it.'),
    iface('ScreenTab', members(itemsOf('tabs'), defs, {
      compiled: {
        fields: { type: readonlyArray(ref('ScreenColumn')) },
        list: { type: screenDef, doc: 'A tab showing a list: the list screen, compiled in.' },
      },
    }), true),
    iface('ScreenDef', members(meta, defs, {
      // `menu` becomes a menu node; the form's fields, rows, extra fields and required list become `schema`/`uiSchema`.
      omit: ['menu', 'fields', 'rows', 'extraFields', 'required'],
      compiled: {
        kind: { type: ref('ScreenKind'), optional: false },
        steps: { type: readonlyArray(ref('ScreenStep')) },
        cards: { type: readonlyArray(ref('ScreenCard')) },
        tables: { type: readonlyArray(ref('ScreenTable')) },
        refresh: { type: ref('ScreenRefresh'), doc: 'List and detail: fetched again every `ms` while a row (the record) meets `while`.' },
        picture: { type: f.createTypeLiteralNode([member('get', STRING, false), member('upload', STRING, false), member('params', OBJECT, true)]) },
        reveal: { type: record(f.createTypeLiteralNode([member('onError', STRING, false)])) },
        edit: { type: ref('OperationCall') },
        filters: { type: readonlyArray(ref('ScreenFilter')), doc: 'List: the filter params shown (a report\'s filter form becomes `schema`).' },
        tabs: { type: readonlyArray(withParams('ScreenTab')) },
        schema: { type: ref('S'), doc: 'Form, wizard and report filters: the rjsf schema built from the fields.' },
        uiSchema: { type: ref('U') },
        sessionScreenDef: { type: screenDef, doc: 'The screen `sessionScreen` names, compiled in.' },
        create: { type: ref('OperationCall') },
        formModes: {
          type: f.createTypeLiteralNode([member('create', ref('OperationCall'), false), member('edit', ref('OperationCall'), true), member('view', BOOLEAN, false)]),
          doc: 'What the list needs of its form (inlined by the compiler): New, Edit, and whether rows open.',
        },
        paged: { type: BOOLEAN },
        permission: { type: ref('Permission'), doc: 'The permission of the screen\'s operation.' },
      },
    }), true, 'A compiled screen as the console runtime reads it (docs/console.md, "Screen kinds").'),
  ];
  return printFile(statements);
}
