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
 * the request's first chunk. On PostgreSQL a step holds no request's connection and bigger
 * transactions write faster: measured by `npm run bench -- campaign` (50,000 personalised
 * recipients with a short link each, the dispatcher sending meanwhile), every message was written
 * 13.5 s after the launch with steps of 500, 10.5 s with 2,000 and 6.8 s with 5,000 (the last
 * delivered 35.7 → 29.4 s), while the launch still answers after its first chunk of 500.
 */
export const DEFAULT_LAUNCH_JOB_CHUNK_SIZE_POSTGRESQL = 5_000;

/**
 * LAUNCH_STEP_BUDGET_MS: on PGlite, the longest a launch step may hold the one connection (default
 * 25 ms). Steps start at the request's chunk (LAUNCH_CHUNK_SIZE) and follow the measured cost per
 * row (step-sizer.ts), between LAUNCH_STEP_MIN_ROWS and LAUNCH_STEP_MAX_ROWS. Measured by `npm run
 * bench -- campaign` and `-- launch` on one machine the same hour: 50,000 personalised recipients
 * beside a running dispatcher were written in 17.3 s at a fixed 100 rows a step, 14.5 s at 20 ms,
 * 8.7–8.9 s at 25 ms, 9.4–9.9 s at 40 ms; GET /health p99 during a 200,000-row launch 37–58 ms
 * fixed, 92–103 ms at 20 ms, 93–108 ms at 25 ms, 130–136 ms at 40 ms (a step's statements run
 * in this thread, so a request waits behind the step in flight).
 */
export const DEFAULT_LAUNCH_STEP_BUDGET_MS = 25;
const LAUNCH_STEP_ROWS = { min: 25, max: 2_000 } as const;

/** How a big launch's job sizes its steps: fixed rows, or as many as fit a time budget. */
export type LaunchStepSizing = { kind: 'fixed'; rows: number } | { kind: 'budget'; first: number; min: number; max: number; budgetMs: number };

export function launchStepSizing(env: Env = process.env): LaunchStepSizing {
  const value = numberFrom(env, 'LAUNCH_JOB_CHUNK_SIZE');
  if (value && value >= 1) return { kind: 'fixed', rows: Math.floor(value) };
  if (env.DATABASE_URL) return { kind: 'fixed', rows: DEFAULT_LAUNCH_JOB_CHUNK_SIZE_POSTGRESQL };
  const min = Math.max(1, Math.floor(numberFrom(env, 'LAUNCH_STEP_MIN_ROWS') ?? LAUNCH_STEP_ROWS.min));
  const max = Math.max(min, Math.floor(numberFrom(env, 'LAUNCH_STEP_MAX_ROWS') ?? LAUNCH_STEP_ROWS.max));
  const budget = numberFrom(env, 'LAUNCH_STEP_BUDGET_MS');
  const first = Math.min(max, Math.max(min, launchChunkSize(env)));
  return { kind: 'budget', first, min, max, budgetMs: budget && budget > 0 ? budget : DEFAULT_LAUNCH_STEP_BUDGET_MS };
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
