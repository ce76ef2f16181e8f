// `npm run smsc`: the sandbox SMSC as a process of its own, for several Colibri processes (API
// servers and `npm run worker`) that bind to one SMSC, as they would to an operator's. It counts
// what it received, so a run can check that every message reached it exactly once.
//
//   SMSC_HOST (127.0.0.1), SMSC_PORT (2775; 0 picks a free port), SMSC_ACCOUNTS (system_id:password
//   pairs separated by commas; default colibri:colibri), SMSC_SEED (1: the receipt outcome mix),
//   SMSC_HTTP_PORT (2776; 0 picks a free port): the counting endpoint, on SMSC_HOST:
//     GET /counters                 the SMSC's counters, how many destinations it saw, how many of them
//                                   more than once, and the receipts waiting per system_id
//     GET /wait?messages=N&timeoutMs=T  answers the counters once N messages were accepted (504 after T)
//     GET /messages                 one line per destination: `destination message_id[ message_id…]`
// The first line on stdout is JSON { smpp: {host, port}, http: {host, port} } once both listen.
// SIGTERM or SIGINT stops it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandboxSmsc, type SandboxSmsc } from './server.ts';

/** `a:b,c:d` → { a: 'b', c: 'd' } (a password may hold ':' after the first one). */
function parseAccounts(text: string | undefined): Record<string, string> {
  if (!text) return { colibri: 'colibri' };
  const accounts: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf(':');
    if (at <= 0) throw new Error('SMSC_ACCOUNTS must be system_id:password pairs separated by commas');
    accounts[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return accounts;
}

function portFrom(text: string | undefined, fallback: number, name: string): number {
  const port = text === undefined || text === '' ? fallback : Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number`);
  return port;
}

/** What the counting endpoint answers about the SMSC's state. */
function countersOf(smsc: SandboxSmsc, accounts: Record<string, string>) {
  let repeated = 0;
  for (const list of smsc.destinations().values()) if (list.length > 1) repeated++;
  const pending = Object.fromEntries(Object.keys(accounts).map((id) => [id, smsc.pendingFor(id)]));
  return { ...smsc.counters, destinations: smsc.destinations().size, repeatedDestinations: repeated, pending };
}

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function main() {
  const env = process.env;
  const host = env.SMSC_HOST || '127.0.0.1';
  const accounts = parseAccounts(env.SMSC_ACCOUNTS);
  const smsc = await startSandboxSmsc({
    host, port: portFrom(env.SMSC_PORT, 2775, 'SMSC_PORT'), accounts, seed: env.SMSC_SEED ? Number(env.SMSC_SEED) : 1,
  });
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://smsc');
    if (req.method !== 'GET') return answer(res, 405, { error: 'GET only' });
    if (url.pathname === '/counters') return answer(res, 200, countersOf(smsc, accounts));
    if (url.pathname === '/wait') {
      const target = Number(url.searchParams.get('messages'));
      const timeoutMs = Number(url.searchParams.get('timeoutMs') ?? 60_000);
      if (!Number.isInteger(target) || !Number.isFinite(timeoutMs)) return answer(res, 400, { error: 'messages and timeoutMs are numbers' });
      smsc.until(() => smsc.counters.messages >= target, `${target} messages`, timeoutMs).then(
        () => answer(res, 200, countersOf(smsc, accounts)),
        (error: Error) => answer(res, 504, { error: error.message }),
      );
      return;
    }
    if (url.pathname === '/messages') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let chunk = '';
      for (const [destination, list] of smsc.destinations()) {
        chunk += `${destination} ${list.map((m) => m.parts.map((p) => p.messageId).join('+')).join(' ')}\n`;
        if (chunk.length > 64_000) {
          res.write(chunk);
          chunk = '';
        }
      }
      return void res.end(chunk);
    }
    answer(res, 404, { error: 'GET /counters, /wait?messages=N or /messages' });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(portFrom(env.SMSC_HTTP_PORT, 2776, 'SMSC_HTTP_PORT'), host, resolve);
  });
  const httpPort = (http.address() as AddressInfo).port;
  console.log(JSON.stringify({ smpp: { host, port: smsc.port }, http: { host, port: httpPort } }));
  const stop = () => {
    http.close();
    http.closeAllConnections();
    void smsc.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  console.error('The sandbox SMSC could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
