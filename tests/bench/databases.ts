// The server-side benchmarks run once on PGlite and once on PostgreSQL (the URL given, a fresh
// schema); a PostgreSQL that cannot be reached is skipped with a line, not a failure.
import { createHarness, type Harness, type HarnessOptions } from '../server/harness.ts';

export type BenchDatabase = 'PGlite' | 'PostgreSQL';

export async function onEachDatabase(postgresUrl: string, run: (h: Harness, target: BenchDatabase) => Promise<void>, harness: (target: BenchDatabase) => HarnessOptions = () => ({})): Promise<void> {
  for (const target of ['PGlite', 'PostgreSQL'] as const) {
    if (target === 'PostgreSQL') process.env.DATABASE_URL = postgresUrl;
    else delete process.env.DATABASE_URL;
    let h: Harness;
    try {
      h = await createHarness(harness(target));
    } catch (e) {
      console.log(`bench: ${target} not reachable (${(e as Error).message}); skipped`);
      continue;
    }
    try {
      await run(h, target);
    } finally {
      await h.close();
    }
  }
  delete process.env.DATABASE_URL;
}
