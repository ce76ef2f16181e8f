// A temporary copy of tests/fixtures/mini-project with the real meta-schemas, as the generator expects.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const fixture = resolve('tests/fixtures/mini-project');

/** A copy of the fixture with the real meta-schemas and a package.json, as the generator expects. */
export function miniProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'colibri-gen-'));
  for (const part of ['schemas', 'config', 'locales']) cpSync(join(fixture, part), join(dir, part), { recursive: true });
  cpSync(resolve('schemas/_meta'), join(dir, 'schemas/_meta'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ version: '1.0.0' }));
  return dir;
}

