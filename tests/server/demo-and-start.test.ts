// The demo seed, starting a server on a port from code (benchmark support), the embedded
// on-disk database surviving a restart, and `npm start`'s entry (main.ts) end to end.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isValidPassword } from '../../src/core/password-policy.ts';
import { constants } from '../../src/generated/constants.gen.ts';
import { demoEmail, demoRoleUsers, demoStateUsers, generateDemoPassword, seedDemo } from '../../src/server/db/demo-seed.ts';
import { startServer } from '../../src/server/index.ts';
import { createHarness, TEST_PASSWORD, type Harness } from './harness.ts';
import { NODE_FLAGS } from '../node-flags.ts';

describe('demo seed', () => {
  let h: Harness;
  beforeAll(async () => { h = await createHarness(); });
  afterAll(async () => { await h.close(); });

  it('creates Demo S.A.S., active, pilot, NIT 900123456-8, and a second company for isolation', async () => {
    const companies = await h.db.selectFrom('companies').select(['name', 'nit', 'state', 'plan_type']).orderBy('id').execute();
    expect(companies).toEqual([
      { name: 'Demo S.A.S.', nit: '900123456-8', state: 'active', plan_type: 'pilot' },
      { name: 'Andina Logística S.A.S.', nit: '900987654-7', state: 'active', plan_type: 'subscription' },
    ]);
  });

  it.each(demoRoleUsers)('an active %s user who holds that role', async (role) => {
    const { session } = await h.signin(demoEmail(role), TEST_PASSWORD);
    expect(session.state).toBe('active');
    expect(session.roles).toContain(role);
    expect(session.company?.state).toBe('active');
  });

  it.each(demoStateUsers)('a %s user in that state', async (state) => {
    const row = await h.db.selectFrom('users').select(['state', 'password_changed_at']).where('email', '=', demoEmail(state)).executeTakeFirstOrThrow();
    expect(row.state).toBe(state);
    const ageDays = (Date.now() - new Date(row.password_changed_at).getTime()) / 86_400_000;
    if (state === 'ExpiredPassword') expect(ageDays).toBeGreaterThan(constants.security.passwordMaxAgeDays);
    else expect(ageDays).toBeLessThan(1);
  });

  it('adds areas and notifications', async () => {
    expect(await h.count('areas')).toBe(3); // two in Demo S.A.S., one in Andina Logística
    const { token, session } = await h.as('superadmin');
    expect((await h.op('notifications.list', { params: { userId: session.idUser }, token })).json().unread).toBe(2);
  });

  it('runs once: a second seed changes nothing', async () => {
    const before = await h.snapshot();
    expect(await seedDemo(h.db, 'Otra#Clave2025')).toEqual({ created: false });
    expect(await h.snapshot()).toEqual(before);
  });

  it('a generated demo password satisfies the policy and is never the same', () => {
    const a = generateDemoPassword();
    const b = generateDemoPassword();
    expect(isValidPassword(a)).toBe(true);
    expect(a).not.toBe(b);
  });
});

