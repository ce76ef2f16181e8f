// An invalid declaration fails the generator with the file, the path inside it and the reason.
import { describe, it, expect } from 'vitest';
import { writeFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../generators/run.ts';
import { miniProject } from './mini-project.ts';

async function failure(edit: (dir: string) => void): Promise<string> {
  const dir = miniProject();
  edit(dir);
  try {
    await generate(dir);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('generator accepted an invalid declaration');
}

const rewrite = (dir: string, file: string, from: string, to: string) => {
  const p = join(dir, file);
  writeFileSync(p, readFileSync(p, 'utf8').replace(from, to));
};

describe('declaration errors name file, path and reason', () => {
  const table: [string, (dir: string) => void, RegExp][] = [
    ['bad method', (d) => rewrite(d, 'schemas/api/things.yaml', 'method: GET', 'method: FETCH'), /^schemas\/api\/things\.yaml:4 \/operations\/get\/method: must be equal to one of the allowed values/],
    ['unknown ref', (d) => rewrite(d, 'schemas/entities/thing.yaml', 'color#', 'colour#'), /^schemas\/entities\/thing\.yaml.*unknown \$ref "colour#"/],
    ['menu extra property', (d) => rewrite(d, 'config/menu.yaml', 'roles:', 'rols:'), /^config\/menu\.yaml:1 \/0: must NOT have additional properties \(rols\)/],
    ['undeclared path param', (d) => rewrite(d, 'schemas/api/things.yaml', 'params: { id: { type: integer } }', ''), /things\.yaml.*\/operations\/get\/params: path parameters \{id\}/],
    ['templated path spelled twice', (d) => rewrite(d, 'schemas/api/things.yaml', 'path: /v1/things/{id}\n    permission: { component: 10, action: delete }\n    params: { id: { type: integer } }', 'path: /v1/things/{thingId}\n    permission: { component: 10, action: delete }\n    params: { thingId: { type: integer } }'), /^schemas\/api\/things\.yaml:\d+ \/operations\/delete\/path: path \/v1\/things\/\{thingId\} is \/v1\/things\/\{id\} with other parameter names/],
    ['header name not a token', (d) => rewrite(d, 'schemas/api/things.yaml', 'Idempotency-Key:', '"Idempotency Key":'), /^schemas\/api\/things\.yaml:\d+ \/operations\/create\/headers: must match pattern/],
    ['permission on unknown component', (d) => rewrite(d, 'schemas/api/things.yaml', 'component: 10', 'component: 99'), /component 99 is not in config\/menu\.yaml/],
    ['unknown error code', (d) => rewrite(d, 'schemas/api/things.yaml', '"99982"', '"99900"'), /error code 99900 is not in config\/errors\.yaml/],
    ['screen field not in body', (d) => rewrite(d, 'config/screens/new-thing.yaml', '[name, color]', '[name, size]'), /^config\/screens\/new-thing\.yaml:5 \/fields\/1: field "size"/],
    ['yaml syntax', (d) => writeFileSync(join(d, 'config/menu.yaml'), '- { id: 10, key: [\n'), /^config\/menu\.yaml.*YAML syntax/],
    ['x-list on a POST', (d) => rewrite(d, 'schemas/api/things.yaml', 'access: public', 'access: public\n    x-list: { sortable: [name] }'), /things\.yaml.*\/operations\/create\/x-list: a list operation must be GET/],
    ['x-list without the list query', (d) => rewrite(d, 'schemas/api/things.yaml', 'errors: ["99982"]', 'errors: ["99982"]\n    x-list: { sortable: [name] }'), /\/operations\/get\/x-list: the list convention needs query param "page"/],
    ['duplicate component id', (d) => writeFileSync(join(d, 'config/menu.yaml'), '- { id: 10, key: a, path: /A }\n- { id: 10, key: b, path: /B }\n'), /component id 10 used twice/],
    // The screen vocabulary (schemas/_meta/screen.schema.yaml, generators/emit/screens.ts)
    ['unknown screen kind', (d) => rewrite(d, 'config/screens/things.yaml', 'kind: list', 'kind: grid'), /^config\/screens\/things\.yaml:2 \/kind: must be equal to one of the allowed values/],
    ['column not a field', (d) => rewrite(d, 'config/screens/things.yaml', 'columns: [name,', 'columns: [size,'), /^config\/screens\/things\.yaml:\d+ \/columns\/0: column "size" is not a field of the records/],
    ['filter not a query param', (d) => rewrite(d, 'config/screens/things.yaml', 'export: [csv, xlsx]', 'export: [csv, xlsx]\nfilters: [size]'), /things\.yaml.*\/filters\/0: filter "size" is not a query param of things\.list/],
    ['default sort not sortable', (d) => rewrite(d, 'config/screens/things.yaml', 'field: name, order: asc', 'field: color, order: asc'), /things\.yaml.*\/defaultSort\/field: "color" is not sortable/],
    ['form names a detail', (d) => rewrite(d, 'config/screens/things.yaml', 'form: newThing', 'form: thing'), /things\.yaml.*\/form: screen "thing" is a detail, not a form/],
    ['action with both operation and to', (d) => rewrite(d, 'config/screens/things.yaml', 'operation: things.delete }', 'operation: things.delete, to: /x }'), /things\.yaml:\d+ \/rowActions\/0: must NOT be valid/],
    ['row action on an unknown operation', (d) => rewrite(d, 'config/screens/things.yaml', 'operation: things.delete }', 'operation: things.remove }'), /things\.yaml.*unknown operation "things\.remove"/],
    ['tab screen not a list', (d) => rewrite(d, 'config/screens/thing.yaml', 'screen: things }', 'screen: newThing }'), /thing\.yaml.*\/tabs\/1\/screen: screen "newThing" is a form, not a list/],
    ['wizard field in two steps', (d) => rewrite(d, 'config/screens/thing-wizard.yaml', 'fields: [color]', 'fields: [color, name]'), /thing-wizard\.yaml.*\/steps\/1\/fields\/1: field "name" is in two steps/],
    ['wizard with one step', (d) => rewrite(d, 'config/screens/thing-wizard.yaml', '  - { label: screens.things.general, fields: [color] }\n', ''), /thing-wizard\.yaml.*\/steps: must NOT have fewer than 2 items/],
    ['payload names no filter', (d) => rewrite(d, 'config/screens/thing-report.yaml', 'color: $f.color', 'color: $f.colour'), /thing-report\.yaml.*\/payload: \$f\.colour is not a filter/],
    ['payload value the operation refuses', (d) => rewrite(d, 'config/screens/thing-report.yaml', 'pageSize: 200', 'pageSize: 500'), /thing-report\.yaml.*\/payload\/pageSize: 500 is refused by things\.list: +must be <= 200/],
    ['payload enum value misspelt', (d) => rewrite(d, 'config/screens/thing-report.yaml', 'pageSize: 200', 'pageSize: 200, sort: nmae'), /thing-report\.yaml.*\/payload\/sort: "nmae" is refused by things\.list: .*\(name\)/],
    ['payload key the operation does not take', (d) => rewrite(d, 'config/screens/thing-report.yaml', 'pageSize: 200', 'pageSize: 200, size: 3'), /thing-report\.yaml.*\/payload\/size: "size" is not in things\.list's request/],
    ['download of an operation that makes no file', (d) => rewrite(d, 'config/screens/thing-report.yaml', 'itemsPath: items', 'itemsPath: items\ndownload: { operation: things.list, label: screens.things.title, fileName: things.xlsx }'), /thing-report\.yaml.*\/download\/operation: "things\.list" does not produce a file/],
    ['chart spec carries data', (d) => rewrite(d, 'config/screens/thing-report.yaml', 'spec: { mark: bar', 'spec: { data: { url: x }, mark: bar'), /thing-report\.yaml.*\/chart\/spec: must NOT be valid/],
    ['rows name a field not in fields', (d) => rewrite(d, 'config/screens/new-thing.yaml', 'view: true', 'view: true\nrows: [[name, size]]'), /new-thing\.yaml.*\/rows\/0\/1: field "size" is not in fields/],
    ['edit mode without load', (d) => rewrite(d, 'config/screens/new-thing.yaml', 'load: { operation: things.get }\n', ''), /new-thing\.yaml.*\/load: a form with edit or view mode needs `load`/],
    // Enum metadata (schemas/_meta/enum.schema.yaml, generators/enums.ts)
    ['enum value without x-values entry', (d) => rewrite(d, 'schemas/enums/color.yaml', 'enum: [red, blue]', 'enum: [red, blue, green]'), /^schemas\/enums\/color\.yaml:\d+ \/x-values: value "green" has no entry/],
    ['x-values for a value not in the enum', (d) => rewrite(d, 'schemas/enums/color.yaml', 'enum: [red, blue]', 'enum: [red]'), /^schemas\/enums\/color\.yaml:9 \/x-values\/blue: "blue" is not a value of color/],
    ['x-values fact of the wrong type', (d) => rewrite(d, 'schemas/enums/color.yaml', 'warm: false', 'warm: no'), /^schemas\/enums\/color\.yaml:9 \/x-values\/blue\/warm: must be boolean/],
    ['x-values entry missing a field', (d) => rewrite(d, 'schemas/enums/color.yaml', 'name: navy, warm: false', 'name: navy'), /^schemas\/enums\/color\.yaml:9 \/x-values\/blue: missing x-meta field "warm"/],
    ['x-values name used twice', (d) => rewrite(d, 'schemas/enums/color.yaml', 'name: navy', 'name: crimson'), /^schemas\/enums\/color\.yaml:9 \/x-values\/blue\/name: name "crimson" is used twice/],
    ['x-meta field of an unknown enum', (d) => rewrite(d, 'schemas/enums/color.yaml', 'warm: { type: boolean', 'warm: { $ref: "heat#"'), /^schemas\/enums\/color\.yaml:\d+ \/x-meta\/warm\/\$ref: unknown enum "heat#"/],
    ['x-meta without x-values', (d) => rewrite(d, 'schemas/enums/color.yaml', 'x-values:', 'x-valuez:'), /^schemas\/enums\/color\.yaml:\d+ \/: must NOT have additional properties \(x-valuez\)/],
    ['x-options on an unknown operation', (d) => rewrite(d, 'config/screens/new-thing.yaml', 'fields: [name, color]', 'fields: [name, color, owner]\nextraFields: { owner: { type: integer, x-options: { operation: people.list } } }'), /new-thing\.yaml.*x-options: unknown operation "people\.list"/],
  ];
  it.each(table)('%s', async (_name, edit, want) => {
    expect(await failure(edit)).toMatch(want);
  });
});

describe('locale coverage', () => {
  it('reports a key missing in one language', async () => {
    const dir = miniProject();
    rmSync(join(dir, 'locales/en/fields.json'));
    const out = await generate(dir);
    expect(out.localeProblems).toContain('locales/en: missing key "fields.name"');
  });
});
