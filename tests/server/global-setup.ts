// The server project's global setup: on PGlite (no DATABASE_URL), the migrated database every
// test file starts from (pglite-snapshot.ts), made once and passed to the test processes through
// the environment; this run's copy is removed at its end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkSnapshot, SNAPSHOT_ENV } from './pglite-snapshot.ts';

export default async function setup(): Promise<(() => void) | void> {
  if (process.env.DATABASE_URL) return;
  const run = mkdtempSync(join(tmpdir(), 'colibri-test-run-'));
  const dump = join(run, 'pglite.tar');
  await linkSnapshot(dump);
  process.env[SNAPSHOT_ENV] = dump;
  return () => rmSync(run, { recursive: true, force: true });
}
