// `npm start`: console and API on one port.
//   PORT (8080), HOST (127.0.0.1 in demo mode, so the sandbox is reachable from this machine only;
//   0.0.0.0 as a server with DATABASE_URL; HOST=0.0.0.0 listens on every interface), DATA_DIR (./.data, embedded PGlite), DATABASE_URL (PostgreSQL),
//   DEMO_PASSWORD, DEMO_API_KEY (an API key ck_<id>.<secret> for the demo company), LOG_LEVEL
//   (info), CONSOLE_DIR (dist/console, the console's build), SANDBOX_TEMPLATE_REVIEW_MS (3000: how
//   long the sandbox's Meta takes to review a WhatsApp template), SCHEDULER_ROUND_MS (30000: how often due
//   recurring campaigns, scheduled reports and FTP folders are looked for);
//   ENGINE_IN_SERVER (on; off when `npm run worker` processes send: docs/operations-and-scaling.md, "Several processes on one
//   PostgreSQL"), DATABASE_SCHEMA (the schema that holds the tables, as the worker reads it);
//   SANDBOX_OUTBOX_OPEN (false: the sandbox outbox needs a platform or develop session; true: a client
//   of this machine reads it without one, as behind no proxy), SANDBOX_PRIVATE_TARGETS (host:port
//   list: local receivers a company's callback, flow integration or FTP folder may reach in the sandbox);
//   flag --demo seeds the demo company on PostgreSQL too.
// Embedded mode (no DATABASE_URL) is the sandbox: demo company, sandbox outbox and captcha.
import { resolve } from 'node:path';
import { ensureConsoleBuilt } from './console-build.ts';
import { databaseFromEnv } from './db/database.ts';
import { demoEmail, demoRoleUsers, generateDemoPassword } from './db/demo-seed.ts';
import { IN_DOUBT_GRACE_MS } from '../engine/dispatcher.ts';
import { engineSettings, serverRunsEngine } from './messaging/engine-settings.ts';
import { throttleSettings } from './security/throttle-settings.ts';
import { trustProxySetting } from './http/trust-proxy.ts';
import { connectionSettings } from './http/connection-guard.ts';
import { startServer, type RunningServer } from './start.ts';

let server: RunningServer | null = null;
let stopSignal: string | null = null;

