// One owner for every state change (ARCHITECTURE 5): only src/engine/lifecycle/ writes the rows of
// messages and deployments (their state, delivery_status and status_code with them), and the one
// Kysely Database is used everywhere as it is, never cast into another.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const OWNER = 'src/engine/lifecycle/';

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return path === 'src/generated' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Writes of messages or deployments rows, in SQL text or through Kysely's builder. */
const WRITE = /\b(update|insert\s+into|delete\s+from)\s+(messages|deployments)\b|\b(updateTable|insertInto|deleteFrom)\(\s*'(messages|deployments)'/i;

/** The files of `files` that write messages or deployments rows, with the first such line. */
function writers(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    const line = text.split('\n').find((l) => WRITE.test(l));
    return line ? [`${path}: ${line.trim()}`] : [];
  });
}

describe('the lifecycle owns every change of messages and deployments', () => {
  const files = sources('src').map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));

  it('finds a write wherever one is written (the check itself)', () => {
    const planted = [
      { path: 'src/server/x.ts', text: "await sql`update messages set state = 'paused'`;" },
      { path: 'src/server/y.ts', text: "await trx.updateTable('deployments').set({ state: 'running' });" },
      { path: 'src/engine/z.ts', text: 'await sql`\n  insert into messages (id) values (1)`;' },
    ];
    expect(writers(planted)).toHaveLength(3);
  });

  it('no file outside src/engine/lifecycle writes them', () => {
    expect(writers(files.filter((f) => !f.path.startsWith(OWNER)))).toEqual([]);
    expect(writers(files.filter((f) => f.path.startsWith(OWNER))).length).toBeGreaterThan(0);
  });

  it('no file casts a Kysely instance into another database type', () => {
    expect(files.filter((f) => /as unknown as Kysely/.test(f.text)).map((f) => relative(ROOT, join(ROOT, f.path)))).toEqual([]);
  });
});
