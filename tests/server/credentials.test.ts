// API permissions and credentials: keys shown once and stored as hashes, listed masked, revoked
// and rotated; X-Api-Key authentication from authorised IPs (CIDR, IPv4 and IPv6); the
// notification e-mail and the FTP settings with the password sealed and masked.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { fileHarness, signedIn } from './file-harness.ts';
import { TEST_PASSWORD } from './harness.ts';
import { counts, demoCompanyId, otherCompany, userWithGrants } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'analista');

const settings = (over: Record<string, unknown> = {}) => ({
  allowedIps: ['127.0.0.1'], notificationEmail: null, ftp: { host: null, port: null, user: null, directory: null, password: null }, ...over,
});
/** A call with an API key from a given address (the harness's op() always comes from 127.0.0.1). */
// An API key works on the sending API only: a send is what a key is for.
const withKey = (apiKey: string, remoteAddress = '127.0.0.1', url = '/v1/messages') =>
  url === '/v1/messages'
    ? h.app.inject({ method: 'POST', url, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, payload: JSON.stringify({ channel: 'sms', to: '3005550401', text: 'Prueba de la llave' }), remoteAddress })
    : h.app.inject({ method: 'GET', url, headers: { 'x-api-key': apiKey }, remoteAddress });
const issue = async (name: string, token = tokens.manager) => {
  const res = await h.op('credentials.create', { token, body: { name } });
  expect(res.statusCode).toBe(200);
  return res.json() as { credential: { id: string; hint: string; status: string }; apiKey: string };
};