// Installed before anything starts, so a signal at any moment ends the process cleanly: during
// start-up it is remembered and honoured as soon as the database is safely open.
async function stop(signal: string) {
  if (stopSignal) return;
  stopSignal = signal;
  if (!server) return;
  console.log(`\n${signal}: closing…`);
  try {
    await server.close();
    process.exit(0);
  } catch (error) {
    console.error(error);
    process.exit(1);
  }
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

async function main() {
  const env = process.env;
  const demo = !env.DATABASE_URL || process.argv.includes('--demo');
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const consoleRoot = resolve(env.CONSOLE_DIR || 'dist/console');
  const consoleReady = await ensureConsoleBuilt(consoleRoot);
  if (!consoleReady) console.warn('The console build is missing and could not be built: serving the API only.');

  const password = env.DEMO_PASSWORD || generateDemoPassword();
  const reviewMs = env.SANDBOX_TEMPLATE_REVIEW_MS ? Number(env.SANDBOX_TEMPLATE_REVIEW_MS) : undefined;
  if (reviewMs !== undefined && !(Number.isInteger(reviewMs) && reviewMs >= 0)) throw new Error(`SANDBOX_TEMPLATE_REVIEW_MS must be a whole number of milliseconds, got ${env.SANDBOX_TEMPLATE_REVIEW_MS}`);
  const roundMs = env.SCHEDULER_ROUND_MS ? Number(env.SCHEDULER_ROUND_MS) : undefined;
  if (roundMs !== undefined && !(Number.isInteger(roundMs) && roundMs >= 100)) throw new Error(`SCHEDULER_ROUND_MS must be a whole number of milliseconds (100 or more), got ${env.SCHEDULER_ROUND_MS}`);
  const outboxOpen = (env.SANDBOX_OUTBOX_OPEN ?? '').trim().toLowerCase();
  if (!['', 'true', 'false'].includes(outboxOpen)) throw new Error(`SANDBOX_OUTBOX_OPEN must be true or false, got ${env.SANDBOX_OUTBOX_OPEN}`);
  const engine = engineSettings(env);
  const dispatch = serverRunsEngine(env);
  // Abuse throttling (THROTTLE_*, REDIS_URL; counters shared through the database with DATABASE_URL).
  const throttle = throttleSettings(env);
  // Behind a reverse proxy: whose X-Forwarded-For names the client (TRUST_PROXY, http/trust-proxy.ts).
  const trustProxy = trustProxySetting(env);
  server = await startServer({
    port,
    // Demo mode holds a sandbox (outbox with one-time codes, test providers): loopback unless asked.
    host: env.HOST || (demo ? '127.0.0.1' : '0.0.0.0'),
    database: databaseFromEnv(env),
    sandbox: demo,
    sandboxOutboxOpen: demo && outboxOpen === 'true',
    sandboxPrivateTargets: (env.SANDBOX_PRIVATE_TARGETS ?? '').split(',').map((t) => t.trim()).filter(Boolean),
    demoPassword: demo ? password : undefined,
    demoApiKey: demo ? env.DEMO_API_KEY || undefined : undefined,
    consoleRoot: consoleReady ? consoleRoot : null,
    logger: { level: env.LOG_LEVEL || 'info' },
    // The dispatcher's settings (ENGINE_IN_DOUBT_GRACE_MS…), read as `npm run worker` reads them.
    throttle,
    trustProxy,
    // Connections per client address and request deadlines (MAX_CONNECTIONS_PER_IP, REQUEST_TIMEOUT_MS…).
    connections: connectionSettings(env),
    // The demo's FTP drop box: files dropped here are sent by the FTP intake (docs/reports-and-rollups.md, "The FTP intake").
    sandboxFtpHome: resolve(env.DATA_DIR || './.data', 'ftp'),
    roundMs,
    messaging: { dispatcher: engine, dispatch, ...(reviewMs !== undefined ? { graph: { templateReviewMs: reviewMs } } : {}) },
  });
  if (stopSignal) {
    const signal = stopSignal;
    stopSignal = null;
    return stop(signal);
  }

  const where = env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${resolve(env.DATA_DIR || './.data')}`;
  console.log(`\nColibri is running at ${server.url}  (database: ${where})`);
  if (!dispatch) console.log('Engine: off in this server (ENGINE_IN_SERVER=off); `npm run worker` processes send the messages.');
  else console.log(`Engine: a message left in doubt by a crash goes again after ${(engine.inDoubtGraceMs ?? IN_DOUBT_GRACE_MS) / 1000} s without a receipt (ENGINE_IN_DOUBT_GRACE_MS).`);
  if (demo) {
    console.log(`Demo company "Demo S.A.S.": sign in as ${demoRoleUsers.map(demoEmail).join(', ')}`);
    if (server.demoCreated && !env.DEMO_PASSWORD) console.log(`Demo password (shown once, on this first start): ${password}`);
    else if (env.DEMO_PASSWORD && server.demoCreated) console.log('Demo password: the value of DEMO_PASSWORD');
    else console.log('Demo password: the one printed on the first start (or DEMO_PASSWORD then).');
    if (server.sandboxFtp) console.log(`FTP drop box (sandbox): a file named <campaign id>_<anything>.csv (or .xlsx) put in ${server.sandboxFtp.home} is sent as that campaign within a minute; the report is under Settings › API permissions › Files by FTP.`);
    // The key id is public (the credentials list shows it); the key itself is never printed.
    if (server.demoApiKey?.revoked) console.log(`DEMO_API_KEY: credential ${server.demoApiKey.id} was revoked in the console and stays revoked.`);
    else if (server.demoApiKey) console.log(`DEMO_API_KEY is active: credential ${server.demoApiKey.id} of Demo S.A.S. (Authorization: Bearer $DEMO_API_KEY on POST /v1/messages; authorised IPs in the API settings, loopback by default).`);
  }
}

main().catch((error) => {
  console.error('Colibri could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
