// One small golden project: the whole generator output for tests/fixtures/mini-project is kept
// under expected/, so a change to any emitter shows up as a reviewable diff.
// Rewrite the goldens with UPDATE_GOLDEN=1 after an intended change.
import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { generate, type Output } from '../../generators/run.ts';
import { fixture, miniProject } from './mini-project.ts';

const expectedDir = join(fixture, 'expected');

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
