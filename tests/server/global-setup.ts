// The server projects' global setup: on PGlite (no DATABASE_URL), the migrated database every
// test file starts from (pglite-snapshot.ts), made once and passed to the test processes through
// the environment; this run's copy is removed at its end. On PostgreSQL, the migrated template
// database every test file copies, dropped at the end with whatever test processes that have
// ended left behind (test-databases.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkSnapshot, SNAPSHOT_ENV } from './pglite-snapshot.ts';
import { createTemplateDatabase, dropDatabase, dropGone, TEMPLATE_ENV } from './test-databases.ts';

export default async function setup(): Promise<(() => Promise<void> | void) | void> {
  const url = process.env.DATABASE_URL;
  if (url) {
    await dropGone(url);
    const template = await createTemplateDatabase(url);
    process.env[TEMPLATE_ENV] = template;
    return async () => {
      await dropDatabase(url, template);
      await dropGone(url);
    };
  }
  const run = mkdtempSync(join(tmpdir(), 'colibri-test-run-'));
  const dump = join(run, 'pglite.tar');
  await linkSnapshot(dump);
  process.env[SNAPSHOT_ENV] = dump;
  return () => rmSync(run, { recursive: true, force: true });
}
