// The lives of a dispatch worker in the crash test (engine-crash.test.ts), and how each one dies.
//   - workerProcess: `src/server/worker.ts` as a child process on PostgreSQL, killed with SIGKILL.
//   - inProcessWorker: the same runtime (startMessaging, sandbox off) inside the test process, for
//     PGlite, which one process owns. Its death is made as abrupt as a SIGKILL: in one synchronous
//     step its database handle refuses every further statement (a transaction it had open rolls
//     back) and its TCP connections to the SMSC are cut (through a proxy of its own), so nothing it
//     buffered (claimed rows, statuses not yet stored, submits without an answer) gets written.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { Kysely, KyselyPlugin } from 'kysely';
import { startMessaging, type MessagingRuntime } from '../../src/server/messaging/runtime.ts';
import type { Database } from '../../src/engine/database.ts';
import type { SecretBox } from '../../src/server/security/secrets.ts';
import { sealCredentials } from '../../src/server/modules/channels/credentials.ts';
import { NODE_FLAGS } from '../node-flags.ts';

export interface Incarnation {
  readonly name: string;
  /** Dies at once (SIGKILL or its in-process equivalent); resolves when it is gone. */
  kill(): Promise<void>;
  /** Stops cleanly (SIGTERM): answers whether it exited as a clean stop should. */
  stop(): Promise<boolean>;
  /** Releases what a dead in-process worker still holds (timers, sockets); no-op for a process. */
  dispose(): Promise<void>;
  /** What it printed (the test checks that no secret appears). */
  output(): string;
}

export interface EngineSettings {
  workerId: string;
  leaseMs: number;
  inDoubtGraceMs: number;
  idleMs: number;
}

/** A worker process on PostgreSQL (`node --import tsx`, so the signal reaches the worker itself, not a tsx wrapper). */
export function workerProcess(env: Record<string, string>, settings: EngineSettings): Incarnation {
  let out = '';
  const child: ChildProcess = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'src/server/worker.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      WORKER_ID: settings.workerId,
      ENGINE_LEASE_MS: String(settings.leaseMs),
      ENGINE_IN_DOUBT_GRACE_MS: String(settings.inDoubtGraceMs),
      ENGINE_IDLE_MS: String(settings.idleMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    name: settings.workerId,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      const { code } = await exited;
      return code === 0;
    },
    async dispose() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    },
    output: () => out,
  };
}

/** A TCP relay to the SMSC that can be cut at once and then refuses every connection. */
async function startRelay(host: string, port: number): Promise<{ port: number; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let dead = false;
  const server: Server = createServer((client) => {
    if (dead) return void client.destroy();
    const upstream = connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cut() {
      dead = true;
      for (const s of sockets) s.destroy();
    },
    // The server stays open (refusing) until the end so no later relay gets its port.
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A handle on the shared database that fails every statement once `dead` is set. */
function killable(db: Kysely<Database>): { db: Kysely<Database>; kill(): void } {
  let dead = false;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (dead) throw new Error('this worker is dead');
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), kill: () => void (dead = true) };
}

/** The channel's SMPP settings as a worker reads them; short timeouts so a restart binds fast. */
export function crashSmppConnection(smsc: { host: string }, port: number, systemId: string, window: number) {
  return { host: smsc.host, port, systemId, tps: null, window, responseTimeoutMs: 5_000, connectWaitMs: 2_000, reconnectInitialMs: 100, reconnectMaxMs: 1_000 };
}

/** An enabled SMS channel of the company bound to the SMSC account, its password sealed as the server seals it. */
export async function insertSmppChannel(db: Kysely<Database>, secrets: SecretBox, channel: { companyId: number; name: string; sender: string; password: string; connection: object }): Promise<number> {
  const now = new Date();
  const row = await db.insertInto('channels').values({
    company_id: channel.companyId, name: channel.name, platform: 'sms', type: 'MT', sender: channel.sender, tags: '[]', keywords: '[]', priority: 1,
    enabled: true, created_at: now, updated_at: now,
    credentials: JSON.stringify(sealCredentials(secrets, channel.companyId, { authorizationToken: channel.password })),
    connection: JSON.stringify(channel.connection),
  } as never).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export interface InProcessOptions {
  db: Kysely<Database>;
  secrets: SecretBox;
  smsc: { host: string; port: number };
  /** Points the channel's connection at this life's relay (the runtime reads it when it builds the adapter). */
  useRelay(port: number): Promise<void>;
  channelId: number;
}

/** The worker's runtime inside the test process (PGlite), dying like a killed process. */
export async function inProcessWorker(options: InProcessOptions, settings: EngineSettings): Promise<Incarnation> {
  const relay = await startRelay(options.smsc.host, options.smsc.port);
  await options.useRelay(relay.port);
  const handle = killable(options.db);
  let out = '';
  const log = (message: string, detail?: unknown) => (out += `${message}${detail instanceof Error ? `: ${detail.message}` : ''}\n`);
  const runtime: MessagingRuntime = await startMessaging({
    db: handle.db, secrets: options.secrets, sandbox: false, log,
    dispatcher: { workerId: settings.workerId, leaseMs: settings.leaseMs, inDoubtGraceMs: settings.inDoubtGraceMs, idleMs: settings.idleMs },
  });
  let disposed = false;
  return {
    name: settings.workerId,
    async kill() {
      // One synchronous step: no statement and no byte leaves after this.
      handle.kill();
      relay.cut();
    },
    async stop() {
      await runtime.close();
      await relay.close();
      disposed = true;
      return true;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      // The dead runtime's loops end (their statements fail), its adapter stops reconnecting.
      // The adapter first: closing, it answers its pending sends at once, so the dead loops end.
      await runtime.forget(options.channelId).catch(() => undefined);
      await runtime.dispatcher.stop().catch(() => undefined);
      await runtime.callbacks?.stop().catch(() => undefined);
      await runtime.sink.close().catch(() => undefined);
      await relay.close();
    },
    output: () => out,
  };
}
