// The PostgreSQL databases of the server tests. The run's global setup migrates one template
// database; each test file's harness gets a copy of it (CREATE DATABASE … TEMPLATE: 0.1–0.2 s,
// against about 2 s to migrate an empty one), named after its process (t_<pid>_<random>) and
// dropped when the harness closes. Without a template (a benchmark run outside Vitest) a file gets
// a fresh schema of the given database instead, migrated by its harness. Whatever a process that
// is gone left behind (a killed run) is dropped when a run starts and when it ends.
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { createDatabase } from '../../src/server/db/database.ts';
import { prepareDatabase } from '../../src/server/db/prepare.ts';

/** Set by the global setup: the migrated template database this run's files copy. */
export const TEMPLATE_ENV = 'COLIBRI_TEST_TEMPLATE_DATABASE';

const OURS = /^t_(\d+)_(?:[0-9a-f]{12}|template)$/;
/** The per-file schemas of runs before pids were part of the name. */
const OLDER = /^t_[0-9a-f]{12}$/;

export const newTestName = () => `t_${process.pid}_${randomBytes(6).toString('hex')}`;

/** The same server and credentials, another database. */
export function urlOfDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withClient<T>(url: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/** Creates and migrates this run's template database; answers its name. */
export async function createTemplateDatabase(url: string): Promise<string> {
  const name = `t_${process.pid}_template`;
  await withClient(url, async (c) => {
    await c.query(`drop database if exists ${name} with (force)`);
    await c.query(`create database ${name}`);
  });
  const handle = createDatabase({ kind: 'postgres', url: urlOfDatabase(url, name), poolSize: 1 });
  try {
    await prepareDatabase(handle);
  } finally {
    await handle.close();
  }
  return name;
}

/** A copy of the template for one test file: its address and the function that drops it. */
export async function copyTemplateDatabase(url: string, template: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = newTestName();
  await withClient(url, (c) => c.query(`create database ${name} template ${template} strategy wal_log`));
  return { url: urlOfDatabase(url, name), drop: () => dropDatabase(url, name) };
}

/** Drops a test database, ending the connections still open to it. */
export async function dropDatabase(url: string, name: string): Promise<void> {
  await withClient(url, async (c) => { await c.query(`drop database if exists ${name} with (force)`); });
}

/** A fresh schema of the given database (no template). */
export async function newTestSchema(url: string): Promise<string> {
  const schema = newTestName();
  await withClient(url, (c) => c.query(`create schema ${schema}`));
  return schema;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const gone = (name: string) => {
  const m = OURS.exec(name);
  return m ? !alive(Number(m[1])) : OLDER.test(name);
};

/** Drops the test databases and schemas whose process has ended; answers how many. */
export async function dropGone(url: string): Promise<number> {
  return withClient(url, async (c) => {
    const databases = (await c.query<{ name: string }>(`select datname as name from pg_database where datname like 't\\_%'`)).rows.map((r) => r.name).filter(gone);
    for (const name of databases) await c.query(`drop database if exists ${name} with (force)`);
    const schemas = (await c.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like 't\\_%'`)).rows.map((r) => r.name).filter(gone);
    for (const name of schemas) await c.query(`drop schema if exists ${name} cascade`);
    return databases.length + schemas.length;
  });
}

/**
 * DATABASE_URL and DATABASE_SCHEMA for a worker or server process on the database `db` uses (its
 * own copy of the template, or its schema).
 */
export async function processDatabaseEnv<DB>(db: Kysely<DB>): Promise<{ DATABASE_URL: string; DATABASE_SCHEMA: string }> {
  const { database, schema } = (await sql<{ database: string; schema: string }>`select current_database() as database, current_schema() as schema`.execute(db)).rows[0];
  return { DATABASE_URL: urlOfDatabase(process.env.DATABASE_URL!, database), DATABASE_SCHEMA: schema };
}
