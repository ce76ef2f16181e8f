// The dispatcher's settings from the environment, read the same way by `npm start` (the server's
// own dispatcher) and `npm run worker` (the in-doubt grace could only be changed for
// workers):
//   ENGINE_BATCH_SIZE, ENGINE_CONCURRENCY, ENGINE_LEASE_MS, ENGINE_IN_DOUBT_GRACE_MS,
//   ENGINE_IN_DOUBT_MAX_MS, ENGINE_IDLE_MS
//   WORKER_ID (the name in engine_workers; each process picks its own when unset)
//   ENGINE_IN_SERVER (on | off; `npm start` only): off when `npm run worker` processes send, so
//   several API servers on one PostgreSQL serve requests and claim nothing themselves
// ENGINE_IN_DOUBT_GRACE_MS is a trade-off (docs/engine-and-channels.md, "Reach and crash recovery"): a message whose process died
// after handing it to the SMSC may have left even though its answer was lost. It waits this long
// for a receipt that names it before it is sent again: shorter resends sooner after a crash,
// longer makes a second copy at the handset less likely. It also waits until the channel's
// receipts have passed it (a backlog at the SMSC is read first), at most ENGINE_IN_DOUBT_MAX_MS.
import { hostname } from 'node:os';
import type { DispatcherOptions } from '../../engine/dispatcher.ts';
import { databaseFromEnv } from '../db/database.ts';

export type EngineSettings = Partial<Omit<DispatcherOptions, 'db' | 'adapters' | 'sendWindow'>>;

const VARIABLES = {
  batchSize: 'ENGINE_BATCH_SIZE', concurrency: 'ENGINE_CONCURRENCY', leaseMs: 'ENGINE_LEASE_MS', inDoubtGraceMs: 'ENGINE_IN_DOUBT_GRACE_MS', inDoubtMaxMs: 'ENGINE_IN_DOUBT_MAX_MS', idleMs: 'ENGINE_IDLE_MS',
} as const;

/** A non-negative number from the environment, undefined when unset; anything else stops the start-up naming it. */
export function numberFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`);
  return value;
}

/** The settings the environment overrides (nothing else: the dispatcher keeps its defaults). */
export function engineSettings(env: NodeJS.ProcessEnv): EngineSettings {
  const settings: EngineSettings = env.WORKER_ID ? { workerId: env.WORKER_ID } : {};
  for (const [key, name] of Object.entries(VARIABLES) as [keyof typeof VARIABLES, string][]) {
    const value = numberFrom(env, name);
    if (value !== undefined) settings[key] = value;
  }
  return settings;
}

/** A worker's settings (`npm run worker`): the same, with a name of its own unless WORKER_ID gives one. */
export function workerSettings(env: NodeJS.ProcessEnv): EngineSettings {
  return { workerId: `w-${hostname()}-${process.pid}-${Math.random().toString(16).slice(2, 8)}`, ...engineSettings(env) };
}

/**
 * Whether `npm start` runs the dispatcher and the status-callback deliverer itself (ENGINE_IN_SERVER,
 * default on). Off, the server still enqueues, wakes nobody and takes provider webhooks; the
 * messages wait for `npm run worker` processes, so it needs DATABASE_URL (a PGlite database has
 * no other process that could send them).
 */
export function serverRunsEngine(env: NodeJS.ProcessEnv): boolean {
  const text = (env.ENGINE_IN_SERVER ?? '').trim().toLowerCase();
  if (text === '' || text === 'on') return true;
  if (text !== 'off') throw new Error('ENGINE_IN_SERVER must be on or off');
  if (!env.DATABASE_URL) throw new Error('ENGINE_IN_SERVER=off needs DATABASE_URL: on the embedded database no worker process can send the messages');
  return false;
}

/**
 * LAUNCH_CHUNK_SIZE: recipients a launch writes per transaction. On PGlite the chunk is
 * the longest statement the one connection runs in this thread while other requests wait, so it
 * bounds their latency during a launch: measured by tests/bench/launch.ts on a quiet machine,
 * 500 rows took a median 110 ms per step (GET /health p50 143 ms, p99 1.1 s), 100 rows 22–29 ms
 * at 88 % of the rows per second. On PostgreSQL a chunk holds no other request's connection,
 * and fewer, larger transactions write faster. A launch that fits in one chunk is written in its
 * request, whole, as before.
 */
export const DEFAULT_LAUNCH_CHUNK_SIZE = { pglite: 100, postgresql: 500 } as const;

export function launchChunkSize(env: NodeJS.ProcessEnv = process.env): number {
  return rowsByDatabase(env, 'LAUNCH_CHUNK_SIZE', DEFAULT_LAUNCH_CHUNK_SIZE);
}

/**
 * PREVIEW_STAGED_MAX: the most sendable rows the campaign summary stages (the launch
 * run and rolled back in one transaction); a bigger file is staged on its first rows and its
 * counts scaled. On PGlite the staging holds the one database thread: 500 rows took 78 ms (2,000:
 * 143 ms; a whole 20,000-row file 1.25 s), inside the 100-ms p99 that the launch's chunks keep.
 */
export const DEFAULT_PREVIEW_STAGED_MAX = { pglite: 500, postgresql: 2_000 } as const;

export function previewStagedMax(env: NodeJS.ProcessEnv = process.env): number {
  return rowsByDatabase(env, 'PREVIEW_STAGED_MAX', DEFAULT_PREVIEW_STAGED_MAX);
}

/** A row count from the environment (at least 1), else the default of the database it runs on. */
function rowsByDatabase(env: NodeJS.ProcessEnv, name: string, defaults: { pglite: number; postgresql: number }): number {
  const value = numberFrom(env, name);
  if (value && value >= 1) return Math.floor(value);
  return databaseFromEnv(env).kind === 'postgres' ? defaults.postgresql : defaults.pglite;
}
