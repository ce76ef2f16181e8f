// Events (/Campaigns/events, schemas/api/events.yaml) on the database (PGlite, or PostgreSQL with
// DATABASE_URL): CRUD with the catalogue's codes, company scoping, permissions per menu.yaml
// (component 2001), and POST /v1/events/{key}/fire with a Bearer API key — variables filled, missing
// ones refused (99924), disabled (99919) and unknown (99959) events, another company's key,
// Idempotency-Key retries, batches, the counters and the send window by purpose. The last part
// runs a real server (sandbox SMSC, DEMO_API_KEY) and proves the SMSC receives the filled text
// once, even when the same fire is retried concurrently.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSession } from '../../src/core/session-codec.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import type { DatabaseOptions } from '../../src/server/db/database.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { startServer, type RunningServer } from '../../src/server/start.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { TEST_PASSWORD, testDatabase } from './harness.ts';
import { apiKeyOf, userWithGrants } from './messaging-fixtures.ts';
import { until } from './until.ts';
import { nextBogotaSunday } from './bogota-days.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let smsChannelId: number;
let whatsappChannelId: number;
let apiKey: string;

const ANDINA = 'superadmin@andina.demo.colibri.co';
const CONTENT = 'Hola {{nombre}}, tu pedido {{pedido}} va en camino';

beforeAll(async () => {
  const channels = (await h.op('channels.list', { token: tokens.manager, query: { enabled: 'true', pageSize: 200 } })).json();
  smsChannelId = channels.items.find((c: { platform: string; type: string }) => c.platform === 'sms' && c.type === 'MT').id;
  whatsappChannelId = channels.items.find((c: { platform: string }) => c.platform === 'whatsapp').id;
  apiKey = await apiKeyOf(h, tokens.manager, 'ERP pedidos');
});

const create = (body: Record<string, unknown>, token = tokens.manager) =>
  h.op('events.create', { token, body: { name: 'Pedido enviado', channelId: smsChannelId, purpose: 'transactional', ...body } });
const fire = (key: string, body: unknown, headers: Record<string, string> = {}, key2 = apiKey) =>
  h.op('events.fire', { params: { key }, body, headers: { authorization: `Bearer ${key2}`, ...headers } });
const eventRow = (key: string) => h.db.selectFrom('events').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
const messagesOf = async (eventId: number) =>
  (await h.db.selectFrom('messages').selectAll().execute()).filter((m) => Number((m as Record<string, unknown>).event_id) === eventId);

