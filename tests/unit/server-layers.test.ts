// The server's parts import each other in one direction only: a module folder
// (src/server/modules/<domain>), each other folder of src/server (http, auth, security, messaging,
// db…) and each of its top files is a part, and the parts' imports form no loop. A loop is how a
// rule ends up written in two places (a lower part reaching back up for something an upper part
// owns); the test names the loop so it can be cut where it is made. Type-only imports count too:
// a port's interface belongs to the lower part that declares it, not to its implementation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = resolve('src/server');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The part a file of src/server belongs to: modules/<domain>, another folder, or a top file. */
export function partOf(file: string): string {
  const [first, second] = relative(SERVER, file).split('/');
  if (first === 'modules' && second && !second.endsWith('.ts')) return `modules/${second}`;
  return first;
}

/** Relative imports (static, dynamic and `export … from`) of a file's text. */
export function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => m[1]);
}

/** A loop of parts, as a path that returns to its start, or null. */
export function findLoop(edges: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (part: string): string[] | null => {
    state.set(part, 'open');
    path.push(part);
    for (const next of edges.get(part) ?? []) {
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const loop = visit(next);
        if (loop) return loop;
      }
    }
    path.pop();
    state.set(part, 'done');
    return null;
  };
  for (const part of edges.keys()) {
    if (state.has(part)) continue;
    const loop = visit(part);
    if (loop) return loop;
  }
  return null;
}

describe("the server's parts", () => {
  it('finds a loop where there is one, and none in a line', () => {
    const graph = (pairs: [string, string][]) => {
      const edges = new Map<string, Set<string>>();
      for (const [a, b] of pairs) edges.set(a, (edges.get(a) ?? new Set()).add(b));
      return edges;
    };
    expect(findLoop(graph([['modules/campaigns', 'messaging'], ['messaging', 'http'], ['http', 'errors']]))).toBeNull();
    expect(findLoop(graph([['modules/campaigns', 'messaging'], ['messaging', 'modules/campaigns']]))).toEqual(['modules/campaigns', 'messaging', 'modules/campaigns']);
    expect(importsOf("import type { A } from '../context.ts';\nexport { b } from './b.ts';\nconst c = () => import('../../c.ts');\nimport './side.ts';"))
      .toEqual(['../context.ts', './b.ts', '../../c.ts', './side.ts']);
    expect([partOf(join(SERVER, 'modules/campaigns/index.ts')), partOf(join(SERVER, 'modules/index.ts')), partOf(join(SERVER, 'http/handler.ts')), partOf(join(SERVER, 'app.ts'))])
      .toEqual(['modules/campaigns', 'modules', 'http', 'app.ts']);
  });

  it('import each other in one direction only', () => {
    const edges = new Map<string, Set<string>>();
    const why = new Map<string, string>();
    for (const file of sourceFiles(SERVER)) {
      const from = partOf(file);
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(`${SERVER}/`)) continue;
        const to = partOf(target);
        if (to === from) continue;
        edges.set(from, (edges.get(from) ?? new Set()).add(to));
        why.set(`${from} -> ${to}`, `${relative(SERVER, file)} imports ${spec}`);
      }
    }
    const loop = findLoop(edges);
    const explained = loop?.slice(1).map((to, i) => why.get(`${loop[i]} -> ${to}`));
    expect(explained ?? null).toBeNull();
  });
});
