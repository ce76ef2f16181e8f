// Channels: CRUD, the rules behind 99987, 99980, 99978..99969, 99966, 99965, enable/disable,
// statistics and the try-channel test, secrets at rest, permissions and company isolation.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { counts, demoCompanyId, otherCompany, userWithGrants } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'analista');
const CHANNEL_TABLES = ['channels', 'channel_keywords', 'short_code_leases', 'channel_messages'] as const;

const TOKEN = 'smsc_live_3f9a8b7c6d5e4f3a2b1c9999';
const sms = (over: Record<string, unknown> = {}) => ({ name: 'SMS Cobranzas', platform: 'sms', type: 'MT', sender: '3005551234', authorizationToken: TOKEN, ...over });
let seq = 0;
/** A fresh, valid SMS channel body (unique name and sender). */
const freshSms = (over: Record<string, unknown> = {}) => {
  seq++;
  return sms({ name: `SMS prueba ${seq}`, sender: `31055${String(10000 + seq)}`, ...over });
};
const create = async (body: unknown, token = tokens.manager) => h.op('channels.create', { token, body });

describe('create and read', () => {
  it('creates a channel (disabled by default), secrets answered masked and stored sealed', async () => {
    const res = await create(sms({ tags: ['cobranza', ' mora '], priority: 7, clientToken: 'client-token-abcdef123456' }));
    expect(res.statusCode).toBe(200);
    const channel = res.json();
    expect(channel).toMatchObject({
      name: 'SMS Cobranzas', platform: 'sms', type: 'MT', sender: '+573005551234', enabled: false, priority: 7,
      authorizationToken: '••••9999', clientToken: '••••3456', tags: ['cobranza', 'mora'], missing: [],
    });
    const row = await h.db.selectFrom('channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow();
    expect(row.credentials.secrets.authorizationToken).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('3f9a8b7c');
    expect((await h.op('channels.get', { token: tokens.analista, params: { id: channel.id } })).json()).toEqual(channel);
  });

  it('lists the company channels paged, sorted, filtered and searched', async () => {
    const all = (await h.op('channels.list', { token: tokens.analista })).json();
    expect(all).toMatchObject({ page: 1, pageSize: 50 });
    expect(all.total).toBe(all.items.length);
    expect(all.items.map((c: { name: string }) => c.name)).toEqual(['Messenger Demo S.A.S.', 'RCS Demo', 'SMS Cobranzas', 'SMS Notificaciones', 'SMS Respuestas 85432', 'WhatsApp Atención']);
    const sms2 = (await h.op('channels.list', { token: tokens.analista, query: { platform: 'sms', sort: 'createdAt', order: 'desc', pageSize: 1 } })).json();
    expect(sms2.items).toHaveLength(1);
    expect(sms2.items[0].name).toBe('SMS Cobranzas');
    expect(sms2.total).toBeGreaterThan(1);
    const found = (await h.op('channels.list', { token: tokens.analista, query: { q: '85432' } })).json();
    expect(found.items.map((c: { name: string }) => c.name)).toEqual(['SMS Respuestas 85432']);
    const enabled = (await h.op('channels.list', { token: tokens.analista, query: { enabled: 'false' } })).json();
    expect(enabled.items.every((c: { enabled: boolean }) => !c.enabled)).toBe(true);
    const page2 = (await h.op('channels.list', { token: tokens.analista, query: { pageSize: 2, page: 2 } })).json();
    expect(page2.items[0].id).toBe(all.items[2].id);
  });

  it.each([
    [{ sort: 'secret' }], [{ pageSize: 201 }], [{ page: 0 }], [{ order: 'up' }], [{ platform: 'telegram' }], [{ q: 'x'.repeat(101) }],
  ])('refuses list query %j with 99931', async (query) => {
    expect((await h.op('channels.list', { token: tokens.analista, query })).json().code).toBe('99931');
  });

  it('answers the channel types enabled for the company', async () => {
    expect((await h.op('channels.platforms', { token: tokens.analista })).json()).toEqual({ platforms: ['sms', 'rcs', 'whatsapp', 'fbMessenger'] });
    const other = await otherCompany(h, ['whatsapp']);
    expect((await h.op('channels.platforms', { token: other.token })).json()).toEqual({ platforms: ['whatsapp'] });
  });
});

describe('bad input changes nothing', () => {
  it.each([
    ['no name', { platform: 'sms', type: 'MT' }, '99999'],
    ['unknown platform', { name: 'X', platform: 'telegram', type: 'MT' }, '99931'],
    ['HTML in the name', { name: '<img src=x onerror=alert(1)>', platform: 'sms', type: 'MT' }, '99931'],
    ['a blank name', { name: '   ', platform: 'sms', type: 'MT' }, '99931'],
    ['HTML in a tag', { name: 'Etiquetas', platform: 'sms', type: 'MT', tags: ['<script>'] }, '99931'],
    ['an unknown field', { name: 'X', platform: 'sms', type: 'MT', secret: 'x' }, '99931'],
    ['a sender that is no Colombian phone', { name: 'X', platform: 'sms', type: 'MT', sender: '+1 202 555 0100' }, '99963'],
    ['a formula as sender', { name: 'X', platform: 'sms', type: 'MT', sender: "=cmd|' /C calc'!A0" }, '99931'],
    ['a short code with letters', { name: 'X', platform: 'sms', type: 'MO', shortCode: '85a32', keywords: ['A'] }, '99931'],
    ['a javascript: callback', { name: 'X', platform: 'sms', type: 'MT', callbackUrl: 'javascript:alert(1)' }, '99931'],
    ['a page ID on an SMS channel', { name: 'X', platform: 'sms', type: 'MT', facebookPageId: '123456789' }, '99931'],
    ['a short code on WhatsApp', { name: 'X', platform: 'whatsapp', type: 'MO', shortCode: '12345', keywords: ['A'] }, '99931'],
    ['a masked secret on a new channel', { name: 'X', platform: 'sms', type: 'MT', authorizationToken: '••••9999' }, '99931'],
    ['a priority of 11', { name: 'X', platform: 'sms', type: 'MT', priority: 11 }, '99931'],
    ['a number as name', { name: 5, platform: 'sms', type: 'MT' }, '99931'],
    ['an RBM agent with spaces', { name: 'X', platform: 'rcs', type: 'MT', sender: 'my agent' }, '99931'],
  ])('%s', async (_, body, code) => {
    const before = await counts(h, [...CHANNEL_TABLES]);
    const res = await create(body);
    expect(res.json().code).toBe(code);
    expect(await counts(h, [...CHANNEL_TABLES])).toEqual(before);
  });

  it('refuses a malformed JSON body and an id that is not a number', async () => {
    expect((await h.op('channels.create', { token: tokens.manager, payload: '{"name":', headers: { 'content-type': 'application/json' } })).json().code).toBe('99931');
    expect((await h.op('channels.get', { token: tokens.manager, params: { id: 'abc' } })).json().code).toBe('99931');
    expect((await h.op('channels.update', { token: tokens.manager, params: { id: 1 }, body: {} })).json().code).toBe('99931');
  });
});

describe('rules', () => {
  it('99987: a channel name exists in the company (case-insensitive); another company may use it', async () => {
    const before = await counts(h, [...CHANNEL_TABLES]);
    const res = await create(freshSms({ name: 'sms notificaciones' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: '99987', errors: [{ field: 'name', code: '99987' }] });
    expect(await counts(h, [...CHANNEL_TABLES])).toEqual(before);
    const other = await otherCompany(h, ['sms']);
    expect((await create(freshSms({ name: 'SMS Notificaciones' }), other.token)).statusCode).toBe(200);
  });

  it('99987: two parallel creations of the same name, exactly one wins', async () => {
    const body = (sender: string) => sms({ name: 'Canal en carrera', sender });
    const results = await Promise.all([create(body('3005550001')), create(body('3005550002'))]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('99987');
    const rows = await h.db.selectFrom('channels').select('id').where('name', '=', 'Canal en carrera').execute();
    expect(rows).toHaveLength(1);
  });

  it('99976: a sender phone serves one channel per platform, across companies', async () => {
    const other = await otherCompany(h, ['sms', 'whatsapp']);
    const res = await create(freshSms({ sender: '315 123 4567' }), other.token);
    expect(res.json()).toMatchObject({ code: '99976', errors: [{ field: 'sender' }] });
    // The same phone on another platform is another sender; on that platform it is taken too.
    expect((await create({ name: 'WA', platform: 'whatsapp', type: 'MO', sender: '3151234567' }, other.token)).statusCode).toBe(200);
    expect((await create({ name: 'WA 2', platform: 'whatsapp', type: 'MO', sender: '+57 315 123 4567' })).json().code).toBe('99976');
  });

  it('99975: a short code leased by another company', async () => {
    const other = await otherCompany(h, ['sms']);
    const before = await counts(h, [...CHANNEL_TABLES]);
    const res = await create({ name: 'Robo de código', platform: 'sms', type: 'MO', shortCode: '85432', keywords: ['OTRA'] }, other.token);
    expect(res.json()).toMatchObject({ code: '99975', errors: [{ field: 'shortCode' }] });
    expect(await counts(h, [...CHANNEL_TABLES])).toEqual(before);
  });

  it('99970: a keyword already routed on the same short code; other keywords share it', async () => {
    const res = await create({ name: 'Otra campaña 85432', platform: 'sms', type: 'MO', shortCode: '85432', keywords: ['info'] });
    expect(res.json()).toMatchObject({ code: '99970', errors: [{ field: 'keywords' }] });
    const ok = await create({ name: 'Encuestas 85432', platform: 'sms', type: 'MO', shortCode: '85432', keywords: ['encuesta', 'Encuesta', 'SÍ'], authorizationToken: TOKEN });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().keywords).toEqual(['ENCUESTA', 'SÍ']);
    const routes = await h.db.selectFrom('channel_keywords').select('keyword').where('short_code', '=', '85432').orderBy('keyword').execute();
    expect(routes.map((r) => r.keyword)).toEqual(['ENCUESTA', 'INFO', 'PROMO', 'SÍ']);
  });

  it('99969: a short code must be MO; 99971: an MO short code needs a keyword', async () => {
    const before = await counts(h, [...CHANNEL_TABLES]);
    expect((await create({ name: 'MT corto', platform: 'sms', type: 'MT', shortCode: '89999', keywords: ['A'] })).json()).toMatchObject({ code: '99969', errors: [{ field: 'type' }] });
    expect((await create({ name: 'MO sin clave', platform: 'sms', type: 'MO', shortCode: '89999' })).json()).toMatchObject({ code: '99971', errors: [{ field: 'keywords' }] });
    expect(await counts(h, [...CHANNEL_TABLES])).toEqual(before);
  });

  it('99977: a Facebook page ID or page token already used by another company', async () => {
    const other = await otherCompany(h, ['fbMessenger']);
    expect((await create({ name: 'Página copiada', platform: 'fbMessenger', type: 'MO', facebookPageId: '104857600123456' }, other.token)).json()).toMatchObject({ code: '99977', errors: [{ field: 'facebookPageId' }] });
    const token = 'EAAGm0PX4ZCpsBAKZC' + 'x'.repeat(20);
    expect((await create({ name: 'Página A', platform: 'fbMessenger', type: 'MO', facebookPageId: '555000111', pageAccessToken: token })).statusCode).toBe(200);
    expect((await create({ name: 'Página B', platform: 'fbMessenger', type: 'MO', facebookPageId: '555000222', pageAccessToken: token }, other.token)).json()).toMatchObject({ code: '99977', errors: [{ field: 'pageAccessToken' }] });
  });

  it('99974: a service-account e-mail already used by a channel', async () => {
    const other = await otherCompany(h, ['rcs']);
    const res = await create({ name: 'RCS copia', platform: 'rcs', type: 'MT', sender: 'otro_agente', clientEmail: 'RCS-Agent@colibri-demo.iam.gserviceaccount.com' }, other.token);
    expect(res.json()).toMatchObject({ code: '99974', errors: [{ field: 'clientEmail' }] });
  });

  it('99972: a channel type not enabled for the company', async () => {
    const other = await otherCompany(h, ['sms']);
    const before = await counts(h, [...CHANNEL_TABLES]);
    const res = await create({ name: 'WhatsApp no habilitado', platform: 'whatsapp', type: 'MO', sender: '3001239876' }, other.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99972');
    expect(await counts(h, [...CHANNEL_TABLES])).toEqual(before);
  });

  it('99980: a storage failure while creating is "error creating channel", and nothing is left behind', async () => {
    const before = await counts(h, ['channels']);
    await sql`alter table channel_keywords rename to channel_keywords_offline`.execute(h.db);
    try {
      const res = await create({ name: 'Falla de almacenamiento', platform: 'sms', type: 'MO', shortCode: '80808', keywords: ['FALLA'] });
      expect(res.statusCode).toBe(500);
      expect(res.json().code).toBe('99980');
    } finally {
      await sql`alter table channel_keywords_offline rename to channel_keywords`.execute(h.db);
    }
    expect(await counts(h, ['channels'])).toEqual(before);
    expect(await h.db.selectFrom('short_code_leases').select('short_code').where('short_code', '=', '80808').execute()).toEqual([]);
  });
});

describe('enable, disable, update and 99978', () => {
  it('enabling names the missing fields (99999) and checks the connection (99966, 99965)', async () => {
    const bare = (await create({ name: 'Sin credenciales', platform: 'whatsapp', type: 'MO' })).json();
    expect(bare.missing).toEqual(['sender', 'authorizationToken', 'accountSids']);
    const res = await h.op('channels.enable', { token: tokens.manager, params: { id: bare.id } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('99999');
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['sender', 'authorizationToken', 'accountSids']);

    const refused = (await create(freshSms({ sender: '3000000000' }))).json();
    expect((await h.op('channels.enable', { token: tokens.manager, params: { id: refused.id } })).json().code).toBe('99966');
    const unreachable = (await create(freshSms({ sender: '3009999999' }))).json();
    const retry = await h.op('channels.enable', { token: tokens.manager, params: { id: unreachable.id } });
    expect(retry.statusCode).toBe(502);
    expect(retry.json().code).toBe('99965');
    const rows = await h.db.selectFrom('channels').select('enabled').where('id', 'in', [bare.id, refused.id, unreachable.id]).execute();
    expect(rows.every((r) => !r.enabled)).toBe(true);
  });

  it('create with enabled true runs the same checks', async () => {
    const before = await counts(h, ['channels']);
    expect((await create(freshSms({ enabled: true, authorizationToken: null }))).json()).toMatchObject({ code: '99999', errors: [{ field: 'authorizationToken' }] });
    expect((await create(freshSms({ enabled: true, sender: '3010000000' }))).json().code).toBe('99966');
    expect(await counts(h, ['channels'])).toEqual(before);
    expect((await create(freshSms({ enabled: true }))).json().enabled).toBe(true);
  });

  it('an enabled channel keeps its credentials until disabled (99978); other fields change', async () => {
    const channel = (await create(freshSms({ enabled: true }))).json();
    const id = channel.id;
    for (const body of [{ sender: '3205550000' }, { authorizationToken: 'a-new-token-0000000000' }, { authorizationToken: null }, { shortCode: '12345' }]) {
      const res = await h.op('channels.update', { token: tokens.manager, params: { id }, body });
      expect(res.json().code).toBe('99978');
    }
    // The mask sent back unchanged is not a change.
    const same = await h.op('channels.update', { token: tokens.manager, params: { id }, body: { name: 'SMS renombrado', authorizationToken: channel.authorizationToken, priority: 2 } });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ name: 'SMS renombrado', priority: 2, authorizationToken: '••••9999', enabled: true });

    expect((await h.op('channels.disable', { token: tokens.manager, params: { id } })).json().enabled).toBe(false);
    const changed = await h.op('channels.update', { token: tokens.manager, params: { id }, body: { authorizationToken: 'rotated-token-abcdefgh1111' } });
    expect(changed.json().authorizationToken).toBe('••••1111');
    expect((await h.op('channels.enable', { token: tokens.manager, params: { id } })).json().enabled).toBe(true);
  });

  it('a mask that is not the stored one is refused; null clears a secret', async () => {
    const channel = (await create(freshSms())).json();
    const wrong = await h.op('channels.update', { token: tokens.manager, params: { id: channel.id }, body: { authorizationToken: '••••ABCD' } });
    expect(wrong.json()).toMatchObject({ code: '99931', errors: [{ field: 'authorizationToken' }] });
    const cleared = await h.op('channels.update', { token: tokens.manager, params: { id: channel.id }, body: { authorizationToken: null } });
    expect(cleared.json()).toMatchObject({ authorizationToken: null, missing: ['authorizationToken'] });
  });

  it('account SIDs: the secret is masked, kept when its mask comes back, replaced otherwise', async () => {
    const wa = (await create({ name: 'WhatsApp Ventas', platform: 'whatsapp', type: 'MO', sender: '3187654321', authorizationToken: 'EAAW-token-1234567890abc', accountSids: [{ sid: 'WABA1', secret: 'app-secret-0000000000001' }] })).json();
    expect(wa.accountSids).toEqual([{ sid: 'WABA1', secret: '••••0001' }]);
    const kept = await h.op('channels.update', { token: tokens.manager, params: { id: wa.id }, body: { accountSids: [...wa.accountSids, { sid: 'WABA2', secret: 'app-secret-0000000000002' }] } });
    expect(kept.json().accountSids).toEqual([{ sid: 'WABA1', secret: '••••0001' }, { sid: 'WABA2', secret: '••••0002' }]);
    const bad = await h.op('channels.update', { token: tokens.manager, params: { id: wa.id }, body: { accountSids: [{ sid: 'WABA3', secret: '••••0001' }] } });
    expect(bad.json()).toMatchObject({ code: '99931', errors: [{ field: 'accountSids.0.secret' }] });
    const enabled = await h.op('channels.enable', { token: tokens.manager, params: { id: wa.id } });
    expect(enabled.json()).toMatchObject({ enabled: true, missing: [] });
  });

  it('changing the short code moves its keyword routes and frees the old one', async () => {
    const ch = (await create({ name: 'Concurso', platform: 'sms', type: 'MO', shortCode: '87001', keywords: ['GANA'] })).json();
    const moved = await h.op('channels.update', { token: tokens.manager, params: { id: ch.id }, body: { shortCode: '87002', keywords: ['GANA', 'PREMIO'] } });
    expect(moved.json()).toMatchObject({ shortCode: '87002', keywords: ['GANA', 'PREMIO'] });
    expect(await h.db.selectFrom('short_code_leases').select('short_code').where('short_code', 'in', ['87001', '87002']).execute()).toEqual([{ short_code: '87002' }]);
    const clash = await h.op('channels.update', { token: tokens.manager, params: { id: ch.id }, body: { name: 'SMS Notificaciones' } });
    expect(clash.json().code).toBe('99987');
    expect((await h.op('channels.update', { token: tokens.manager, params: { id: ch.id }, body: { type: 'MT' } })).json().code).toBe('99969');
    expect((await h.op('channels.update', { token: tokens.manager, params: { id: ch.id }, body: { keywords: [] } })).json().code).toBe('99971');
  });

  it('update, enable and disable of an unknown id answer 99959', async () => {
    for (const id of ['channels.enable', 'channels.disable'] as const) expect((await h.op(id, { token: tokens.manager, params: { id: 999999 } })).json().code).toBe('99959');
    expect((await h.op('channels.update', { token: tokens.manager, params: { id: 999999 }, body: { name: 'x' } })).json().code).toBe('99959');
  });
});

describe('try, statistics and delete', () => {
  it('the try-channel test sends through the sandbox provider and answers the delivery status', async () => {
    const ch = (await create(freshSms())).json();
    const ok = await h.op('channels.try', { token: tokens.manager, params: { id: ch.id }, body: { to: '300 123 4567', message: 'Hola desde la prueba' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ channelId: ch.id, to: '+573001234567', status: 'DELIVERED', error: null });
    const outbox = await h.outbox('+573001234567');
    expect(outbox[0]).toMatchObject({ channel: 'sms', body: 'Hola desde la prueba' });

    const failed = await h.op('channels.try', { token: tokens.manager, params: { id: ch.id }, body: { to: '3001230000' } });
    expect(failed.json()).toMatchObject({ status: 'FAILED', error: expect.any(String) });

    const stats = (await h.op('channels.stats', { token: tokens.analista, params: { id: ch.id } })).json();
    expect(stats).toEqual({
      channelId: ch.id, alias: ch.name, statsCode: 'sms', color: '#FF6D00', total: 2,
      msgStatus: { sent: 1, delivered: 1, read: 0, failed: 1 },
      statusTypes: [{ status: 'DELIVERED', count: 1 }, { status: 'FAILED', count: 1 }],
    });
  });

  it('try refuses a bad destination (99963), an incomplete channel (99999) and a refused connection (99966)', async () => {
    const ch = (await create(freshSms())).json();
    const before = await counts(h, ['channel_messages']);
    expect((await h.op('channels.try', { token: tokens.manager, params: { id: ch.id }, body: { to: '12345' } })).json().code).toBe('99963');
    expect((await h.op('channels.try', { token: tokens.manager, params: { id: ch.id }, body: { to: "=cmd|' /C calc'!A0" } })).json().code).toBe('99963');
    expect((await h.op('channels.try', { token: tokens.manager, params: { id: ch.id }, body: {} })).json().code).toBe('99999');
    const bare = (await create({ name: 'Incompleto', platform: 'fbMessenger', type: 'MO' })).json();
    expect((await h.op('channels.try', { token: tokens.manager, params: { id: bare.id }, body: { to: '3001234567' } })).json().code).toBe('99999');
    const refused = (await create(freshSms({ sender: '3020000000' }))).json();
    expect((await h.op('channels.try', { token: tokens.manager, params: { id: refused.id }, body: { to: '3001234567' } })).json().code).toBe('99966');
    expect(await counts(h, ['channel_messages'])).toEqual(before);
  });

  it('the demo SMS channel has traffic in its statistics', async () => {
    const list = (await h.op('channels.list', { token: tokens.analista, query: { q: 'Notificaciones' } })).json();
    const stats = (await h.op('channels.stats', { token: tokens.analista, params: { id: list.items[0].id } })).json();
    expect(stats.msgStatus).toEqual({ sent: 5, delivered: 4, read: 1, failed: 1 });
    expect(stats.total).toBe(6);
  });

  it('99973: an enabled channel or one with traffic cannot be deleted; a clean one can', async () => {
    const enabled = (await create(freshSms({ enabled: true }))).json();
    expect((await h.op('channels.delete', { token: tokens.manager, params: { id: enabled.id } })).json().code).toBe('99973');
    const used = (await create(freshSms())).json();
    await h.op('channels.try', { token: tokens.manager, params: { id: used.id }, body: { to: '3001234567' } });
    const before = await counts(h, [...CHANNEL_TABLES]);
    const res = await h.op('channels.delete', { token: tokens.manager, params: { id: used.id } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('99973');
    expect(await counts(h, [...CHANNEL_TABLES])).toEqual(before);

    const clean = (await create({ name: 'Temporal', platform: 'sms', type: 'MO', shortCode: '86001', keywords: ['TEMP'] })).json();
    expect((await h.op('channels.delete', { token: tokens.manager, params: { id: clean.id } })).json()).toEqual({ ok: true });
    expect((await h.op('channels.get', { token: tokens.manager, params: { id: clean.id } })).json().code).toBe('99959');
    expect(await h.db.selectFrom('short_code_leases').select('short_code').where('short_code', '=', '86001').execute()).toEqual([]);
    expect((await h.op('channels.delete', { token: tokens.manager, params: { id: clean.id } })).json().code).toBe('99959');
  });
});

describe('permissions and company isolation', () => {
  it('every channel operation needs its component-60 action (99982); nothing changes', async () => {
    const viewer = await userWithGrants(h, [{ id: 60, actions: ['view'] }]);
    const nobody = await userWithGrants(h, [{ id: 6001, actions: ['view'] }]);
    const id = (await h.op('channels.list', { token: tokens.analista })).json().items[0].id;
    const before = await counts(h, [...CHANNEL_TABLES]);
    const refused = [
      await create(freshSms(), viewer),
      await h.op('channels.update', { token: viewer, params: { id }, body: { name: 'x' } }),
      await h.op('channels.delete', { token: viewer, params: { id } }),
      await h.op('channels.enable', { token: viewer, params: { id } }),
      await h.op('channels.disable', { token: viewer, params: { id } }),
      await h.op('channels.try', { token: viewer, params: { id }, body: { to: '3001234567' } }),
      await h.op('channels.list', { token: nobody }),
      await h.op('channels.get', { token: nobody, params: { id } }),
      await h.op('channels.stats', { token: nobody, params: { id } }),
      await h.op('channels.platforms', { token: nobody }),
    ];
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('99982');
    }
    expect(await counts(h, [...CHANNEL_TABLES])).toEqual(before);
    expect((await h.op('channels.get', { token: viewer, params: { id } })).statusCode).toBe(200);
    expect((await h.op('channels.list', { params: {} })).json().code).toBe('99953');
  });

  it("another company's channel answers 99959 for every operation, never its data", async () => {
    const other = await otherCompany(h, ['sms']);
    const ours = (await h.op('channels.list', { token: tokens.analista })).json();
    const id = ours.items[0].id;
    expect((await h.op('channels.list', { token: other.token })).json()).toEqual({ items: [], total: 0, page: 1, pageSize: 50, next: null });
    const before = await counts(h, [...CHANNEL_TABLES]);
    const answers = [
      await h.op('channels.get', { token: other.token, params: { id } }),
      await h.op('channels.update', { token: other.token, params: { id }, body: { name: 'Robado' } }),
      await h.op('channels.delete', { token: other.token, params: { id } }),
      await h.op('channels.enable', { token: other.token, params: { id } }),
      await h.op('channels.disable', { token: other.token, params: { id } }),
      await h.op('channels.stats', { token: other.token, params: { id } }),
      await h.op('channels.try', { token: other.token, params: { id }, body: { to: '3001234567' } }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('99959');
      expect(res.body).not.toContain(ours.items[0].name);
    }
    expect(await counts(h, [...CHANNEL_TABLES])).toEqual(before);
    expect(await demoCompanyId(h)).not.toBe(other.companyId);
  });
});