describe('events: definitions', () => {
  it('creates, reads, lists, edits and deletes an event, with the catalogue codes', async () => {
    const ok = await create({ key: 'pedido.enviado', content: CONTENT });
    expect(ok.statusCode).toBe(200);
    const event = ok.json();
    expect(event).toMatchObject({
      key: 'pedido.enviado', name: 'Pedido enviado', channelId: smsChannelId, platform: 'sms', purpose: 'transactional', content: CONTENT,
      templateName: null, variables: ['nombre', 'pedido'], enabled: true, fired: 0, lastFiredAt: null,
    });
    // The ready-to-copy call names the event and every variable.
    expect(event.exampleCall).toContain("curl -X POST 'http://localhost:80/v1/events/pedido.enviado/fire'");
    expect(event.exampleCall).toContain('Authorization: Bearer $COLIBRI_API_KEY');
    expect(event.exampleCall).toContain(`-d '{"to":"3001234567","variables":{"nombre":"valor","pedido":"valor"}}'`);

    // Unique per company (99979 on the key), a key of the declared shape, and the content rules.
    expect((await create({ key: 'pedido.enviado', content: 'Otro' })).json()).toMatchObject({ code: '99979', errors: [{ field: 'key' }] });
    expect((await create({ key: 'Pedido Enviado', content: 'x' })).statusCode).toBe(400);
    expect((await create({ key: 'sin.mensaje' })).json()).toMatchObject({ code: '99999', errors: [{ field: 'content' }] });
    expect((await create({ key: 'llaves', content: 'Hola {{nombre}' })).json()).toMatchObject({ code: '99924', errors: [{ field: 'content' }] });
    expect((await create({ key: 'enlace', content: 'Mira https://tienda.example.com/promo' })).json()).toMatchObject({ code: '99925', errors: [{ field: 'content' }] });
    expect((await create({ key: 'plantilla.sms', templateName: 'pedido_enviado', templateLanguage: 'es' })).json()).toMatchObject({ code: '99931', errors: [{ field: 'templateName' }] });
    expect((await create({ key: 'ambos', channelId: whatsappChannelId, content: 'x', templateName: 'pedido_enviado', templateLanguage: 'es' })).json().code).toBe('99931');
    expect((await create({ key: 'canal', channelId: 999999, content: 'x' })).json()).toMatchObject({ code: '99972', errors: [{ field: 'channelId' }] });

    // A WhatsApp template whose parameters hold variables.
    const wa = (await create({ key: 'cita.recordatorio', name: 'Recordatorio de cita', channelId: whatsappChannelId, templateName: 'recordatorio_cita', templateLanguage: 'es_CO', templateParameters: ['{{nombre}}', '{{hora}}'] })).json();
    expect(wa).toMatchObject({ platform: 'whatsapp', content: null, templateName: 'recordatorio_cita', templateLanguage: 'es_CO', variables: ['nombre', 'hora'] });

    const list = (await h.op('events.list', { token: tokens.manager, query: { q: 'pedido' } })).json();
    expect(list.items.map((e: { key: string }) => e.key)).toEqual(['pedido.enviado']);
    expect((await h.op('events.list', { token: tokens.manager, query: { purpose: 'transactional', sort: 'key' } })).json().total).toBe(2);
    expect((await h.op('events.get', { token: tokens.manager, params: { id: event.id } })).json().key).toBe('pedido.enviado');

    // Edit: a new key and a new text (its variables follow); then a template replaces the text.
    const edited = (await h.op('events.update', { token: tokens.manager, params: { id: wa.id }, body: { key: 'cita.aviso', templateParameters: ['{{nombre}}'] } })).json();
    expect(edited).toMatchObject({ key: 'cita.aviso', variables: ['nombre'], templateName: 'recordatorio_cita' });
    const toText = (await h.op('events.update', { token: tokens.manager, params: { id: wa.id }, body: { content: 'Hola {{nombre}}, te esperamos' } })).json();
    expect(toText).toMatchObject({ content: 'Hola {{nombre}}, te esperamos', templateName: null, templateParameters: [] });
    expect((await h.op('events.update', { token: tokens.manager, params: { id: wa.id }, body: { key: 'pedido.enviado' } })).json().code).toBe('99979');
    expect((await h.op('events.delete', { token: tokens.manager, params: { id: wa.id } })).json()).toEqual({ ok: true });
    expect((await h.op('events.get', { token: tokens.manager, params: { id: wa.id } })).json().code).toBe('99959');
    expect((await h.op('events.delete', { token: tokens.manager, params: { id: wa.id } })).json().code).toBe('99959');
  });

  it('keeps events inside their company', async () => {
    const andina = (await h.signin(ANDINA)).token;
    const ours = await eventRow('pedido.enviado');
    expect((await h.op('events.list', { token: andina })).json()).toMatchObject({ items: [], total: 0 });
    expect((await h.op('events.get', { token: andina, params: { id: ours.id } })).json().code).toBe('99959');
    expect((await h.op('events.update', { token: andina, params: { id: ours.id }, body: { name: 'Robado' } })).json().code).toBe('99959');
    expect((await h.op('events.delete', { token: andina, params: { id: ours.id } })).json().code).toBe('99959');
    // Another company's channel is not one of ours.
    expect((await create({ key: 'ajeno', content: 'x' }, andina)).json()).toMatchObject({ code: '99972', errors: [{ field: 'channelId' }] });
    expect((await eventRow('pedido.enviado')).name).toBe('Pedido enviado');
  });

  it('follows menu.yaml: component 2001 (analistas write campaigns, so events); view alone cannot write or fire', async () => {
    const analista = (await h.as('analista')).token;
    const mine = await create({ key: 'analista.prueba', content: 'Prueba' }, analista);
    expect(mine.statusCode).toBe(200);
    expect((await h.op('events.delete', { token: analista, params: { id: mine.json().id } })).statusCode).toBe(200);

    const viewer = await userWithGrants(h, [{ id: 2001, actions: ['view'] }]);
    expect((await h.op('events.list', { token: viewer })).statusCode).toBe(200);
    const ours = await eventRow('pedido.enviado');
    expect((await create({ key: 'solo.ver', content: 'x' }, viewer)).json().code).toBe('99982');
    expect((await h.op('events.update', { token: viewer, params: { id: ours.id }, body: { name: 'x' } })).json().code).toBe('99982');
    expect((await h.op('events.delete', { token: viewer, params: { id: ours.id } })).json().code).toBe('99982');
    expect((await h.op('events.fire', { token: viewer, params: { key: 'pedido.enviado' }, body: { to: '3001234567', variables: { nombre: 'A', pedido: 'B' } } })).json().code).toBe('99982');
    const outsider = await userWithGrants(h, [{ id: 6003, actions: ['view'] }]);
    expect((await h.op('events.list', { token: outsider })).json().code).toBe('99982');
    expect((await h.op('events.fire', { params: { key: 'pedido.enviado' }, body: { to: '3001234567' } })).statusCode).toBe(401);
  });
});

