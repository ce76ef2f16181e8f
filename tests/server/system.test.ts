// Health, files, the sandbox outbox, the OpenAPI document, the catalogue answers for unknown
// routes, oversized bodies and unexpected failures, and the console's SPA fallback.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import { buildServer } from '../../src/server/app.ts';
import { fail } from '../../src/server/errors/api-error.ts';
import type { HandlerMap } from '../../src/server/http/handler.ts';
import { handlers } from '../../src/server/modules/index.ts';
import { compilePending, pendingCompilations } from '../../src/server/http/lazy-compile.ts';
import { fileHarness } from './file-harness.ts';

const h = fileHarness();

describe('system operations', () => {
  it('health answers 200 once the database answers', async () => {
    const res = await h.op('system.health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('files: unknown id 99936, malformed id 99931', async () => {
    expect((await h.op('system.file', { params: { id: 'A'.repeat(32) } })).json().code).toBe('99936');
    expect((await h.op('system.file', { params: { id: 'short' } })).json().code).toBe('99931');
  });

  it('the outbox lists what the sandbox providers accepted, filtered by destination', async () => {
    await h.op('clientAuth.saveOtp', { body: { email: 'admin@demo.colibri.co', method: 'sms' } });
    const { token } = await h.as('platform');
    const res = await h.op('system.outbox', { token, query: { to: '+573000000002' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([{ id: expect.any(Number), channel: 'sms', to: '+573000000002', subject: expect.any(String), body: expect.stringMatching(/\b\d{6}\b/), createdAt: expect.any(String) }]);
    expect((await h.op('system.outbox', { token })).json().length).toBeGreaterThan(0);
  });

  it('the outbox does not exist outside sandbox mode', async () => {
    const prod = await buildServer({ db: h.db, sandbox: false });
    const res = await prod.inject({ method: 'GET', url: '/v1/sandbox/outbox' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('99936');
    expect(prod.hasRoute({ method: 'GET', url: '/v1/sandbox/outbox' })).toBe(false);
    expect(prod.hasRoute({ method: 'POST', url: '/v1/clientAuth/signin' })).toBe(true);
    await prod.close();
  });

  it('serves the OpenAPI document at /docs/openapi.json', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/docs/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toContain('/v1/clientAuth/signin');
  });
});

describe('catalogue answers', () => {
  it.each([
    ['GET', '/v1/nothing-here'],
    ['GET', '/v3/nothing-here'],
    ['DELETE', '/v1/clientAuth/signin'],
    ['GET', '/'],
    ['GET', '/Campaigns/history'],
  ])('%s %s without a console build answers 99936 (404)', async (method, url) => {
    const res = await h.app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: '99936', message: expect.any(String) });
  });

  it('a body over 1 MiB answers 99937 (413) on any JSON operation', async () => {
    const { token } = await h.as('manager');
    const res = await h.op('account.create', { token, body: { name: 'x'.repeat(1024 * 1024 + 1) } });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('99937');
  });

  it('an unexpected failure answers m1 with a generic message: no stack, no SQL', async () => {
    const broken: HandlerMap = {
      ...handlers,
      'geography.countries': async () => { throw new Error('relation "secret_table" does not exist at SELECT * FROM secret_table'); },
      'system.health': async ({ deps }) => { await deps.db.selectFrom('users').select('no_such_column' as never).execute(); return { status: 'ok' }; },
    };
    const app = await buildServer({ db: h.db, sandbox: true, handlers: broken });
    for (const url of ['/v1/countries', '/health']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 'm1', message: expect.any(String) });
      expect(res.body).not.toMatch(/secret_table|no_such_column|select|\.ts:|at /i);
    }
    await app.close();
  });

  it('an answer that breaks its own declared schema is a backend bug: 99964 (500), never the wrong body', async () => {
    const app = await buildServer({ db: h.db, sandbox: true, handlers: { ...handlers, 'geography.countries': async () => [{ code: 'co', nombre: 'sin name' }] as never } });
    const res = await app.inject({ method: 'GET', url: '/v1/countries' });
    expect([res.statusCode, res.json()]).toEqual([500, { code: '99964', message: expect.any(String) }]);
    expect(res.body).not.toContain('sin name');
    await app.close();
  });

  it('handlers throw catalogue errors with their status', async () => {
    const app = await buildServer({ db: h.db, sandbox: true, handlers: { ...handlers, 'geography.countries': async () => { throw fail('99993'); } } });
    const res = await app.inject({ method: 'GET', url: '/v1/countries' });
    expect(res.statusCode).toBe(504);
    expect(res.json().code).toBe('99993');
    await app.close();
  });

  it('buildServer refuses to start when a declared operation has no handler', async () => {
    const incomplete = { ...handlers } as Partial<HandlerMap>;
    delete incomplete['roles.list'];
    await expect(buildServer({ db: h.db, handlers: incomplete as HandlerMap })).rejects.toThrow(/roles\.list/);
  });

  it('every response says nosniff', async () => {
    expect((await h.op('geography.countries')).headers['x-content-type-options']).toBe('nosniff');
    expect((await h.app.inject({ method: 'GET', url: '/v1/none' })).headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('console build and SPA fallback', () => {
  let app: Awaited<ReturnType<typeof buildServer>>;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'colibri-console-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(root, 'assets', 'app-1234.js'), 'console.log(1)');
    app = await buildServer({ db: h.db, sandbox: true, consoleRoot: root });
  });
  afterAll(async () => { await app.close(); });

  it.each(['/', '/signin', '/Campaigns/history', '/Reports/Deployments/oldVersion', '/profile/User/password?tab=1'])('GET %s serves index.html', async (url) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
  });

  it('serves the built files, with long caching for hashed assets', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1)');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it.each([
    ['GET', '/assets/missing-9999.js'],
    ['GET', '/v1/unknown'],
    ['GET', '/v3/nothing-here'],
    ['GET', '/health/deep'],
    ['GET', '/docs/nothing'],
    ['GET', '/notifications'],
    ['POST', '/Campaigns/history'],
  ])('%s %s never falls back to index.html: 99936', async (method, url) => {
    const res = await app.inject({ method: method as 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('99936');
  });

  it('API routes still answer JSON beside the console', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok', database: 'ok' });
  });
});

describe('registration of the declarations', () => {
  it('every declared operation is a route (sandbox mode)', () => {
    for (const op of serverOperations) {
      expect(h.app.hasRoute({ method: op.method, url: op.path.replace(/\{(\w+)\}/g, ':$1') }), op.id).toBe(true);
    }
  });
});

describe('schemas compiled on first use', () => {
  it('a route compiles its validator on its first request; every other route schema compiles', async () => {
    // Nothing has called channels.create in this file: its body validator is still pending and
    // is compiled by the request, which it then validates (required fields missing: 99999).
    const { token } = await h.as('admin');
    const before = pendingCompilations();
    const refused = await h.op('channels.create', { token, body: { name: 42 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('99999');
    expect(pendingCompilations()).toBeLessThan(before);
    // The rest: hundreds of validators and serializers, each of which must compile.
    expect(compilePending()).toBeGreaterThan(300);
    expect(pendingCompilations()).toBe(0);
    // Hundreds of compilations in one synchronous stretch: about 2 s alone, far longer when the
    // machine's two cores are busy with the rest of the suite.
  }, 120_000);
});
