// Every way the product's processes start carries the same V8 flags (tests/node-flags.ts): the
// package.json scripts a person runs, and the test workers (this file runs in one of them).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../node-flags.ts';

describe('the V8 flags of the product', () => {
  it('npm start, npm run worker and npm run rollups start Node with them', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['start', 'worker', 'rollups']) {
      expect(scripts[name].startsWith(`node ${NODE_FLAGS.join(' ')} --import tsx `), name).toBe(true);
    }
  });

  it('the test workers run with them', () => {
    for (const flag of NODE_FLAGS) expect(process.execArgv).toContain(flag);
  });
});
