// The YAML examples of README "How it is built → Screen kinds" are real screens: each passes the
// screen meta-schema, and together they compile over this project's declarations.
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { buildModel } from '../../generators/model.ts';
import { compileScreen } from '../../generators/emit/screens.ts';

function examples(): string[] {
  const readme = readFileSync(resolve('README.md'), 'utf8');
  const start = readme.indexOf('### Screen kinds');
  const section = readme.slice(start, readme.indexOf('\n### ', start + 1));
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
}

describe('README screen kinds', () => {
  const blocks = examples();

  it('shows one example of every kind', () => {
    expect(blocks.map((b) => (parse(b) as { kind: string }).kind).sort()).toEqual(['dashboard', 'detail', 'form', 'list', 'message', 'report', 'wizard']);
  });

  it('every example passes the meta-schema', () => {
    const validate = new Ajv({ strict: false }).compile(parse(readFileSync(resolve('schemas/_meta/screen.schema.yaml'), 'utf8')) as object);
    for (const b of blocks) expect({ ok: validate(parse(b)), errors: validate.errors ?? null }).toEqual({ ok: true, errors: null });
  });

  it('the examples compile together over the project declarations', () => {
    const dir = mkdtempSync(join(tmpdir(), 'colibri-readme-'));
    for (const part of ['schemas', 'config', 'locales', 'package.json']) cpSync(resolve(part), join(dir, part), { recursive: true });
    const fresh = blocks.filter((b) => !JSON.stringify(parse(b)).includes('"route":"/validation"'));
    // An example may be one of the project's own screens, written shorter: it takes that screen's place.
    const freshIds = new Set(fresh.map((b) => (parse(b) as { id: string }).id));
    for (const file of readdirSync(join(dir, 'config/screens'))) {
      if (freshIds.has((parse(readFileSync(join(dir, 'config/screens', file), 'utf8')) as { id: string }).id)) rmSync(join(dir, 'config/screens', file));
    }
    fresh.forEach((b, i) => writeFileSync(join(dir, 'config/screens', `zz-readme-${i}.yaml`), b));
    const model = buildModel(dir);
    const ids = fresh.map((b) => (parse(b) as { id: string }).id);
    for (const id of ids) expect(() => compileScreen(model, model.screens.find((s) => s.id === id)!)).not.toThrow();
    expect(ids).toHaveLength(6);
  });
});
