// An invalid declaration fails the generator with the file, the path inside it and the reason.
import { describe, it, expect } from 'vitest';
import { writeFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../generators/run.ts';
import { miniProject } from './golden.test.ts';

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
    ['permission on unknown component', (d) => rewrite(d, 'schemas/api/things.yaml', 'component: 10', 'component: 99'), /component 99 is not in config\/menu\.yaml/],
    ['unknown error code', (d) => rewrite(d, 'schemas/api/things.yaml', '"99982"', '"99900"'), /error code 99900 is not in config\/errors\.yaml/],
    ['screen field not in body', (d) => rewrite(d, 'config/screens/new-thing.yaml', '[name, color]', '[name, size]'), /^config\/screens\/new-thing\.yaml:5 \/fields\/1: field "size"/],
    ['yaml syntax', (d) => writeFileSync(join(d, 'config/menu.yaml'), '- { id: 10, key: [\n'), /^config\/menu\.yaml.*YAML syntax/],
    ['x-list on a POST', (d) => rewrite(d, 'schemas/api/things.yaml', 'access: public', 'access: public\n    x-list: { sortable: [name] }'), /things\.yaml.*\/operations\/create\/x-list: a list operation must be GET/],
    ['x-list without the list query', (d) => rewrite(d, 'schemas/api/things.yaml', 'errors: ["99982"]', 'errors: ["99982"]\n    x-list: { sortable: [name] }'), /\/operations\/get\/x-list: the list convention needs query param "page"/],
    ['duplicate component id', (d) => writeFileSync(join(d, 'config/menu.yaml'), '- { id: 10, key: a, path: /A }\n- { id: 10, key: b, path: /B }\n'), /component id 10 used twice/],
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
