// The sandbox outbox holds one-time codes: it needs a platform or develop session from any address,
// a loopback client included (behind a local proxy every outside client is "this machine"),
// unless the operator opens it to this machine with SANDBOX_OUTBOX_OPEN; a develop user reads
// only their own company's mail. On PGlite and (with DATABASE_URL) PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/server/app.ts';
import { fileHarness } from './file-harness.ts';

const OUTSIDE = '203.0.113.7';
const h = fileHarness();

beforeAll(async () => {
  // A code for a user of each company: Demo S.A.S. and Andina Logística.
  expect((await h.op('clientAuth.recoverPassword', { body: { email: 'analista@demo.colibri.co' } })).statusCode).toBeLessThan(300);
  expect((await h.op('clientAuth.recoverPassword', { body: { email: 'analista@andina.demo.colibri.co' } })).statusCode).toBeLessThan(300);
});

const addresses = (res: { json(): { to: string }[] }) => res.json().map((m) => m.to);

describe('GET /v1/sandbox/outbox', () => {
  it.each(['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2'])('refuses a client of this machine (%s) without a session (99953) by default', async (remoteAddress) => {
    const res = await h.op('system.outbox', { remoteAddress });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('99953');
    expect(res.body).not.toMatch(/\d{6}/);
  });

  it.each(['superadmin', 'admin', 'analista', 'manager'])('refuses a %s session at the machine itself (99982)', async (role) => {
    const { token } = await h.as(role);
    const res = await h.op('system.outbox', { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });

  it('with SANDBOX_OUTBOX_OPEN a person at the machine reads every company\'s mail without a session; the network and proxied clients still need one', async () => {
    const open = await buildServer({ db: h.db, sandbox: true, sandboxOutboxOpen: true });
    try {
      const res = await open.inject({ method: 'GET', url: '/v1/sandbox/outbox' });
      expect(res.statusCode).toBe(200);
      expect(addresses(res)).toEqual(expect.arrayContaining(['analista@demo.colibri.co', 'analista@andina.demo.colibri.co']));
      for (const remoteAddress of ['::1', '::ffff:127.0.0.1', '127.0.0.2']) expect((await open.inject({ method: 'GET', url: '/v1/sandbox/outbox', remoteAddress })).statusCode).toBe(200);
      expect((await open.inject({ method: 'GET', url: '/v1/sandbox/outbox', remoteAddress: OUTSIDE })).statusCode).toBe(401);
      expect((await open.inject({ method: 'GET', url: '/v1/sandbox/outbox', headers: { 'x-forwarded-for': OUTSIDE } })).statusCode).toBe(401);
      expect((await open.inject({ method: 'GET', url: '/v1/sandbox/outbox', headers: { forwarded: `for=${OUTSIDE}` } })).statusCode).toBe(401);
      expect((await open.inject({ method: 'GET', url: '/v1/sandbox/outbox', headers: { 'x-real-ip': OUTSIDE } })).statusCode).toBe(401);
      // A company user at the machine sees only their company's mail, even asking for another address.
      const { token } = await h.signin('superadmin@andina.demo.colibri.co');
      const own = await open.inject({ method: 'GET', url: '/v1/sandbox/outbox', headers: { 'x-auth-token': token } });
      expect(addresses(own)).toContain('analista@andina.demo.colibri.co');
      expect(addresses(own)).not.toContain('analista@demo.colibri.co');
      const other = await open.inject({ method: 'GET', url: '/v1/sandbox/outbox?to=analista%40demo.colibri.co', headers: { 'x-auth-token': token } });
      expect(other.json()).toEqual([]);
    } finally {
      await open.close();
    }
  });

  it('refuses a client from another address without a session (99953) and lists nothing', async () => {
    const res = await h.op('system.outbox', { remoteAddress: OUTSIDE });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('99953');
    expect(res.body).not.toMatch(/\d{6}/);
  });

  it('refuses a loopback request that a proxy forwarded for someone else', async () => {
    const res = await h.op('system.outbox', { headers: { 'x-forwarded-for': OUTSIDE } });
    expect(res.statusCode).toBe(401);
    expect((await h.op('system.outbox', { headers: { forwarded: `for=${OUTSIDE}` } })).statusCode).toBe(401);
  });

  it.each(['superadmin', 'admin', 'analista', 'manager'])('refuses a %s session from another address (99982)', async (role) => {
    const { token } = await h.as(role);
    const res = await h.op('system.outbox', { token, remoteAddress: OUTSIDE });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });

  it('a develop session from another address sees only its own company\'s mail', async () => {
    const { token } = await h.as('develop');
    const res = await h.op('system.outbox', { token, remoteAddress: OUTSIDE });
    expect(res.statusCode).toBe(200);
    expect(addresses(res)).toContain('analista@demo.colibri.co');
    expect(addresses(res)).not.toContain('analista@andina.demo.colibri.co');
  });

  it('a platform session from another address sees every company\'s mail', async () => {
    const { token } = await h.as('platform');
    const res = await h.op('system.outbox', { token, remoteAddress: OUTSIDE });
    expect(res.statusCode).toBe(200);
    expect(addresses(res)).toEqual(expect.arrayContaining(['analista@demo.colibri.co', 'analista@andina.demo.colibri.co']));
  });

  it('records which company every sandbox message was sent for', async () => {
    const rows = await h.db.selectFrom('sandbox_outbox').select(['to_address', 'company_id']).execute();
    const andina = await h.db.selectFrom('companies').select('id').where('name', '=', 'Andina Logística S.A.S.').executeTakeFirstOrThrow();
    expect(rows.find((r) => r.to_address === 'analista@andina.demo.colibri.co')?.company_id).toBe(andina.id);
    expect(rows.every((r) => r.company_id !== null)).toBe(true);
  });
});
