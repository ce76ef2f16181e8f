// What one client may hold of the server's sockets, the one owner of these settings (read by
// `npm start`, main.ts). Without them a client that opens thousands of connections, or sends a
// request body a byte at a time, holds file descriptors for ever and shuts /health and sign-in out
// for everyone else.
//   MAX_CONNECTIONS_PER_IP  open connections one peer address may hold (64; 0 turns the cap off).
//                           The next one is answered 429 (99933) and closed before it is read.
//   REQUEST_TIMEOUT_MS      a request, headers and body, must have arrived within this (300000);
//                           past it the answer is 408 and the connection is closed. Handling time
//                           after the body is in is not counted (uploads' own limits bound it).
//   HEADERS_TIMEOUT_MS      a request's headers must have arrived within this (20000).
//   KEEP_ALIVE_TIMEOUT_MS   an idle kept-alive connection is closed after this (5000).
// Behind a reverse proxy every client arrives from the proxy's address: a peer named in
// TRUST_PROXY (http/trust-proxy.ts) is not capped, nor is any peer when TRUST_PROXY is a hop count;
// the proxy then limits connections per client (limit_conn) and slow bodies itself.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ipAllowed } from '../../core/cidr.ts';
import { messageFor } from '../errors/api-error.ts';
import type { TrustProxy } from './trust-proxy.ts';

export interface ConnectionSettings {
  maxPerAddress: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export const DEFAULT_CONNECTIONS: ConnectionSettings = {
  maxPerAddress: 64,
  // A 20 MB recipients file at 1 Mbit/s takes under three minutes.
  requestTimeoutMs: 300_000,
  headersTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
};

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number (${min} or more), got ${text}`);
  return value;
}

export function connectionSettings(env: NodeJS.ProcessEnv): ConnectionSettings {
  return {
    maxPerAddress: whole(env, 'MAX_CONNECTIONS_PER_IP', DEFAULT_CONNECTIONS.maxPerAddress, 0),
    requestTimeoutMs: whole(env, 'REQUEST_TIMEOUT_MS', DEFAULT_CONNECTIONS.requestTimeoutMs, 1000),
    headersTimeoutMs: whole(env, 'HEADERS_TIMEOUT_MS', DEFAULT_CONNECTIONS.headersTimeoutMs, 1000),
    keepAliveTimeoutMs: whole(env, 'KEEP_ALIVE_TIMEOUT_MS', DEFAULT_CONNECTIONS.keepAliveTimeoutMs, 1000),
  };
}

/** Whether the peer's connections are capped: not a proxy trusted to speak for many clients. */
function cappedPeer(trustProxy: TrustProxy): (address: string) => boolean {
  if (typeof trustProxy === 'number') return () => false;
  if (Array.isArray(trustProxy) && trustProxy.length) return (address) => !ipAllowed(trustProxy, address.replace(/^::ffff:/, ''));
  return () => true;
}

const refusal = (() => {
  const body = JSON.stringify({ code: '99933', message: messageFor('99933') });
  return `HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`;
})();

/** Applies the deadlines and the cap per peer address to the server that listens. */
export function guardConnections(server: Server, settings: ConnectionSettings, trustProxy: TrustProxy = false): void {
  // Node checks these every few seconds (connectionsCheckingInterval); the request deadline below
  // is exact. Fastify turns Node's request deadline off by default.
  server.headersTimeout = settings.headersTimeoutMs;
  server.requestTimeout = settings.requestTimeoutMs;
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;

  server.on('request', (request, response) => {
    // A request without a body (a GET, the short-link redirect) is whole once its headers are in:
    // no timer for it.
    const body = request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0';
    if (!body || request.complete) return;
    const timer = setTimeout(() => {
      if (request.complete) return;
      if (!response.headersSent) response.writeHead(408, { connection: 'close', 'content-length': 0 }).end();
      // A client that sends no more would never read the answer: the socket goes now.
      request.socket.destroy();
    }, settings.requestTimeoutMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    request.once('end', clear);
    request.socket.once('close', clear);
  });

  if (settings.maxPerAddress <= 0) return;
  const capped = cappedPeer(trustProxy);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || !capped(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > settings.maxPerAddress) {
      // Closed once the answer is written, whether or not the peer reads it, and before a request
      // of its could be handled.
      socket.write(refusal, () => socket.destroy());
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
