// The HTTP channels end to end in a real server (startServer on port 0, sandbox mode, PGlite or
// PostgreSQL with DATABASE_URL): messages sent with the demo's DEMO_API_KEY through
// POST /v1/messages leave through the Graph and RBM stand-ins, whose signed webhooks come back
// through our real routes — WhatsApp to READ (and refused without a request outside the 24-hour
// window), Messenger by watermark receipts only, RCS to READ over the JWT grant with the demo's
// RSA key, and RCS to a non-RCS number falling back to SMS over SMPP — while every status change
// is POSTed, signed, to a callback server of the test that fails the first attempt.
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSession } from '../../src/core/session-codec.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import { DemoApiKeyError, ensureDemoApiKey } from '../../src/server/db/demo-api-key.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import type { DatabaseOptions } from '../../src/server/db/database.ts';
import { hashSecret } from '../../src/server/security/api-keys.ts';
import { startServer, type RunningServer } from '../../src/server/start.ts';
import { TEST_PASSWORD, testDatabase } from './harness.ts';
import { until } from './until.ts';

const NON_RCS = '+573005550001';
const DEMO_API_KEY = `ck_${randomBytes(12).toString('base64url')}.${randomBytes(32).toString('base64url')}`;

let server: RunningServer;
let dropSchema = async () => {};
const callbacks: { headers: IncomingHttpHeaders; body: string; answered: number }[] = [];
let receiver: Server;
let receiverUrl: string;

async function database(): Promise<DatabaseOptions> {
  const { options, drop } = await testDatabase();
  dropSchema = drop;
  return options;
}

