// A fleet of Colibri processes on one PostgreSQL schema: API servers
// (`src/server/main.ts` with ENGINE_IN_SERVER=off), dispatch workers (`src/server/worker.ts`, see
// engine-crash-incarnations.ts) and the sandbox SMSC as a process of its own
// (`src/sandbox/smsc/main.ts`), which counts what it received. Shared by
// tests/server/processes.pg.test.ts and the benchmark tests/bench/processes.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NODE_FLAGS } from '../node-flags.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface Child {
  /** What it printed. */
  output(): string;
  /** SIGKILL; resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM; resolves with its exit code. */
  stop(): Promise<number | null>;
  /** Still running (it neither exited nor was killed). */
  alive(): boolean;
}

/** `node --import tsx <entry>` (so a signal reaches the process itself), resolving once `ready` matches its output. */
function launch(entry: string, env: Record<string, string>, ready: RegExp, timeoutMs: number): Promise<Child & { match: RegExpExecArray }> {
  const child: ChildProcess = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', entry], {
    cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const handle: Child = {
    output: () => out,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  return new Promise((done, failed) => {
    const timer = setTimeout(() => failed(new Error(`${entry} did not start in ${timeoutMs} ms: ${out}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        done({ ...handle, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      failed(new Error(`${entry} exited with ${code}: ${out}`));
    });
  });
}

export interface SmscProcess extends Child {
  host: string;
  port: number;
  counters(): Promise<{ messages: number; destinations: number; repeatedDestinations: number; receiptsAcked: number; pending: Record<string, number> }>;
  /** Resolves once the SMSC accepted `messages` messages (it answers when that happens, no polling). */
  waitForMessages(messages: number, timeoutMs: number): Promise<void>;
  /** Destination → the SMSC message ids it received for it. */
  received(): Promise<Map<string, string[]>>;
}

/** The sandbox SMSC as its own process (`npm run smsc`), on free ports. */
export async function startSmscProcess(accounts: Record<string, string>, seed = 1): Promise<SmscProcess> {
  const child = await launch('src/sandbox/smsc/main.ts', {
    SMSC_PORT: '0', SMSC_HTTP_PORT: '0', SMSC_SEED: String(seed), SMSC_ACCOUNTS: Object.entries(accounts).map(([id, pw]) => `${id}:${pw}`).join(','),
  }, /^(\{.*\})\n/m, 60_000);
  const { smpp, http } = JSON.parse(child.match[1]) as { smpp: { host: string; port: number }; http: { host: string; port: number } };
  const base = `http://${http.host}:${http.port}`;
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    if (!res.ok) throw new Error(`SMSC ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  return {
    ...child,
    host: smpp.host,
    port: smpp.port,
    counters: async () => (await get('/counters')).json(),
    async waitForMessages(messages, timeoutMs) {
      await get(`/wait?messages=${messages}&timeoutMs=${timeoutMs}`);
    },
    async received() {
      const map = new Map<string, string[]>();
      for (const line of (await (await get('/messages')).text()).split('\n')) {
        if (!line) continue;
        const [destination, ...ids] = line.split(' ');
        map.set(destination, ids);
      }
      return map;
    },
  };
}

export interface ApiProcess extends Child {
  url: string;
}

let consoleDir: string | null = null;

/** `npm start` on PostgreSQL with the engine off (ENGINE_IN_SERVER=off): it serves, workers send. */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  // A console build stands in so the server does not build the real one.
  if (!consoleDir) {
    consoleDir = mkdtempSync(join(tmpdir(), 'colibri-fleet-console-'));
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Colibri</title>');
  }
  const child = await launch('src/server/main.ts', {
    PORT: '0', HOST: '127.0.0.1', CONSOLE_DIR: consoleDir, LOG_LEVEL: 'warn', ENGINE_IN_SERVER: 'off', ...env,
  }, /running at (http:\/\/\S+)[^\n]*\n(?:.*\n)*?Engine: [^\n]*\n/, 120_000);
  return { ...child, url: child.match[1] };
}

/**
 * Sends `recipients` through the public API in batches of 1,000 (POST /v1/messages), spread over
 * the API servers in turn, `parallel` requests at a time. Answers the ids the API gave.
 * Each batch carries an Idempotency-Key, and one that failed for the server's sake (a 5xx, the
 * connection cut) is sent again with it, to the next server, up to `attempts` times: as a
 * client should when the database dropped its connections under a request whose commit it
 * cannot know, the key makes the retry answer the first one's messages rather than send twice.
 * `retried` counts those retries.
 */
export async function sendThroughApis(apis: string[], apiKey: string, channelId: number, recipients: string[], text: string, parallel = 4, attempts = 5,
  retried: { count: number } = { count: 0 }): Promise<string[]> {
  const batches: string[][] = [];
  for (let i = 0; i < recipients.length; i += 1000) batches.push(recipients.slice(i, i + 1000));
  const ids: string[] = [];
  const run = randomBytes(6).toString('hex');
  let next = 0;
  async function post(n: number, attempt: number): Promise<{ id: string }[]> {
    const failure = (why: string) => new Error(`batch ${n}, attempt ${attempt}: ${why}`);
    let res: Response;
    try {
      res = await fetch(`${apis[(n + attempt - 1) % apis.length]}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'idempotency-key': `fleet-${run}-${n}` },
        body: JSON.stringify({ channelId, purpose: 'transactional', messages: batches[n].map((to) => ({ to, text })) }),
      });
    } catch (error) {
      if (attempt >= attempts) throw failure((error as Error).message);
      retried.count++;
      return post(n, attempt + 1);
    }
    const body = (await res.json().catch(() => ({}))) as { messages?: { id: string; status?: number }[] };
    if (res.status >= 500 && attempt < attempts) {
      retried.count++;
      return post(n, attempt + 1);
    }
    if (res.status !== 200 || !body.messages) throw failure(`${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body.messages;
  }
  async function lane() {
    while (next < batches.length) {
      const n = next++;
      for (const m of await post(n, 1)) ids.push(m.id);
    }
  }
  await Promise.all(Array.from({ length: parallel }, lane));
  return ids;
}
