// Start a server on a port from code: `npm start` (main.ts), the benchmark and end-to-end tests.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { buildServer } from './app.ts';
import { createDatabase, type DatabaseOptions } from './db/database.ts';
import { seedDemo } from './db/demo-seed.ts';
import { prepareDatabase } from './db/prepare.ts';
import type { Database } from './db/schema.ts';

export interface StartOptions {
  port?: number; // 0 (default) picks a free port
  host?: string;
  database?: DatabaseOptions; // default: PGlite in memory
  sandbox?: boolean; // default true
  /** Seed the demo company with this password (first start only). */
  demoPassword?: string;
  consoleRoot?: string | null;
  logger?: FastifyServerOptions['logger'];
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  db: Kysely<Database>;
  /** True when this start created the demo company. */
  demoCreated: boolean;
  close(): Promise<void>;
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const handle = createDatabase(options.database ?? { kind: 'memory' });
  try {
    await prepareDatabase(handle);
    const demoCreated = options.demoPassword ? (await seedDemo(handle.db, options.demoPassword)).created : false;
    const app = await buildServer({ db: handle.db, sandbox: options.sandbox ?? true, consoleRoot: options.consoleRoot, logger: options.logger });
    const host = options.host ?? '127.0.0.1';
    await app.listen({ port: options.port ?? 0, host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    const url = `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
    let closing: Promise<void> | null = null;
    const close = () => (closing ??= app.close().then(() => handle.close()));
    return { url, app, db: handle.db, demoCreated, close };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}
