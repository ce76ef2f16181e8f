// npm run gen        writes src/generated/ from schemas/ and config/
// npm run gen:check  fails when regenerating would change anything or a locale key is missing
import { readFileSync, writeFileSync, mkdirSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generate } from './run.ts';
import { DeclarationError } from './load.ts';

const root = resolve(process.argv.find((a) => a.startsWith('--root='))?.slice(7) ?? '.');
const check = process.argv.includes('--check');
const outDir = join(root, 'src/generated');

try {
  const { files, localeProblems } = await generate(root);
  const stale: string[] = [];
  const existing = existsSync(outDir) ? readdirSync(outDir).filter((n) => n.includes('.gen.')) : [];
  for (const [name, content] of files) {
    const p = join(outDir, name);
    const before = existsSync(p) ? readFileSync(p, 'utf8') : null;
    if (before !== content) stale.push(name);
    if (!check && before !== content) { mkdirSync(outDir, { recursive: true }); writeFileSync(p, content); }
  }
  for (const name of existing) {
    if (!files.has(name)) { stale.push(`${name} (no longer generated)`); if (!check) rmSync(join(outDir, name)); }
  }
  if (localeProblems.length) {
    console.error(`gen: ${localeProblems.length} locale problem(s):\n  ${localeProblems.join('\n  ')}`);
    process.exit(1);
  }
  if (check && stale.length) {
    console.error(`gen:check: src/generated is out of date (run npm run gen):\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  console.log(check ? `gen:check: ${files.size} generated files are up to date` : `gen: ${stale.length} of ${files.size} files written`);
} catch (e) {
  if (e instanceof DeclarationError) { console.error(`gen: ${e.message}`); process.exit(1); }
  throw e;
}