describe('events: firing through the public API', () => {
  it('fills the variables, enqueues an API message and raises the counters', async () => {
    const event = await eventRow('pedido.enviado');
    const res = await fire('pedido.enviado', { to: '300 765 4321', variables: { nombre: 'Ana', pedido: 'A-17' }, reference: 'orden-17' });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.event).toBe('pedido.enviado');
    expect(answer.messages).toEqual([expect.objectContaining({ channel: 'sms', to: '+573007654321', state: 'queued', statusCode: 1, clientRef: 'orden-17' })]);
    const [row] = await messagesOf(event.id);
    expect(row).toMatchObject({ body: 'Hola Ana, tu pedido A-17 va en camino', source: 'api', purpose: 'transactional', channel_id: smsChannelId, held_reason: null });
    expect(String(row.id)).toBe(answer.messages[0].id);
    expect(row.api_credential_id).toBe(apiKey.split('.')[0]);
    const after = (await h.op('events.get', { token: tokens.manager, params: { id: event.id } })).json();
    expect(after).toMatchObject({ fired: 1, lastFiredAt: h.clock.now.toISOString() });
  });

  it('refuses a missing variable (99924 naming it), a disabled event (99919) and an unknown key (99959) — and sends nothing', async () => {
    const event = await eventRow('pedido.enviado');
    const before = await h.count('messages');
    const missing = await fire('pedido.enviado', { to: '3007654322', variables: { nombre: 'Ana', pedido: '' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: '99924', errors: [{ field: 'variables/pedido' }] });
    const batch = await fire('pedido.enviado', { recipients: [{ to: '3007654323', variables: { nombre: 'A', pedido: '1' } }, { to: '3007654324', variables: { pedido: '2' } }] });
    expect(batch.json()).toMatchObject({ code: '99924', errors: [{ field: 'recipients/1/variables/nombre' }] });
    expect((await fire('pedido.enviado', { variables: { nombre: 'A', pedido: '1' } })).json()).toMatchObject({ code: '99999', errors: [{ field: 'to' }] });
    expect((await fire('pedido.enviado', { to: '12', variables: { nombre: 'A', pedido: '1' } })).json().code).toBe('99963');

    await h.op('events.update', { token: tokens.manager, params: { id: event.id }, body: { enabled: false } });
    const disabled = await fire('pedido.enviado', { to: '3007654325', variables: { nombre: 'A', pedido: '1' } });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().code).toBe('99919');
    await h.op('events.update', { token: tokens.manager, params: { id: event.id }, body: { enabled: true } });
    const unknown = await fire('pedido.perdido', { to: '3007654325', variables: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('99959');
    expect(await h.count('messages')).toBe(before);
    expect((await h.op('events.get', { token: tokens.manager, params: { id: event.id } })).json().fired).toBe(1);
  });

  it("another company's API key cannot fire this company's event", async () => {
    const andina = (await h.signin(ANDINA)).token;
    const theirKey = await apiKeyOf(h, andina, 'ERP Andina');
    const before = await h.count('messages');
    const res = await fire('pedido.enviado', { to: '3007654326', variables: { nombre: 'A', pedido: '1' } }, {}, theirKey);
    expect(res.json().code).toBe('99959');
    expect(await h.count('messages')).toBe(before);
  });

  it('sends once for a retried Idempotency-Key and answers the first messages again', async () => {
    const event = await eventRow('pedido.enviado');
    const body = { to: '3007654327', variables: { nombre: 'Luis', pedido: 'B-2' } };
    const first = await fire('pedido.enviado', body, { 'idempotency-key': 'pedido-B-2' });
    expect(first.statusCode).toBe(200);
    // The same body with its keys in another order is the same request.
    const retry = await fire('pedido.enviado', { variables: { pedido: 'B-2', nombre: 'Luis' }, to: '3007654327' }, { 'idempotency-key': 'pedido-B-2' });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().messages.map((m: { id: string }) => m.id)).toEqual(first.json().messages.map((m: { id: string }) => m.id));
    expect((await messagesOf(event.id)).filter((m) => m.to_number === '+573007654327')).toHaveLength(1);
    expect((await h.op('events.get', { token: tokens.manager, params: { id: event.id } })).json().fired).toBe(2);
    // The key belongs to that request: another body with it is refused; a bad key too.
    expect((await fire('pedido.enviado', { ...body, to: '3007654328' }, { 'idempotency-key': 'pedido-B-2' })).json()).toMatchObject({ code: '99931', errors: [{ field: 'Idempotency-Key' }] });
    expect((await fire('pedido.enviado', body, { 'idempotency-key': 'con espacio' })).json()).toMatchObject({ code: '99931', errors: [{ field: 'Idempotency-Key' }] });
    // After 24 hours the key is forgotten (so is the duplicate rule's window): the fire sends again.
    h.clock.advance(24 * 3_600_000 + 1000);
    const later = await fire('pedido.enviado', body, { 'idempotency-key': 'pedido-B-2' });
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json().messages).toEqual([expect.objectContaining({ state: 'queued', statusCode: 1 })]);
    expect(later.json().messages[0].id).not.toBe(first.json().messages[0].id);
    // Expired keys are dropped as the company uses new ones: the table keeps one day.
    const kept = await h.db.selectFrom('idempotency_keys').select(['key', 'created_at']).execute();
    expect(kept.map((k) => [k.key, k.created_at.toISOString()])).toEqual([['pedido-B-2', h.clock.now.toISOString()]]);
  });

  it('fires a batch: the block list, invalid numbers and the duplicate rule judge each recipient', async () => {
    const event = await eventRow('pedido.enviado');
    const firedBefore = Number(event.fired_count);
    const res = await fire('pedido.enviado', {
      recipients: [
        { to: '3001112233', variables: { nombre: 'Bloqueado', pedido: '1' } },
        { to: 'abc', variables: { nombre: 'Malo', pedido: '2' } },
        { to: '3007654330', variables: { nombre: 'Eva', pedido: '3' }, reference: 'r3' },
        { to: '3007654330', variables: { nombre: 'Eva', pedido: '3' } },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().messages.map((m: { statusCode: number }) => m.statusCode)).toEqual([5, 94, 1, 93]);
    expect(res.json().messages[2].clientRef).toBe('r3');
    expect(Number((await eventRow('pedido.enviado')).fired_count)).toBe(firedBefore + 4);
  });

  it('lets transactional and OTP events pass the send window; a commercial event waits for it', async () => {
    // The next Sunday at 10:00 in Bogotá (UTC-5): Ley 2300 allows no commercial message on Sundays.
    const now = h.clock.now;
    const sunday = nextBogotaSunday(now);
    h.clock.now = sunday;
    const token = (await h.as('manager')).token;
    await create({ key: 'promo.semana', name: 'Promoción', purpose: 'commercial', content: 'Hola {{nombre}}, esta semana tienes 10% de descuento' }, token);
    await create({ key: 'codigo.acceso', name: 'Código', purpose: 'otp', content: 'Tu código es {{codigo}}' }, token);
    const promo = (await fire('promo.semana', { to: '3007654331', variables: { nombre: 'Ana' } })).json().messages[0];
    expect(promo.state).toBe('queued');
    expect(new Date(promo.notBefore).getTime()).toBeGreaterThan(sunday.getTime());
    const otp = (await fire('codigo.acceso', { to: '3007654331', variables: { codigo: 482913 } })).json().messages[0];
    expect(otp).toMatchObject({ state: 'queued', notBefore: sunday.toISOString() });
    const rows = await h.db.selectFrom('messages').select(['body', 'held_reason']).where('to_number', '=', '+573007654331').orderBy('id').execute();
    expect(rows).toEqual([
      { body: 'Hola Ana, esta semana tienes 10% de descuento', held_reason: 'sendWindow' },
      { body: 'Tu código es 482913', held_reason: null },
    ]);
  });
});

// ---- A real server: the sandbox SMSC receives the filled text, once ----

const DEMO_API_KEY = `ck_${randomBytes(12).toString('base64url')}.${randomBytes(32).toString('base64url')}`;

describe('events: a real server and the sandbox SMSC', () => {
  let server: RunningServer;
  let dropSchema = async () => {};

  async function database(): Promise<DatabaseOptions> {
    const { options, drop } = await testDatabase();
    dropSchema = drop;
    return options;
  }

  beforeAll(async () => {
    server = await startServer({
      port: 0, sandbox: true, database: await database(), demoPassword: TEST_PASSWORD, demoApiKey: DEMO_API_KEY, consoleRoot: null,
      messaging: { dispatcher: { idleMs: 20 } },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await dropSchema();
  });

  const pathOf = (id: string) => serverOperations.find((o) => o.id === id)!.path;
  async function api(method: string, path: string, body: unknown, headers: Record<string, string>) {
    const response = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  }

  it('delivers the event with its variables filled, and a concurrent retry with the same Idempotency-Key sends once', async () => {
    const signin = await api('POST', pathOf('clientAuth.signin'), { email: demoEmail('manager'), password: TEST_PASSWORD }, {});
    const auth = { 'x-auth-token': decodeSession(signin.json.clientToken)!.token };
    const channels = await api('GET', `${pathOf('channels.list')}?platform=sms&enabled=true`, undefined, auth);
    const channel = channels.json.items.find((c: { type: string }) => c.type === 'MT');
    const created = await api('POST', pathOf('events.create'), { key: 'envio.despachado', name: 'Envío despachado', channelId: channel.id, purpose: 'transactional', content: 'Hola {{nombre}}, tu envío {{guia}} salió hoy' }, auth);
    expect(created.status).toBe(200);
    // The example call names the address the console reached the server at and the declared fire path.
    const firePath = pathOf('events.fire').replace('{key}', 'envio.despachado');
    expect(firePath).toBe('/v1/events/envio.despachado/fire');
    expect(created.json.exampleCall).toContain(`curl -X POST '${server.url}${firePath}'`);

    const bearer = { authorization: `Bearer ${DEMO_API_KEY}` };
    const body = { to: '3004440123', variables: { nombre: 'Camila', guia: 'GU-998' } };
    const answers = await Promise.all([1, 2, 3].map(() => api('POST', firePath, body, { ...bearer, 'idempotency-key': 'despacho-GU-998' })));
    for (const a of answers) expect(a.status).toBe(200);
    const ids = new Set(answers.map((a) => a.json.messages[0].id));
    expect(ids.size).toBe(1);

    const received = await until('the SMSC receives the event', () => server.messaging!.smsc!.messagesTo('573004440123').length ? server.messaging!.smsc!.messagesTo('573004440123') : null);
    expect(received.map((m) => m.text)).toEqual(['Hola Camila, tu envío GU-998 salió hoy']);
    const id = [...ids][0];
    await until('the message is delivered', async () => {
      const status = await api('GET', pathOf('messages.get').replace('{id}', id), undefined, bearer);
      return status.json.state === 'delivered';
    });
    // Another fire after delivery with the same key still sends nothing.
    const again = await api('POST', firePath, body, { ...bearer, 'idempotency-key': 'despacho-GU-998' });
    expect(again.json.messages[0]).toMatchObject({ id, state: 'delivered' });
    expect(server.messaging!.smsc!.messagesTo('573004440123')).toHaveLength(1);
    const event = await api('GET', pathOf('events.get').replace('{id}', String(created.json.id)), undefined, auth);
    expect(event.json).toMatchObject({ fired: 1 });
    expect(event.json.lastFiredAt).not.toBeNull();
  });
});
