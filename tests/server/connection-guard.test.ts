// What one client may hold of the server's sockets (src/server/http/connection-guard.ts), on the
// real listening server: a request body sent too slowly is cut at the request deadline, and a peer
// past its connections cap is answered 429 (99933) and closed, while the server answers again once
// its connections close. Every test client is 127.0.0.1, so the server here has a small cap and a
// short deadline.
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionSettings, guardConnections } from '../../src/server/http/connection-guard.ts';
import { startServer, type RunningServer } from '../../src/server/start.ts';
import { testDatabase } from './harness.ts';
import { until } from './until.ts';

const CAP = 3;
let server: RunningServer;
let drop: () => Promise<void>;
let port: number;

beforeAll(async () => {
  const db = await testDatabase();
  drop = db.drop;
  server = await startServer({
    port: 0, database: db.options, messaging: false, consoleRoot: null,
    connections: { maxPerAddress: CAP, requestTimeoutMs: 300, headersTimeoutMs: 5000, keepAliveTimeoutMs: 5000 },
  });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close();
  await drop?.();
});

/** A raw connection to the server, with what it has received so far. */
async function open(to = port): Promise<{ socket: Socket; received: () => string; closed: Promise<unknown> }> {
  const socket = connect(to, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => { text += chunk.toString('latin1'); });
  socket.on('error', () => {});
  const closed = once(socket, 'close');
  await once(socket, 'connect');
  return { socket, received: () => text, closed };
}

/** GET /health on a connection of its own (no pooled keep-alive socket that would count against the cap). */
function health(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.on('error', reject);
    req.end();
  });
}

describe('connections', () => {
  it('a request body still arriving at the deadline is cut: 408 and the connection closed', async () => {
    const c = await open();
    // Declares 1,000 bytes and sends 10; a slow client would send the rest a byte at a time.
    c.socket.write('POST /v1/clientAuth/signin HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"');
    await c.closed;
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
    expect(await health()).toBe(200);
  });

  it(`the connection past ${CAP} from one address is answered 429 (99933) and closed; once they close the server answers again`, async () => {
    const held: Awaited<ReturnType<typeof open>>[] = [];
    for (let i = 0; i < CAP; i++) held.push(await open());
    const extra = await open();
    await extra.closed;
    expect(extra.received()).toMatch(/^HTTP\/1\.1 429/);
    expect(extra.received()).toContain('"code":"99933"');
    // The held connections are untouched: one of them still gets its answer.
    held[0].socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await until('the held connection answered', () => /^HTTP\/1\.1 200/.test(held[0].received()));
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    // The server counts a connection gone when its side sees the close.
    await until('the server saw the connections close', () => new Promise<boolean>((resolve) => server.app.server.getConnections((_e, n) => resolve(n === 0))));
    expect(await health()).toBe(200);
  });
});

describe('behind a reverse proxy', () => {
  it('a peer named in TRUST_PROXY speaks for many clients: its connections are not capped', async () => {
    const plain = createServer((_req, res) => res.end('ok'));
    guardConnections(plain, { maxPerAddress: 1, requestTimeoutMs: 5000, headersTimeoutMs: 5000, keepAliveTimeoutMs: 5000 }, ['127.0.0.1']);
    plain.listen(0, '127.0.0.1');
    await once(plain, 'listening');
    const to = (plain.address() as { port: number }).port;
    try {
      const first = await open(to);
      const second = await open(to);
      second.socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await until('the second connection answered', () => /^HTTP\/1\.1 200/.test(second.received()));
      first.socket.destroy();
      second.socket.destroy();
    } finally {
      plain.closeAllConnections();
      plain.close();
    }
  });
});

describe('settings', () => {
  it('are read from the environment, with defaults, and refuse nonsense', () => {
    expect(connectionSettings({})).toEqual({ maxPerAddress: 64, requestTimeoutMs: 300_000, headersTimeoutMs: 20_000, keepAliveTimeoutMs: 5_000 });
    expect(connectionSettings({ MAX_CONNECTIONS_PER_IP: '0', REQUEST_TIMEOUT_MS: '60000' })).toMatchObject({ maxPerAddress: 0, requestTimeoutMs: 60_000 });
    expect(() => connectionSettings({ MAX_CONNECTIONS_PER_IP: 'muchas' })).toThrow(/MAX_CONNECTIONS_PER_IP/);
  });
});
