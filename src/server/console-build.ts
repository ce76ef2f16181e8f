// `npm start` serves the console from dist/console; when the build is missing it builds it
// first (vite.config.ts writes to dist/console), so `npm ci && npm start` is enough.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export async function ensureConsoleBuilt(root: string, projectDir = process.cwd()): Promise<boolean> {
  if (existsSync(join(root, 'index.html'))) return true;
  const vite = resolve(projectDir, 'node_modules/.bin/vite');
  if (!existsSync(vite)) return false;
  console.log('Building the console (first start)…');
  const code = await new Promise<number>((done) => {
    const child = spawn(vite, ['build'], { cwd: projectDir, stdio: 'inherit' });
    child.on('error', () => done(1));
    child.on('exit', (c) => done(c ?? 1));
  });
  return code === 0 && existsSync(join(root, 'index.html'));
}
