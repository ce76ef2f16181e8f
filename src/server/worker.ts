// `npm run worker`: a dispatch worker without the HTTP server, for scale-out. Scale-out is more
// worker processes on one PostgreSQL: each claims queued rows with FOR UPDATE SKIP LOCKED, keeps
// a heartbeat in engine_workers, and recovers the rows of a worker that died (ARCHITECTURE 5).
// PGlite is one process's database (it cannot be shared between processes), so a worker needs
// DATABASE_URL; the server (`npm start`) owns the schema and migrates it.
//
//   DATABASE_URL                 PostgreSQL (required)
//   DATABASE_SCHEMA              schema that holds the tables (default: the connection's search_path)
//   COLIBRI_SECRET_KEY, DATA_DIR the key that opens the channels' sealed passwords (as the server)
//   WORKER_ID                    name in engine_workers (default w-<pid>-<random>)
//   ENGINE_BATCH_SIZE, ENGINE_CONCURRENCY, ENGINE_LEASE_MS, ENGINE_IN_DOUBT_GRACE_MS, ENGINE_IDLE_MS
//                                the dispatcher's settings, read as `npm start` reads them (messaging/engine-settings.ts)
//
// There is no sandbox here: SMS channels bind where their `connection` settings say (host, port,
// systemId; the password is the channel's sealed authorizationToken credential). SIGTERM or SIGINT stops
// claiming, lets the batches in flight finish and be recorded, releases the worker row, unbinds
// and exits 0; a second signal exits at once (the rows then wait for another worker's recovery).
import { createDatabase, type DatabaseHandle } from './db/database.ts';
import { startMessaging, type MessagingRuntime } from './messaging/runtime.ts';
import { createSecretBox, resolveSecretKey } from './security/secrets.ts';
import { workerSettings } from './messaging/engine-settings.ts';
import { startJobRunner } from './messaging/jobs.ts';
import { OutboundPolicy } from './security/outbound-guard.ts';
import { paymentGateway } from './composition.ts';
import { defaultFileStorage } from './storage/file-storage.ts';
import { companySendWindow } from './messaging/send-window.ts';

/** One line per event; errors by message only (a stack or a driver error object could carry settings). */
function log(message: string, detail?: unknown) {
  const suffix = detail === undefined ? '' : `: ${detail instanceof Error ? detail.message : typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
  console.log(`${new Date().toISOString()} worker ${message}${suffix}`);
}

/** Where the worker connects, without the credentials. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

let handle: DatabaseHandle | null = null;
let runtime: MessagingRuntime | null = null;
let stopping: string | null = null;
let stopJobs: (() => Promise<void>) | null = null;

async function stop(signal: string) {
  if (stopping) {
    log(`${signal} again: exiting without waiting`);
    process.exit(1);
  }
  stopping = signal;
  if (!runtime) return; // still starting: main() honours it once the runtime is up
  log(`${signal}: finishing the batches in flight`);
  try {
    await stopJobs?.();
    await runtime.close();
    await handle?.close();
    log('stopped');
    process.exit(0);
  } catch (error) {
    log('could not stop cleanly', error);
    process.exit(1);
  }
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

async function main() {
  const env = process.env;
  if (!env.DATABASE_URL) {
    throw new Error('DATABASE_URL is required: workers share one PostgreSQL (PGlite cannot be shared between processes; `npm start` alone runs the engine on it)');
  }
  const secrets = createSecretBox(resolveSecretKey(env));
  const settings = workerSettings(env);
  handle = createDatabase({ kind: 'postgres', url: env.DATABASE_URL, applicationName: 'colibri-worker', ...(env.DATABASE_SCHEMA ? { schema: env.DATABASE_SCHEMA } : {}) });
  // Fail early and clearly when the server has not migrated this database yet.
  await handle.db.selectFrom('engine_workers').select('id').limit(1).execute().catch((error: Error) => {
    throw new Error(`the messaging tables are not there (start the server once to migrate): ${error.message}`);
  });
  runtime = await startMessaging({ db: handle.db, secrets, sandbox: false, dispatcher: settings, log });
  // The engine's jobs (big launches, chunk by chunk), shared with the other processes.
  const dispatcher = runtime.dispatcher;
  const jobs = startJobRunner({ db: handle.db, now: () => new Date(), messaging: { sendWindow: companySendWindow(handle.db), wake: () => dispatcher.wake() }, storage: defaultFileStorage(), outbound: new OutboundPolicy({ sandbox: false }),
    // Payment follow-ups ask the real ePayco when its keys are set (a worker has no sandbox stand-in).
    payments: paymentGateway(false) }, { log });
  stopJobs = () => jobs.stop();
  log(`${runtime.dispatcher.workerId} running on ${describeUrl(env.DATABASE_URL)}${env.DATABASE_SCHEMA ? ` (schema ${env.DATABASE_SCHEMA})` : ''}`);
  if (stopping) {
    const signal = stopping;
    stopping = null;
    await stop(signal);
  }
}

main().catch(async (error) => {
  log('could not start', error);
  await handle?.close().catch(() => {});
  process.exit(1);
});
