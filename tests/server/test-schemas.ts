// The PostgreSQL schemas of the server tests. Each test file gets a schema of its own, named after
// the process that made it (t_<pid>_<random>). It is not dropped when its file ends: two files run
// at once, and Kysely's migrator, looking for its table, lists every schema's columns by name — a
// schema dropped by one file while another migrates failed that migration with "schema … does not
// exist". The schemas of processes that are gone are dropped when a run starts and when it ends.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const OURS = /^t_(\d+)_[0-9a-f]{12}$/;
/** The per-file schemas of runs before pids were part of the name. */
const OLDER = /^t_[0-9a-f]{12}$/;

export const newTestSchema = () => `t_${process.pid}_${randomBytes(6).toString('hex')}`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Drops the test schemas whose process has ended; answers how many. */
export async function dropGoneSchemas(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like 't\\_%'`);
    const gone = rows.map((r) => r.name).filter((name) => {
      const m = OURS.exec(name);
      return m ? !alive(Number(m[1])) : OLDER.test(name);
    });
    for (const name of gone) await c.query(`drop schema if exists ${name} cascade`);
    return gone.length;
  } finally {
    await c.end();
  }
}
