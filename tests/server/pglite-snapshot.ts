// A migrated PGlite database (migrations and system roles, no seed) dumped once and loaded by
// every server test file: PGlite's initdb and the migrations cost 5–7 s of CPU per file, loading
// the dump under one. The seed stays per file, since it depends on each file's clock and options.
// The dump is kept in the temporary folder under a hash of the sources that shape it (prepare.ts
// and what it imports), so an edited migration, system role or PGlite version makes a new one;
// each file still runs prepareDatabase on what it loads, which applies any migration added since.
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect } from 'kysely';
import type { Database } from '../../src/engine/database.ts';
import { prepareDatabase } from '../../src/server/db/prepare.ts';

/** The environment variable through which the global setup hands the dump's path to the test files. */
export const SNAPSHOT_ENV = 'COLIBRI_TEST_PGLITE_SNAPSHOT';

const ROOT = resolve(import.meta.dirname, '../..');
/** Besides prepare.ts and the sources it imports: this file and PGlite's version. */
const ALSO = ['tests/server/pglite-snapshot.ts', 'node_modules/@electric-sql/pglite/package.json'];
const FOLDER = join(tmpdir(), 'colibri-test-pglite');
const STALE_MS = 86_400_000;
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** prepare.ts and every source it imports, followed through relative imports (types too, harmlessly). */
function preparedFrom(): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith('.ts')) return;
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) visit(resolve(dirname(file), spec));
  };
  visit(join(ROOT, 'src/server/db/prepare.ts'));
  return [...seen].sort();
}

function sourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of [...preparedFrom(), ...ALSO.map((f) => join(ROOT, f))]) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * Puts the dump at `dest` (a hard link to the kept one, so a later run may replace the kept one
 * while this run still reads its own), making it when missing. Runs at once each write their own
 * file and rename it; dumps of other sources are removed.
 */
export async function linkSnapshot(dest: string): Promise<void> {
  const kept = join(FOLDER, `${sourcesHash()}.tar`);
  try {
    linkSync(kept, dest);
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(FOLDER, { recursive: true });
  const pglite = new PGlite({ extensions: { pg_trgm } });
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  try {
    await prepareDatabase({ db, kind: 'memory', close: async () => {} });
    const dump = await pglite.dumpDataDir('none');
    const partial = `${kept}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    linkSync(partial, dest);
    renameSync(partial, kept);
  } finally {
    await db.destroy();
  }
  for (const name of readdirSync(FOLDER)) {
    const other = join(FOLDER, name);
    // Another run's dump being written is left alone unless a day old (a run that was killed).
    const stale = !name.endsWith('.partial') || Date.now() - statSync(other).mtimeMs > STALE_MS;
    if (other !== kept && stale) rmSync(other, { force: true });
  }
}

let loaded: Blob | undefined;

/** The dump the global setup made, read once per test file; undefined outside a run that made one. */
export function snapshotBlob(): Blob | undefined {
  const path = process.env[SNAPSHOT_ENV];
  if (!path) return undefined;
  loaded ??= new Blob([readFileSync(path)]);
  return loaded;
}
