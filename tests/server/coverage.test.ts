// Every declared operation has a handler and at least one test: this file fails when an id of
// src/generated/server-operations.gen.ts is called by no tests/server file (calls go through
// the harness as op('<id>', …)), or when the handler map and the declarations disagree.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import { handlers } from '../../src/server/modules/index.ts';

const dir = import.meta.dirname;
const sources = readdirSync(dir).filter((f) => f.endsWith('.test.ts')).map((f) => readFileSync(join(dir, f), 'utf8'));
const called = new Set(sources.flatMap((s) => [...s.matchAll(/\bop\(\s*['"]([A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*)['"]/g)].map((m) => m[1])));

describe('operation coverage', () => {
  it.each(serverOperations.map((o) => o.id))('%s is exercised by a server test', (id) => {
    expect(called.has(id)).toBe(true);
  });

  it('the handler map names exactly the declared operations', () => {
    expect(Object.keys(handlers).sort()).toEqual(serverOperations.map((o) => o.id).sort());
  });

  it('tests call no operation that is not declared', () => {
    const declared = new Set<string>(serverOperations.map((o) => o.id));
    expect([...called].filter((id) => !declared.has(id))).toEqual([]);
  });
});
