// One small golden project: the whole generator output for tests/fixtures/mini-project is kept
// under expected/, so a change to any emitter shows up as a reviewable diff.
// Rewrite the goldens with UPDATE_GOLDEN=1 after an intended change.
import { describe, it, expect, beforeAll } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generate, type Output } from '../../generators/run.ts';

const fixture = resolve('tests/fixtures/mini-project');
const expectedDir = join(fixture, 'expected');

/** A copy of the fixture with the real meta-schemas and a package.json, as the generator expects. */
export function miniProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'colibri-gen-'));
  for (const part of ['schemas', 'config', 'locales']) cpSync(join(fixture, part), join(dir, part), { recursive: true });
  cpSync(resolve('schemas/_meta'), join(dir, 'schemas/_meta'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.0.0' }));
  return dir;
}

describe('generator golden project', () => {
  let out: Output;
  beforeAll(async () => { out = await generate(miniProject()); });

  it('has no locale problems', () => {
    expect(out.localeProblems).toEqual([]);
  });

  it('emits exactly the golden files', () => {
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(expectedDir, { recursive: true });
      for (const [name, content] of out.files) writeFileSync(join(expectedDir, name), content);
    }
    for (const [name, content] of out.files) {
      const p = join(expectedDir, name);
      expect(existsSync(p), `${name} has no golden`).toBe(true);
      expect(content, name).toBe(readFileSync(p, 'utf8'));
    }
  });

  it('substitutes the product key in paths', () => {
    expect(out.files.get('operations.gen.ts')).toContain('"/v1/mini/things"');
  });
});
