// The launch's sizes, from the environment, by the database the process runs on (DATABASE_URL set:
// PostgreSQL; else the embedded PGlite).
import { numberFrom } from '../../core/settings-number.ts';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * LAUNCH_CHUNK_SIZE: recipients a launch writes per transaction. On PGlite the chunk is
 * the longest statement the one connection runs in this thread while other requests wait, so it
 * bounds their latency during a launch: measured by tests/bench/launch.ts on a quiet machine,
 * 500 rows took a median 110 ms per step (GET /health p50 143 ms, p99 1.1 s), 100 rows 22–29 ms
 * at 88 % of the rows per second. On PostgreSQL a chunk holds no other request's connection,
 * and fewer, larger transactions write faster. A launch that fits in one chunk is written in its
 * request, whole.
 */
export const DEFAULT_LAUNCH_CHUNK_SIZE = { pglite: 100, postgresql: 500 } as const;

export function launchChunkSize(env: Env = process.env): number {
  return rowsByDatabase(env, 'LAUNCH_CHUNK_SIZE', DEFAULT_LAUNCH_CHUNK_SIZE);
}

/**
 * LAUNCH_JOB_CHUNK_SIZE: recipients each step of a big launch's job writes per transaction, after
 * the request's first chunk. On PGlite it is the request's (LAUNCH_CHUNK_SIZE): a step holds the
 * one connection every request waits for. On PostgreSQL a step holds no request's connection and
 * bigger transactions write faster: measured by `npm run bench -- campaign` (50,000 personalised
 * recipients with a short link each, the dispatcher sending meanwhile), every message was written
 * 13.5 s after the launch with steps of 500, 10.5 s with 2,000 and 6.8 s with 5,000 (the last
 * delivered 35.7 → 29.4 s), while the launch still answers after its first chunk of 500.
 */
export const DEFAULT_LAUNCH_JOB_CHUNK_SIZE_POSTGRESQL = 5_000;

export function launchJobChunkSize(env: Env = process.env): number {
  const value = numberFrom(env, 'LAUNCH_JOB_CHUNK_SIZE');
  if (value && value >= 1) return Math.floor(value);
  return env.DATABASE_URL ? DEFAULT_LAUNCH_JOB_CHUNK_SIZE_POSTGRESQL : launchChunkSize(env);
}

/**
 * PREVIEW_STAGED_MAX: the most sendable rows the campaign summary stages (the launch
 * run and rolled back in one transaction); a bigger file is staged on its first rows and its
 * counts scaled. On PGlite the staging holds the one database thread: 500 rows took 78 ms (2,000:
 * 143 ms; a whole 20,000-row file 1.25 s), inside the 100-ms p99 that the launch's chunks keep.
 */
export const DEFAULT_PREVIEW_STAGED_MAX = { pglite: 500, postgresql: 2_000 } as const;

export function previewStagedMax(env: Env = process.env): number {
  return rowsByDatabase(env, 'PREVIEW_STAGED_MAX', DEFAULT_PREVIEW_STAGED_MAX);
}

/** A row count from the environment (at least 1), else the default of the database it runs on. */
function rowsByDatabase(env: Env, name: string, defaults: { pglite: number; postgresql: number }): number {
  const value = numberFrom(env, name);
  if (value && value >= 1) return Math.floor(value);
  return env.DATABASE_URL ? defaults.postgresql : defaults.pglite;
}
