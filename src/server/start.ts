// Start a server on a port from code: `npm start` (main.ts), the benchmark and end-to-end tests.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { buildServer } from './app.ts';
import type { TrustProxy } from './http/trust-proxy.ts';
import { DEFAULT_CONNECTIONS, guardConnections, type ConnectionSettings } from './http/connection-guard.ts';
import { createDatabase, type DatabaseOptions } from './db/database.ts';
import { ensureDemoApiKey } from './db/demo-api-key.ts';
import { seedDemo } from './db/demo-seed.ts';
import { prepareDatabase } from './db/prepare.ts';
import type { Database } from '../engine/database.ts';
import { startMessaging, type MessagingOptions, type MessagingRuntime } from './messaging/runtime.ts';
import { defaultSecretBox } from './security/secrets.ts';
import { startDemoFtpBox } from './composition.ts';
import { OutboundPolicy } from './security/outbound-guard.ts';
import type { ThrottleSettings } from './security/throttle-settings.ts';

export interface StartOptions {
  port?: number; // 0 (default) picks a free port
  host?: string;
  database?: DatabaseOptions; // default: PGlite in memory
  sandbox?: boolean; // default true
  /** SANDBOX_OUTBOX_OPEN (main.ts): the sandbox outbox open to this machine without a session; default off. */
  sandboxOutboxOpen?: boolean;
  /** SANDBOX_PRIVATE_TARGETS (main.ts): host:port pairs on this machine or a private network a company's callback, flow integration or FTP folder may reach in the sandbox (a local test receiver). */
  sandboxPrivateTargets?: readonly string[];
  /** Seed the demo company with this password (first start only). */
  demoPassword?: string;
  /** DEMO_API_KEY: with demoPassword, this key becomes an API credential of the demo company. */
  demoApiKey?: string;
  consoleRoot?: string | null;
  logger?: FastifyServerOptions['logger'];
  /** The messaging engine (dispatcher, adapters, sandbox SMSC in sandbox mode); default on. */
  messaging?: boolean | Omit<MessagingOptions, 'db' | 'secrets' | 'sandbox'>;
  /** Abuse throttling (main.ts: from the environment); default: the default limits, in memory. */
  throttle?: ThrottleSettings;
  /** TRUST_PROXY (main.ts: from the environment); default: no proxy trusted. */
  trustProxy?: TrustProxy;
  /** SCHEDULER_ROUND_MS (main.ts): how often due recurring campaigns, scheduled reports and FTP folders are looked for. */
  roundMs?: number;
  /** Sandbox with the demo company: the folder its FTP drop box serves (main.ts: DATA_DIR/ftp). */
  sandboxFtpHome?: string;
  /** Connections per client address and request deadlines (main.ts: MAX_CONNECTIONS_PER_IP…, http/connection-guard.ts). */
  connections?: ConnectionSettings;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  db: Kysely<Database>;
  /** True when this start created the demo company. */
  demoCreated: boolean;
  /** The demo API key's credential id (never its secret), when one was given. */
  demoApiKey: { id: string; revoked: boolean } | null;
  messaging: MessagingRuntime | null;
  /** The demo's FTP drop box (its folder), when the demo company's settings point at it. */
  sandboxFtp: { home: string } | null;
  close(): Promise<void>;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const handle = createDatabase(options.database ?? { kind: 'memory' });
  try {
    await prepareDatabase(handle);
    const demoCreated = options.demoPassword ? (await seedDemo(handle.db, options.demoPassword)).created : false;
    const demoApiKey = options.demoPassword && options.demoApiKey ? await ensureDemoApiKey(handle.db, options.demoApiKey) : null;
    const sandbox = options.sandbox ?? true;
    const secrets = defaultSecretBox();
    // Where connections made on a company's behalf may go: public addresses; in the sandbox also the
    // targets named and its FTP drop box below; never this server's own port (outbound-guard.ts).
    const outbound = new OutboundPolicy({ sandbox, targets: sandbox ? options.sandboxPrivateTargets : [] });
    if (options.port) outbound.ownPort(options.port);
    const messaging = options.messaging === false ? null : await startMessaging({
      db: handle.db, secrets, sandbox, outbound, ...(typeof options.messaging === 'object' ? options.messaging : {}),
    });
    const app = await buildServer({ db: handle.db, sandbox, sandboxOutboxOpen: options.sandboxOutboxOpen, outbound, consoleRoot: options.consoleRoot, logger: options.logger, secrets, messaging: messaging?.hooks, receiptSink: messaging?.sink, throttle: options.throttle, trustProxy: options.trustProxy, roundMs: options.roundMs });
    const host = options.host ?? '127.0.0.1';
    guardConnections(app.server, options.connections ?? DEFAULT_CONNECTIONS, options.trustProxy ?? false);
    await app.listen({ port: options.port ?? 0, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    if (port) outbound.ownPort(port);
    const url = `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
    // The sandbox stand-ins post their signed webhooks to our real routes.
    await messaging?.setPublicUrl(`http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`);
    const ftp = sandbox && options.demoPassword && options.sandboxFtpHome ? await startDemoFtpBox(handle.db, secrets, options.sandboxFtpHome) : null;
    // The demo's FTP drop box is the one stand-in the demo company's settings point at.
    if (ftp) outbound.allow({ host: '127.0.0.1', port: ftp.server.port });
    let closing: Promise<void> | null = null;
    const close = () => (closing ??= app.close().then(() => ftp?.server.close()).then(() => messaging?.close()).then(() => handle.close()));
    return { url, app, db: handle.db, demoCreated, demoApiKey, messaging, sandboxFtp: ftp?.pointed ? { home: options.sandboxFtpHome! } : null, close };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}
