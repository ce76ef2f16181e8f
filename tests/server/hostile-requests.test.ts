// Requests that used to reach a 500 or an error-level log line: a NUL in an uploaded file's name,
// a URL segment longer than any file or identifier, a sign-in with a NUL in its e-mail (the audit
// log looked it up), and a client that hangs up mid-body. Each is answered 4xx and logged below
// error level. On PGlite and (with DATABASE_URL) PostgreSQL.
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { folderStorage } from '../../src/server/storage/file-storage.ts';
import { createHarness, multipart, testThrottle, TEST_PASSWORD, type Harness } from './harness.ts';
import { until } from './until.ts';

let h: Harness;
let manager = '';
let campaignId = 0;
/** A second server on the harness's database, serving a console build and logging (pino, JSON lines) into `logs`. */
let logged: FastifyInstance;
const logs: { level: number; msg: string }[] = [];
const folders: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  manager = (await h.as('manager')).token;
  const sms = (await h.op('channels.list', { token: manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0];
  campaignId = (await h.op('campaigns.create', { token: manager, body: { name: 'Nombres raros', kind: 'open', purpose: 'transactional', channelId: sms.id, content: 'Hola' } })).json().id;
  const consoleRoot = mkdtempSync(join(tmpdir(), 'colibri-console-'));
  const files = mkdtempSync(join(tmpdir(), 'colibri-files-'));
  folders.push(consoleRoot, files);
  writeFileSync(join(consoleRoot, 'index.html'), '<!doctype html><title>Colibri</title>');
  const sink = new Writable({ write(line, _encoding, done) { logs.push(JSON.parse(String(line))); done(); } });
  logged = await buildServer({
    db: h.db, sandbox: true, consoleRoot, storage: folderStorage(files), logger: { level: 'info', stream: sink },
    throttle: testThrottle(process.env.DATABASE_URL ? 'postgres' : 'memory'),
  });
});
afterAll(async () => {
  await logged.close();
  await h.close();
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

/** The error-level lines logged since `from` (an index into logs). */
const errorsLogged = (from: number) => logs.slice(from).filter((l) => l.level >= 50);

describe('an uploaded file whose name cannot be stored', () => {
  it.each([['NUL', 'lista\u0000.csv'], ['tab', 'lista\t.csv'], ['bidirectional override', 'lista\u202Evsc.exe']])('%s: 400 99931 on file, nothing stored', async (_label, name) => {
    const body = multipart('file', name, 'text/csv', Buffer.from('telefono\n3001234567\n'));
    const res = await h.app.inject({ method: 'POST', url: `/v1/campaigns/${campaignId}/recipients`, headers: { ...body.headers, 'x-auth-token': manager }, payload: body.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '99931', errors: [{ field: 'file', code: '99931' }] });
    expect(await h.count('recipient_files')).toBe(0);
  });

  it('a plain name is taken', async () => {
    const body = multipart('file', 'lista.csv', 'text/csv', Buffer.from('telefono\n3001234567\n'));
    const res = await h.app.inject({ method: 'POST', url: `/v1/campaigns/${campaignId}/recipients`, headers: { ...body.headers, 'x-auth-token': manager }, payload: body.payload });
    expect(res.statusCode).toBe(200);
  });
});

describe('a URL segment longer than any name', () => {
  const long = (n: number) => 'a'.repeat(n);
  it.each([
    ['a console path', `/${long(256)}`],
    ['a console path of multibyte letters', `/${encodeURIComponent('ñ'.repeat(128))}`],
    ['a console asset', `/assets/${long(300)}.js`],
    ['an API path parameter', `/v1/reports/certificate/verify/${long(5000)}`],
  ])('%s: 404 99936 with the console served and without, never a 500', async (_label, url) => {
    const from = logs.length;
    for (const app of [logged, h.app]) {
      const res = await app.inject({ method: 'GET', url });
      expect([url.slice(0, 40), res.statusCode, res.json().code]).toEqual([url.slice(0, 40), 404, '99936']);
    }
    expect(errorsLogged(from)).toEqual([]);
  });

  it('a console route of ordinary length still gets the console', async () => {
    const res = await logged.inject({ method: 'GET', url: '/Campaigns/history' });
    expect([res.statusCode, res.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
  });

  it('broken percent-encoding in a path answers 400 99931', async () => {
    const res = await logged.inject({ method: 'GET', url: '/v1/reports/certificate/verify/%E0%A4%A' });
    expect([res.statusCode, res.json().code]).toEqual([400, '99931']);
  });
});

describe('a sign-in with a NUL in its e-mail', () => {
  it('answers 400 naming the field, and the audit log does not fail looking it up', async () => {
    const from = logs.length;
    const res = await logged.inject({ method: 'POST', url: '/v1/clientAuth/signin', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: `${demoEmail('manager')}\u0000`, password: TEST_PASSWORD }) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '99931', errors: [{ field: 'email' }] });
    await logged.auditSettled();
    expect(errorsLogged(from)).toEqual([]);
  });
});

describe('a client that hangs up mid-request', () => {
  it('is logged at info, not as an error', async () => {
    const from = logs.length;
    const address = await logged.listen({ port: 0, host: '127.0.0.1' }).then(() => logged.server.address() as AddressInfo);
    // The server is reading the body (its parser listens for the body's data) when the connection goes.
    const reading = new Promise<void>((resolve) => {
      logged.server.prependListener('request', (request: IncomingMessage) => request.on('newListener', (event) => event === 'data' && resolve()));
    });
    const socket = connect(address.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('POST /v1/clientAuth/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"');
    await reading;
    socket.destroy();
    // The error handler's line, whichever it is.
    await until('the hang-up to be logged', () => logs.slice(from).some((l) => l.msg === 'client closed the connection mid-request' || l.level >= 50));
    expect(errorsLogged(from)).toEqual([]);
    expect(logs.slice(from).find((l) => l.msg === 'client closed the connection mid-request')?.level).toBe(30);
  });
});
