// The YAML examples of docs/console.md "Screen kinds" are real screens: each passes the screen
// meta-schema, and together they compile over this project's declarations.
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { buildModel } from '../../generators/model.ts';
import { compileScreen } from '../../generators/emit/screens.ts';

function examples(): string[] {
  const page = readFileSync(resolve('docs/console.md'), 'utf8');
  const start = page.indexOf('\n## Screen kinds\n');
  expect(start).toBeGreaterThan(-1);
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
}

describe('docs/console.md screen kinds', () => {
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
    // Copies the project's declarations and builds the whole model: about 1.5 s alone, several
    // times that when both cores are busy with the rest of the suite.
  }, 60_000);
});

// The product-owner guide's screens are real too: each passes the meta-schema, and the one it
// quotes from the worked example is that file, as written.
describe('docs/product-owner-guide.md screens', () => {
  const page = readFileSync(resolve('docs/product-owner-guide.md'), 'utf8');
  // A block inside a list item is indented with its fence: the fence's indent comes off every line.
  const blocks = [...page.matchAll(/^( *)```yaml\n([\s\S]*?)^ *```/gm)].map((m) => m[2].replace(new RegExp(`^${m[1]}`, 'gm'), ''));
  const screens = blocks.filter((b) => typeof (parse(b) as { kind?: unknown }).kind === 'string');

  it('every screen passes the meta-schema', () => {
    expect(screens.length).toBeGreaterThanOrEqual(2);
    const validate = new Ajv({ strict: false }).compile(parse(readFileSync(resolve('schemas/_meta/screen.schema.yaml'), 'utf8')) as object);
    for (const b of screens) expect({ ok: validate(parse(b)), errors: validate.errors ?? null }).toEqual({ ok: true, errors: null });
  });

  it('quotes the worked example as it is', () => {
    const quoted = screens.filter((b) => b.startsWith('# tests/fixtures/'));
    expect(quoted).not.toHaveLength(0);
    for (const b of quoted) {
      const path = b.split('\n')[0].slice(2).trim();
      expect(parse(b)).toEqual(parse(readFileSync(resolve(path), 'utf8')));
    }
  });
});
