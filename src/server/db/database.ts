// One SQL dialect, PostgreSQL, two ways to reach it (ARCHITECTURE 4): PGlite in process when no
// DATABASE_URL is given (on disk under the data folder, or in memory for tests), a `pg` Pool
// when it is. The rest of the server only sees Kysely<Database>.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import type { Database } from '../../engine/database.ts';
import { createPostgresPool } from './postgres-pool.ts';

export type DatabaseOptions =
  /** In memory; `loadDataDir` starts it from a PGlite data-folder dump instead of an empty initdb (the tests' migrated snapshot). */
  | { kind: 'memory'; loadDataDir?: Blob }
  | { kind: 'pglite'; dataDir: string }
  /** `applicationName`: pg_stat_activity's name for this process's connections (PGAPPNAME wins).
   *  `statementTimeoutMs`: statements running longer are cancelled (a request answers 504, 99993). */
  | { kind: 'postgres'; url: string; schema?: string; poolSize?: number; applicationName?: string; statementTimeoutMs?: number };

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseOptions['kind'];
  /** The schema that holds our tables (only set for PostgreSQL with a per-test schema). */
  schema?: string;
  close(): Promise<void>;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * PGlite's own start parameters plus:
 * - the cost of a random page read: its data sits in memory or in the OS cache, where reading a
 *   page by index costs about what reading the next one does. With the default 4 (a spinning
 *   disk) the planner answers a batch of 500 messages found by id by scanning the whole table
 *   instead of 500 index lookups.
 * - no zero-filling of each new 16 MB WAL segment and no full-page images after a checkpoint:
 *   PGlite runs in the server's own thread, so every millisecond of either stalls
 *   every request; during a 200,000-row launch they made commits of 150–270 ms. Full-page images
 *   only repair a page torn by an operating-system crash, which PGlite's settings (fsync off,
 *   PGlite's default) already do not survive; a killed process leaves no torn page.
 */
const PGLITE_START = [...PGlite.defaultStartParams, '-c', 'random_page_cost=1.1', '-c', 'wal_init_zero=off', '-c', 'full_page_writes=off'];

export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.kind === 'postgres') {
    if (options.schema && !SCHEMA_NAME.test(options.schema)) throw new Error(`invalid schema name ${options.schema}`);
    // Survives a connection the server ends (postgres-pool.ts): the pool opens another.
    const pool = createPostgresPool({ url: options.url, max: options.poolSize ?? 10, schema: options.schema, applicationName: options.applicationName, statementTimeoutMs: options.statementTimeoutMs });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', schema: options.schema, close: () => db.destroy() };
  }
  let pglite: PGlite;
  if (options.kind === 'pglite') {
    // PGlite does not create parent folders of an on-disk database.
    const dir = resolve(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    pglite = new PGlite(dir, { extensions: { pg_trgm }, startParams: PGLITE_START });
  } else {
    pglite = new PGlite({ extensions: { pg_trgm }, startParams: PGLITE_START, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  }
  const db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
  return { db, kind: options.kind, close: () => db.destroy() };
}

/** DATABASE_STATEMENT_TIMEOUT_MS: a whole number of milliseconds, 0 or unset for none. */
function statementTimeoutOf(text: string | undefined): number {
  if (!text?.trim()) return 0;
  const value = Number(text.trim());
  if (!Number.isInteger(value) || value < 0) throw new Error(`DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds (0 for none), got ${text}`);
  return value;
}

/** The database the environment asks for: DATABASE_URL wins, else PGlite under DATA_DIR. */
export function databaseFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseOptions {
  if (env.DATABASE_URL) {
    const timeout = statementTimeoutOf(env.DATABASE_STATEMENT_TIMEOUT_MS);
    return { kind: 'postgres', url: env.DATABASE_URL, applicationName: 'colibri-server', ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}), ...(timeout ? { statementTimeoutMs: timeout } : {}) };
  }
  return { kind: 'pglite', dataDir: env.DATA_DIR || './.data' };
}
