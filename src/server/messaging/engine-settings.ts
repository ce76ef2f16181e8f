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
import { numberFrom } from '../../core/settings-number.ts';

export type EngineSettings = Partial<Omit<DispatcherOptions, 'db' | 'adapters' | 'sendWindow'>>;

const VARIABLES = {
  batchSize: 'ENGINE_BATCH_SIZE', concurrency: 'ENGINE_CONCURRENCY', leaseMs: 'ENGINE_LEASE_MS', inDoubtGraceMs: 'ENGINE_IN_DOUBT_GRACE_MS', inDoubtMaxMs: 'ENGINE_IN_DOUBT_MAX_MS', idleMs: 'ENGINE_IDLE_MS',
} as const;


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
