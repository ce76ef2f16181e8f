// The compiled screens the console's stories use (src/console/stories/screens.fixture.json)
// are the generator's own output for tests/fixtures/console-screens/*.yaml over this project's
// declarations: stories exercise exactly what `npm run gen` would emit for those screens.
// Rewrite with UPDATE_GOLDEN=1 after an intended change of the emitter or of a fixture.
import { describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildModel } from '../../generators/model.ts';
import { compileScreen } from '../../generators/emit/screens.ts';

const fixtures = resolve('tests/fixtures/console-screens');
const target = resolve('src/console/stories/screens.fixture.json');

function compiled(): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'colibri-fx-'));
  for (const part of ['schemas', 'config', 'locales', 'package.json']) cpSync(resolve(part), join(dir, part), { recursive: true });
  for (const f of readdirSync(fixtures)) cpSync(join(fixtures, f), join(dir, 'config/screens', `zz-fixture-${f}`));
  const model = buildModel(dir);
  const ids = new Set(readdirSync(fixtures).map((f) => /^id: (\S+)/m.exec(readFileSync(join(fixtures, f), 'utf8'))![1]));
  return Object.fromEntries(model.screens.filter((s) => ids.has(s.id)).map((s) => [s.id, compileScreen(model, s)]));
}

describe('console story fixtures', () => {
  it('are what the generator compiles from tests/fixtures/console-screens', () => {
    const out = JSON.stringify(compiled(), null, 2) + '\n';
    if (process.env.UPDATE_GOLDEN) writeFileSync(target, out);
    expect(readFileSync(target, 'utf8')).toBe(out);
  });
});