describe('startServer (benchmark support)', () => {
  it('listens on a port, serves real HTTP, and closes', async () => {
    const server = await startServer({ port: 0, demoPassword: TEST_PASSWORD });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.demoCreated).toBe(true);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      const res = await fetch(`${server.url}/v1/clientAuth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'superadmin@demo.colibri.co', password: TEST_PASSWORD }),
      });
      expect(res.status).toBe(200);
      expect((await res.json()).clientToken).toEqual(expect.any(String));
    } finally {
      await server.close();
    }
  });

  it('keeps the embedded database on disk across a restart (the folder is created)', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'colibri-data-')), 'nested', 'data');
    const first = await startServer({ database: { kind: 'pglite', dataDir }, demoPassword: TEST_PASSWORD });
    expect(first.demoCreated).toBe(true);
    await first.close();
    const second = await startServer({ database: { kind: 'pglite', dataDir }, demoPassword: 'Ignorada#2025' });
    try {
      expect(second.demoCreated).toBe(false);
      const res = await second.app.inject({ method: 'POST', url: '/v1/clientAuth/signin', payload: { email: 'admin@demo.colibri.co', password: TEST_PASSWORD } });
      expect(res.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});

/** The local addresses of the sockets listening on `port`, from /proc/net/tcp and tcp6 (Linux). */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const found = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue; // 0A = LISTEN
      const [address, p] = local.split(':');
      if (p !== hexPort) continue;
      found.add(address.length === 8 ? ipv4(address) : address === '0'.repeat(32) ? '::' : address === '00000000000000000000000001000000' ? '::1' : address);
    }
  }
  return [...found].sort();
}
/** /proc/net/tcp writes an IPv4 address as 8 hex digits in host (little-endian) byte order. */
const ipv4 = (hex: string) => [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');

describe('npm start (src/server/main.ts)', () => {
  const root = resolve(import.meta.dirname, '../..');
  const dataDir = mkdtempSync(join(tmpdir(), 'colibri-main-'));
  const consoleDir = mkdtempSync(join(tmpdir(), 'colibri-main-console-'));
  writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>Colibri</title>');

  /** Starts main.ts, waits for its "running at" line, and returns the output and a stopper. */
  function launch(extra: NodeJS.ProcessEnv = {}) {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, CONSOLE_DIR: consoleDir, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    delete env.DEMO_PASSWORD;
    delete env.DEMO_API_KEY;
    Object.assign(env, extra);
    for (const [k, v] of Object.entries(extra)) if (v === undefined) delete env[k];
    const child = spawn(process.execPath, [...NODE_FLAGS, '--import', 'tsx', 'src/server/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const ready = new Promise<string>((done, failed) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
        if (url && /Demo password[^\n]*\n/.test(output) && (!extra.DEMO_API_KEY || /DEMO_API_KEY[^\n]*\n/.test(output))) done(url);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
      child.on('exit', (code) => failed(new Error(`main.ts exited with ${code}: ${output}`)));
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    running.add(child);
    child.on('exit', () => running.delete(child));
    return { ready, exited, output: () => output, stop: () => child.kill('SIGTERM') };
  }
  // A start that failed or timed out must not keep the data folder open for the next one.
  const running = new Set<ReturnType<typeof spawn>>();
  afterEach(async () => {
    await Promise.all([...running].map((child) => new Promise((done) => { child.once('exit', done); child.kill('SIGKILL'); })));
  });

  it('first start: seeds the demo, prints the URL and a random password once; serves the console and the API', async () => {
    const run = launch();
    const url = await run.ready;
    const password = /Demo password \(shown once[^:]*\): (\S+)/.exec(run.output())?.[1];
    expect(password && isValidPassword(password)).toBe(true);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(await (await fetch(`${url}/Campaigns/history`)).text()).toContain('<title>Colibri</title>');
    const signin = await fetch(`${url}/v1/clientAuth/signin`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'analista@demo.colibri.co', password }),
    });
    expect(signin.status).toBe(200);
    run.stop();
    expect(await run.exited).toBe(0); // graceful shutdown on SIGTERM
  }, 180_000);

  it('listens on loopback only unless HOST says otherwise (the sandbox outbox holds one-time codes)', async () => {
    const run = launch({ HOST: undefined, ENGINE_IN_DOUBT_GRACE_MS: '5000' });
    const url = await run.ready;
    // npm start reads the engine's settings as npm run worker does.
    await expect.poll(() => run.output()).toContain('goes again after 5 s without a receipt');
    const port = Number(new URL(url).port);
    expect(new URL(url).hostname).toBe('127.0.0.1');
    expect((await fetch(`${url}/health`)).status).toBe(200);
    // The kernel's own table of listening sockets (no traffic to any other address): every socket
    // on the port is bound to 127.0.0.1, none to 0.0.0.0 or ::.
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    run.stop();
    expect(await run.exited).toBe(0);
  }, 180_000);

  it('second start: the password is not printed again and nothing is re-seeded; DEMO_API_KEY becomes a working key, never printed', async () => {
    const id = `ck_${randomBytes(12).toString('base64url')}`;
    const secret = randomBytes(32).toString('base64url');
    const run = launch({ DEMO_API_KEY: `${id}.${secret}` });
    const url = await run.ready;
    expect(run.output()).not.toMatch(/shown once/);
    expect(run.output()).toContain('printed on the first start');
    expect(run.output()).toContain(`DEMO_API_KEY is active: credential ${id} of Demo S.A.S.`);
    expect(run.output()).not.toContain(secret);
    const sent = await fetch(`${url}/v1/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${id}.${secret}` }, body: JSON.stringify({ channel: 'sms', to: '3001234567', text: 'Prueba de la clave demo' }),
    });
    expect(sent.status).toBe(200);
    expect((await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${id}.${'x'.repeat(43)}` }, body: '{}' })).status).toBe(401);
    run.stop();
    expect(await run.exited).toBe(0);
  }, 180_000);
});
