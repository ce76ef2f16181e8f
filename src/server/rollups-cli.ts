// `npm run rollups -- rebuild <first day> <last day>`: rebuilds the report rollups of those Bogotá
// days (both included) from the raw messages, after a restore or a manual fix of rows
// (src/engine/lifecycle/rollups.ts). Writers wait while it runs. On the embedded PGlite the
// server must be stopped first (its data folder is one process's); on PostgreSQL it runs beside
// the servers and workers. Reads DATABASE_URL / DATABASE_SCHEMA / DATA_DIR as `npm start` does.
import { addDays, instantAtMinutes, parseYmd } from '../core/bogota-time.ts';
import { rebuildRollups } from '../engine/lifecycle/index.ts';
import { createDatabase, databaseFromEnv } from './db/database.ts';
import { prepareDatabase } from './db/prepare.ts';

const USAGE = 'usage: npm run rollups -- rebuild YYYY-MM-DD YYYY-MM-DD (Bogotá days, both included)';

/** The instants [from, to) of the Bogotá days given, or an error text. */
export function rebuildRange(first: string | undefined, last: string | undefined): { from: Date; to: Date } | string {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!first || !last || !day.test(first) || !day.test(last)) return USAGE;
  const from = instantAtMinutes(parseYmd(first), 0);
  const to = instantAtMinutes(addDays(parseYmd(last), 1), 0);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return USAGE;
  if (to <= from) return 'the last day comes before the first';
  return { from, to };
}

async function main(argv: string[]): Promise<number> {
  const [command, first, last] = argv;
  const range = command === 'rebuild' ? rebuildRange(first, last) : USAGE;
  if (typeof range === 'string') {
    console.error(range);
    return 2;
  }
  const handle = createDatabase(databaseFromEnv());
  try {
    await prepareDatabase(handle);
    const { rows } = await rebuildRollups(handle.db, range.from, range.to);
    console.log(`rollups: ${first} to ${last} rebuilt from the messages (${rows} rollup rows)`);
    return 0;
  } finally {
    await handle.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));