describe('credentials', () => {
  it('creates a credential: the key is answered once, only its SHA-256 is stored', async () => {
    const { credential, apiKey } = await issue('Integración ERP');
    expect(apiKey).toMatch(/^ck_[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{43}$/);
    const secret = apiKey.split('.')[1];
    expect(credential).toEqual({
      id: apiKey.split('.')[0], name: 'Integración ERP', status: 'active', hint: `••••${secret.slice(-4)}`,
      createdAt: expect.any(String), lastUsedAt: null, revokedAt: null, replacedBy: null, foreignOriginAt: null, foreignOriginIp: null,
    });
    const row = await h.db.selectFrom('api_credentials').selectAll().where('id', '=', credential.id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
    const list = (await h.op('credentials.list', { token: tokens.analista })).json();
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(list.items.find((c: { id: string }) => c.id === credential.id)).toEqual(credential);
  });

  it('lists paged with status filter, search and sorting', async () => {
    const a = await issue('Zeta reportes');
    await h.op('credentials.revoke', { token: tokens.manager, params: { id: a.credential.id } });
    const active = (await h.op('credentials.list', { token: tokens.analista, query: { status: 'active' } })).json();
    expect(active.items.every((c: { status: string }) => c.status === 'active')).toBe(true);
    const revoked = (await h.op('credentials.list', { token: tokens.analista, query: { status: 'revoked', q: 'zeta' } })).json();
    expect(revoked).toMatchObject({ total: 1, items: [{ id: a.credential.id, status: 'revoked', revokedAt: expect.any(String) }] });
    const byName = (await h.op('credentials.list', { token: tokens.analista, query: { sort: 'name', order: 'desc', pageSize: 1 } })).json();
    expect(byName.items[0].name).toBe('Zeta reportes');
    expect(byName.total).toBeGreaterThanOrEqual(2);
    for (const query of [{ sort: 'secret_hash' }, { status: 'deleted' }, { pageSize: 0 }] as Record<string, string | number>[]) {
      expect((await h.op('credentials.list', { token: tokens.analista, query })).json().code).toBe('99931');
    }
  });

  it.each([
    [{}, '99999'], [{ name: '' }, '99931'], [{ name: '<b>ERP</b>' }, '99931'], [{ name: 'x'.repeat(81) }, '99931'], [{ name: 'ERP', scope: 'all' }, '99931'],
  ])('refuses %j with %s and stores nothing', async (body, code) => {
    const before = await counts(h, ['api_credentials', 'users']);
    expect((await h.op('credentials.create', { token: tokens.manager, body })).json().code).toBe(code);
    expect(await counts(h, ['api_credentials', 'users'])).toEqual(before);
  });

  it('the first credentials of a company, created in parallel, share one API user who cannot sign in', async () => {
    const other = await otherCompany(h);
    const results = await Promise.all([
      h.op('credentials.create', { token: other.token, body: { name: 'Uno' } }),
      h.op('credentials.create', { token: other.token, body: { name: 'Dos' } }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const apiUsers = await h.db.selectFrom('users').select(['email', 'state']).where('company_id', '=', other.companyId).where('email', 'like', 'api-%').execute();
    expect(apiUsers).toEqual([{ email: `api-${other.companyId}@api.colibri.invalid`, state: 'active' }]);
    const signin = await h.op('clientAuth.signin', { body: { email: apiUsers[0].email, password: TEST_PASSWORD } });
    expect(signin.statusCode).toBe(401);
  });

  it('creating a key puts nobody on the team: the API user is a service account, not a member', async () => {
    const other = await otherCompany(h);
    const before = (await h.op('team.list', { token: other.token })).json() as { total: number; items: { email: string }[] };
    expect((await h.op('credentials.create', { token: other.token, body: { name: 'ERP' } })).statusCode).toBe(200);
    const after = (await h.op('team.list', { token: other.token })).json() as { total: number; items: { name: string; email: string }[] };
    expect(after.total).toBe(before.total);
    expect(after.items.map((m) => m.name)).not.toContain('API');
    const apiUser = await h.db.selectFrom('users').select(['id', 'service']).where('email', '=', `api-${other.companyId}@api.colibri.invalid`).executeTakeFirstOrThrow();
    expect(apiUser.service).toBe(true);
    expect((await h.op('team.get', { token: other.token, params: { id: apiUser.id } })).json().code).toBe('99959');
    const users = (await h.op('clients.usersList', { token: other.token })).json() as { email: string }[];
    expect(users.map((u) => u.email)).not.toContain(`api-${other.companyId}@api.colibri.invalid`);
  });
});

describe('X-Api-Key', () => {
  it('authenticates as the company API user from an authorised IP only', async () => {
    const { credential, apiKey } = await issue('Servidor de campañas');
    // No authorised IP yet: nobody.
    expect((await withKey(apiKey)).json().code).toBe('99953');
    expect((await h.op('credentials.updateSettings', { token: tokens.manager, body: settings({ allowedIps: ['127.0.0.0/8', '2001:db8::/32'] }) })).statusCode).toBe(200);
    const ok = await withKey(apiKey);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().messages).toHaveLength(1);
    expect((await withKey(apiKey, '::ffff:127.0.0.1')).statusCode).toBe(200);
    expect((await withKey(apiKey, '2001:db8:0:1::25')).statusCode).toBe(200);
    expect((await withKey(apiKey, '203.0.113.9')).json().code).toBe('99953');
    expect((await withKey(apiKey, '2001:db9::1')).json().code).toBe('99953');
    // Beyond the sending API a key may do nothing, whatever the API user's role.
    expect((await withKey(apiKey, '127.0.0.1', '/v1/block-list')).json().code).toBe('99982');
    const listed = (await h.op('credentials.list', { token: tokens.manager, query: { q: credential.id } })).json();
    expect(listed.items[0].lastUsedAt).toBe(h.clock.now.toISOString());
  });

  it('a good key from an address not authorised (status 96) is refused like any other, recorded on the key, and the company is told once an hour', async () => {
    await h.op('credentials.updateSettings', { token: tokens.manager, body: settings({ allowedIps: ['127.0.0.0/8'], notificationEmail: 'origen@demo.colibri.co' }) });
    const { credential, apiKey } = await issue('Origen');
    const refused = await withKey(apiKey, '203.0.113.77');
    // The same answer as a wrong key: the caller learns nothing about the key.
    expect([refused.statusCode, refused.json().code]).toEqual([401, '99953']);
    const listed = () => h.op('credentials.list', { token: tokens.manager, query: { q: credential.id } }).then((r) => r.json().items[0]);
    expect(await listed()).toMatchObject({ foreignOriginAt: h.clock.now.toISOString(), foreignOriginIp: '203.0.113.77' });
    const notices = async () => (await h.outbox('origen@demo.colibri.co')).filter((m) => m.body.includes('no autorizada'));
    expect(await notices()).toEqual([expect.objectContaining({ body: expect.stringContaining('203.0.113.77') })]);
    expect(JSON.stringify(await notices())).not.toContain(apiKey.split('.')[1]);
    // Again within the hour: the key shows the latest address, no second e-mail.
    await withKey(apiKey, '203.0.113.78');
    expect((await listed()).foreignOriginIp).toBe('203.0.113.78');
    expect(await notices()).toHaveLength(1);
    // A wrong secret from anywhere is not a use of the key: nothing recorded.
    const [id, secret] = apiKey.split('.');
    await withKey(`${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`, '203.0.113.99');
    expect((await listed()).foreignOriginIp).toBe('203.0.113.78');
  });

  it('a wrong secret, a malformed key or another company’s key does not authenticate', async () => {
    const { apiKey } = await issue('Pruebas');
    const [id, secret] = apiKey.split('.');
    const flipped = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const key of [flipped, id, `${id}.`, 'ck_short.x', `${apiKey}x`, "' or 1=1 --"]) {
      const res = await withKey(key);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('99953');
    }
  });

  it('a revoked or rotated key answers 99953; the rotated one works', async () => {
    const first = await issue('Rotación');
    expect((await withKey(first.apiKey)).statusCode).toBe(200);
    const rotated = await h.op('credentials.rotate', { token: tokens.manager, params: { id: first.credential.id } });
    expect(rotated.statusCode).toBe(200);
    const second = rotated.json();
    expect(second.credential).toMatchObject({ name: 'Rotación', status: 'active' });
    expect(second.apiKey).not.toBe(first.apiKey);
    expect((await withKey(first.apiKey)).json().code).toBe('99953');
    expect((await withKey(second.apiKey)).statusCode).toBe(200);
    const old = (await h.op('credentials.list', { token: tokens.manager, query: { q: first.credential.id } })).json().items[0];
    expect(old).toMatchObject({ status: 'revoked', replacedBy: second.credential.id });
    expect((await h.op('credentials.rotate', { token: tokens.manager, params: { id: first.credential.id } })).json().code).toBe('99959');

    expect((await h.op('credentials.revoke', { token: tokens.manager, params: { id: second.credential.id } })).json()).toEqual({ ok: true });
    expect((await withKey(second.apiKey)).json().code).toBe('99953');
    expect((await h.op('credentials.revoke', { token: tokens.manager, params: { id: second.credential.id } })).json()).toEqual({ ok: true });
    expect((await h.op('credentials.revoke', { token: tokens.manager, params: { id: 'ck_AAAAAAAAAAAAAAAA' } })).json().code).toBe('99959');
    expect((await h.op('credentials.revoke', { token: tokens.manager, params: { id: 'not-a-key' } })).json().code).toBe('99931');
  });

  it('changes are told to the notification e-mail, never with the key', async () => {
    await h.op('credentials.updateSettings', { token: tokens.manager, body: settings({ allowedIps: ['127.0.0.0/8', '2001:db8::/32'], notificationEmail: 'Seguridad@Demo.Colibri.co' }) });
    const { credential, apiKey } = await issue('Aviso');
    const mail = await h.outbox('seguridad@demo.colibri.co');
    expect(mail[0]).toMatchObject({ channel: 'email', subject: expect.stringContaining('creada') });
    expect(mail[0].body).toContain(credential.id);
    expect(JSON.stringify(mail)).not.toContain(apiKey.split('.')[1]);
  });
});

describe('settings', () => {
  it('stores ranges canonically and the FTP password sealed, answered masked', async () => {
    const body = settings({
      allowedIps: ['10.0.0.1', '192.168.0.0/16', '2001:DB8:0:0::/64', '10.0.0.1/32'],
      notificationEmail: 'ti@demo.colibri.co',
      ftp: { host: 'FTP.Demo.Colibri.co', port: 22, user: 'colibri', directory: '/entrada', password: 'S3creto-ftp-2025' },
    });
    const res = await h.op('credentials.updateSettings', { token: tokens.manager, body });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      allowedIps: ['10.0.0.1/32', '192.168.0.0/16', '2001:db8::/64'],
      notificationEmail: 'ti@demo.colibri.co',
      ftp: { host: 'ftp.demo.colibri.co', port: 22, user: 'colibri', directory: '/entrada', password: '••••2025' },
    });
    expect((await h.op('credentials.getSettings', { token: tokens.analista })).json()).toEqual(res.json());
    const row = await h.db.selectFrom('api_settings').select('ftp_password').where('company_id', '=', await demoCompanyId(h)).executeTakeFirstOrThrow();
    expect(row.ftp_password).toMatch(/^v1\./);
    expect(row.ftp_password).not.toContain('S3creto');

    // The mask sent back keeps the password; another mask is refused; null clears it.
    const saved = res.json() as { ftp: Record<string, unknown> };
    const kept = await h.op('credentials.updateSettings', { token: tokens.manager, body: { ...saved, ftp: { ...saved.ftp, directory: '/otra' } } });
    expect(kept.json().ftp).toMatchObject({ directory: '/otra', password: '••••2025' });
    expect((await h.op('credentials.updateSettings', { token: tokens.manager, body: { ...saved, ftp: { ...saved.ftp, password: '••••9999' } } })).json().code).toBe('99931');
    const cleared = await h.op('credentials.updateSettings', { token: tokens.manager, body: { ...saved, ftp: { ...saved.ftp, password: null } } });
    expect(cleared.json().ftp.password).toBeNull();
  });

  it.each([
    ['a host address with host bits', { allowedIps: ['10.0.0.1/8'] }],
    ['an impossible address', { allowedIps: ['300.1.1.1'] }],
    ['markup as a range', { allowedIps: ['<script>'] }],
    ['a prefix beyond 32', { allowedIps: ['10.0.0.0/33'] }],
    ['two IPv6 compressions', { allowedIps: ['2001::db8::1'] }],
    ['a bad e-mail', { notificationEmail: 'not an email' }],
    ['a port out of range', { ftp: { host: 'ftp.demo.co', port: 70000, user: 'u', directory: '/x', password: null } }],
    ['a relative directory', { ftp: { host: 'ftp.demo.co', port: 21, user: 'u', directory: 'x/../../etc', password: null } }],
    ['a host with a scheme', { ftp: { host: 'ftp://ftp.demo.co', port: 21, user: 'u', directory: '/x', password: null } }],
  ])('refuses %s (99931) and changes nothing', async (_, over) => {
    const before = await h.db.selectFrom('api_settings').selectAll().orderBy('company_id').execute();
    const res = await h.op('credentials.updateSettings', { token: tokens.manager, body: settings(over) });
    expect(res.json().code).toBe('99931');
    expect(await h.db.selectFrom('api_settings').selectAll().orderBy('company_id').execute()).toEqual(before);
  });

  it('refuses a body without the FTP part (99999)', async () => {
    expect((await h.op('credentials.updateSettings', { token: tokens.manager, body: { allowedIps: [], notificationEmail: null } })).json().code).toBe('99999');
  });
});

describe('permissions and company isolation', () => {
  it('each operation needs its 6004 action (99982)', async () => {
    const viewer = await userWithGrants(h, [{ id: 6004, actions: ['view'] }]);
    const nobody = await userWithGrants(h, [{ id: 60, actions: ['view'] }]);
    const { credential } = await issue('Permisos');
    const before = await counts(h, ['api_credentials', 'api_settings']);
    const refused = [
      await h.op('credentials.create', { token: viewer, body: { name: 'x' } }),
      await h.op('credentials.rotate', { token: viewer, params: { id: credential.id } }),
      await h.op('credentials.revoke', { token: viewer, params: { id: credential.id } }),
      await h.op('credentials.updateSettings', { token: viewer, body: settings() }),
      await h.op('credentials.list', { token: nobody }),
      await h.op('credentials.getSettings', { token: nobody }),
    ];
    for (const res of refused) expect(res.json().code).toBe('99982');
    expect(await counts(h, ['api_credentials', 'api_settings'])).toEqual(before);
    expect((await h.op('credentials.list', { token: viewer })).statusCode).toBe(200);
  });

  it("another company's credential answers 99959 and its list and settings are its own", async () => {
    const { credential } = await issue('Privada');
    const other = await otherCompany(h);
    expect((await h.op('credentials.list', { token: other.token })).json()).toMatchObject({ items: [], total: 0 });
    expect((await h.op('credentials.getSettings', { token: other.token })).json()).toEqual(settings({ allowedIps: [] }));
    expect((await h.op('credentials.rotate', { token: other.token, params: { id: credential.id } })).json().code).toBe('99959');
    expect((await h.op('credentials.revoke', { token: other.token, params: { id: credential.id } })).json().code).toBe('99959');
    const row = await h.db.selectFrom('api_credentials').select('revoked_at').where('id', '=', credential.id).executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
  });
});