beforeAll(async () => {
  // The company's callback endpoint: the very first request fails with 500, the rest succeed.
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const answered = callbacks.length === 0 ? 500 : 200;
      callbacks.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), answered });
      response.writeHead(answered).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/colibri/estados`;
  server = await startServer({
    port: 0,
    sandbox: true,
    database: await database(),
    demoPassword: TEST_PASSWORD,
    demoApiKey: DEMO_API_KEY,
    consoleRoot: null,
    // The company's callback receiver is on this machine: a sandbox target named explicitly.
    sandboxPrivateTargets: [new URL(receiverUrl).host],
    messaging: {
      dispatcher: { idleMs: 20 },
      rbm: { nonRcsNumbers: [NON_RCS] },
      // Messenger receipts carry only the watermark: the sink must find the messages itself.
      graph: { messengerMids: false },
      callbacks: { pollMs: 20, baseDelayMs: 50, maxDelayMs: 100 },
    },
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await dropSchema();
});

const pathOf = (id: string) => serverOperations.find((o) => o.id === id)!.path;

async function api(method: string, path: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const send = (body: Record<string, unknown>) => api('POST', pathOf('messages.send'), body, { authorization: `Bearer ${DEMO_API_KEY}` });


const messageRow = (id: string | number) => server.db.selectFrom('messages' as never).selectAll().where('id' as never, '=', Number(id) as never).executeTakeFirstOrThrow() as Promise<Record<string, any>>;
const reaches = (id: string, state: string) => until(`message ${id} ${state}`, async () => {
  const row = await messageRow(id);
  return row.state === state ? row : null;
});

describe('DEMO_API_KEY', () => {
  it('is a credential of the demo company stored as a hash, usable from loopback', async () => {
    const [id, secret] = DEMO_API_KEY.split('.');
    const row = await server.db.selectFrom('api_credentials').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(hashSecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(server.demoApiKey).toEqual({ id, revoked: false });
    const settings = await server.db.selectFrom('api_settings').select('allowed_ips').where('company_id', '=', row.company_id).executeTakeFirstOrThrow();
    expect(settings.allowed_ips).toEqual(['127.0.0.1/32', '::1/128']);
  });

  it('refuses a malformed key without repeating it', async () => {
    const bad = 'ck_corta.secreto-demasiado-corto';
    const error = await ensureDemoApiKey(server.db, bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DemoApiKeyError);
    expect((error as Error).message).not.toContain('secreto');
  });
});

describe('HTTP channels through the stand-ins and our webhook routes', () => {
  beforeAll(async () => {
    const signin = await api('POST', pathOf('clientAuth.signin'), { email: demoEmail('manager'), password: TEST_PASSWORD }, {});
    const token = decodeSession(signin.json.clientToken)!.token;
    const settings = await api('PUT', pathOf('messagingSettings.update'), { callbackUrl: receiverUrl, sendWindowProfile: 'law2300', duplicateWindowHours: 24, smsFallbackChannelId: null }, { 'x-auth-token': token });
    expect(settings.status).toBe(200);
    callbackSecret = settings.json.callbackSecret;
    expect(callbackSecret).toMatch(/^whsec_/);
  });
  let callbackSecret = '';

  it('WhatsApp: free text outside the 24-hour window goes as the approved template it reads as, else fails with 1005 without a request to Graph', async () => {
    const res = await send({ channel: 'whatsapp', to: '3004440001', text: 'Hola, ¿en qué podemos ayudarte?' });
    expect(res.status).toBe(200);
    const row = await reaches(res.json.messages[0].id, 'failed');
    expect(row.error_code).toBe('1005');
    expect(server.messaging!.graph!.requests.filter((r) => JSON.stringify(r.body).includes('573004440001'))).toEqual([]);
    // The channel's approved notice, written out: it goes as that template, its variables read from the text.
    const notice = await send({ channel: 'whatsapp', to: '3004440001', text: 'Hola Ana,  tu pedido 4521 va en camino. Gracias por comprar con nosotros.' });
    await until('the notice accepted by Graph', async () => (['sent', 'delivered', 'read'].includes((await messageRow(notice.json.messages[0].id)).state) ? true : null));
    const posted = server.messaging!.graph!.requests.filter((r) => (r.body as { to?: string }).to === '573004440001').map((r) => r.body);
    expect(posted).toEqual([expect.objectContaining({
      type: 'template', template: { name: 'colibri_aviso', language: { policy: 'deterministic', code: 'es_CO' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: '4521' }] }] },
    })]);
  });

  it('WhatsApp: after the customer writes, a text reaches READ through signed webhooks', async () => {
    const graph = server.messaging!.graph!;
    const inbound = await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from: '+573004440002', text: 'Hola' });
    expect(inbound.answer?.status).toBe(200);
    const res = await send({ channel: 'whatsapp', to: '3004440002', text: 'Tu pedido 123 va en camino' });
    const id = res.json.messages[0].id;
    const row = await reaches(id, 'read');
    expect(row.delivery_status).toBe('READ');
    expect(row.provider_message_id).toMatch(/^wamid\./);
    // Every stand-in webhook was accepted by our route (signature over the raw body).
    await graph.idle();
    expect(graph.deliveries.length).toBeGreaterThanOrEqual(4);
    expect(graph.deliveries.every((d) => d.answer?.status === 200)).toBe(true);
  });

  it('Messenger: watermark-only receipts take the message to READ', async () => {
    const graph = server.messaging!.graph!;
    const psid = '2212345678901234';
    await graph.injectMessengerInbound({ pageId: '104857600123456', psid, text: 'Hola' });
    const res = await send({ channel: 'fbMessenger', to: psid, text: 'Gracias por escribirnos' });
    const id = res.json.messages[0].id;
    const row = await reaches(id, 'read');
    expect(row.delivery_status).toBe('READ');
    await graph.idle();
    const receipts = graph.deliveries.filter((d) => d.target === '104857600123456' && /"(delivery|read)"/.test(d.body));
    expect(receipts.length).toBe(2);
    expect(receipts.every((d) => !d.body.includes('"mids"') && d.answer?.status === 200)).toBe(true);
  });

  it('RCS: a capable number gets the message over the JWT grant and reaches READ', async () => {
    const res = await send({ channel: 'rcs', to: '3005550002', text: 'Tu cita es mañana a las 9:00' });
    const row = await reaches(res.json.messages[0].id, 'read');
    expect(row.delivery_status).toBe('READ');
    const rbm = server.messaging!.rbm!;
    expect(rbm.sent.filter((s) => s.phone === '+573005550002')).toHaveLength(1);
    expect(rbm.requests.some((r) => r.kind === 'token' && r.status === 200)).toBe(true);
  });

  it('RCS: a number without RCS falls back to SMS and is delivered over SMPP', async () => {
    const res = await send({ channel: 'rcs', to: NON_RCS.slice(3), text: 'Tu código de acceso vence hoy' });
    const row = await reaches(res.json.messages[0].id, 'delivered');
    const channel = await server.db.selectFrom('channels').select(['platform', 'name']).where('id', '=', row.channel_id).executeTakeFirstOrThrow();
    expect(channel.platform).toBe('sms');
    expect(server.messaging!.smsc!.messagesTo(NON_RCS.slice(1))).toHaveLength(1);
    expect(server.messaging!.rbm!.sent.filter((s) => s.phone === NON_RCS)).toEqual([]);
    const events = await server.db.selectFrom('message_events' as never).select(['detail' as never]).where('message_id' as never, '=', row.id as never).execute() as { detail: string | null }[];
    expect(events.map((e) => e.detail)).toContain('fallback to SMS');
  });

  it('status callbacks arrive signed over the exact body, and a 500 is retried', async () => {
    const sent = (await server.db.selectFrom('messages').select(['id', 'state']).where('source', '=', 'api').execute()).filter((m) => ['read', 'delivered'].includes(m.state));
    // Every final status has reached the receiver with a 2xx.
    await until('the callbacks of every final status', async () => {
      const ok = callbacks.filter((c) => c.answered === 200).map((c) => JSON.parse(c.body) as { id: string; state: string });
      return sent.every((m) => ok.some((c) => c.id === String(m.id) && c.state === m.state));
    });
    for (const c of callbacks) {
      expect(c.headers['x-colibri-signature']).toBe(`sha256=${createHmac('sha256', callbackSecret).update(c.body).digest('hex')}`);
      expect(Math.abs(Number(c.headers['x-colibri-timestamp']) - Date.now() / 1000)).toBeLessThan(600);
      expect(JSON.parse(c.body)).toMatchObject({ id: expect.any(String), state: expect.any(String), deliveryStatus: expect.any(String), at: expect.any(String) });
    }
    const failed = callbacks[0];
    expect(failed.answered).toBe(500);
    const retried = callbacks.find((c, i) => i > 0 && c.headers['x-colibri-delivery'] === failed.headers['x-colibri-delivery']);
    expect(retried?.answered).toBe(200);
    expect(retried?.body).toBe(failed.body);
    const row = await until('the retried callback row delivered', () => server.db.selectFrom('status_callbacks').selectAll().where('id', '=', Number(failed.headers['x-colibri-delivery'])).where('delivered_at', 'is not', null).executeTakeFirst());
    expect(row.attempts).toBe(2);
    expect(row.last_error).toBeNull();
  });
});
