// The webhook routes through fastify.inject with an in-memory sink: unknown channel 404, the
// handshakes, signatures checked over the raw bytes (401 with 99953 and nothing reaches the
// sink), good deliveries answered 200 after the sink ran, sink failures answered 500, replays
// passed on with the same dedupe key.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboundEvent, ReceiptSink, StatusEvent } from '../../src/engine/channel-adapter.ts';
import { signRbmData } from '../../src/engine/channels/rcs/webhook.ts';
import { signMetaPayload } from '../../src/engine/channels/shared/meta-signature.ts';
import { metaJson } from '../../src/sandbox/graph/index.ts';
import { webhookRoutes, type ChannelWebhookSecrets, type WebhookPlatform } from '../../src/server/webhooks/index.ts';

const APP_SECRET = 'meta-app-secret';
const CLIENT_TOKEN = 'rbm-client-token';

class MemorySink implements ReceiptSink {
  statuses: [number, StatusEvent][] = [];
  inbounds: [number, InboundEvent][] = [];
  failWith: Error | null = null;
  status(channelId: number, event: StatusEvent) {
    if (this.failWith) throw this.failWith;
    this.statuses.push([channelId, event]);
  }
  inbound(channelId: number, event: InboundEvent) {
    if (this.failWith) throw this.failWith;
    this.inbounds.push([channelId, event]);
  }
}

const channels: Record<string, ChannelWebhookSecrets> = {
  'whatsapp:7': { appSecret: APP_SECRET, verifyToken: 'verify-wa' },
  'fbMessenger:8': { appSecret: APP_SECRET, verifyToken: 'verify-fb' },
  'rcs:9': { clientToken: CLIENT_TOKEN },
};

let app: FastifyInstance;
let sink: MemorySink;
let logged: string[];

beforeEach(async () => {
  sink = new MemorySink();
  logged = [];
  const stream = { write: (line: string) => logged.push(line) };
  app = Fastify({ logger: { level: 'error', stream } });
  // The rest of the server parses JSON as usual; the plugin's raw parser stays inside it.
  app.post('/elsewhere', async (request) => ({ parsed: request.body }));
  await app.register(webhookRoutes, { sink, channelSecrets: async (platform: WebhookPlatform, id: number) => channels[`${platform}:${id}`] ?? null });
  await app.ready();
});
afterEach(() => app.close());

const statusPayload = (id = 'wamid.ABC', status = 'delivered') => ({
  object: 'whatsapp_business_account',
  entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '573001000001', phone_number_id: '1065' }, statuses: [{ id, status, timestamp: '1750263773', recipient_id: '573001234567' }] } }] }],
});

const postMeta = (path: string, body: string, signature = signMetaPayload(APP_SECRET, body)) =>
  app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, payload: body });

describe('Meta routes', () => {
  it('answer the GET handshake with the raw challenge, or 403', async () => {
    const ok = await app.inject({ method: 'GET', url: '/v1/webhooks/whatsapp/7?hub.mode=subscribe&hub.verify_token=verify-wa&hub.challenge=987654' });
    expect([ok.statusCode, ok.body, ok.headers['content-type']]).toEqual([200, '987654', 'text/plain; charset=utf-8']);
    const wrong = await app.inject({ method: 'GET', url: '/v1/webhooks/messenger/8?hub.mode=subscribe&hub.verify_token=verify-wa&hub.challenge=1' });
    expect(wrong.statusCode).toBe(403);
    const messenger = await app.inject({ method: 'GET', url: '/v1/webhooks/messenger/8?hub.mode=subscribe&hub.verify_token=verify-fb&hub.challenge=abc' });
    expect([messenger.statusCode, messenger.body]).toEqual([200, 'abc']);
  });

  it('answer 404 for an unknown channel, a channel of another platform or a malformed id', async () => {
    for (const url of ['/v1/webhooks/whatsapp/99', '/v1/webhooks/whatsapp/8', '/v1/webhooks/whatsapp/abc', '/v1/webhooks/rcs/7']) {
      const response = await postMeta(url, metaJson(statusPayload()));
      expect(response.statusCode, url).toBe(404);
      expect(response.json().code).toBe('99936');
    }
    expect(sink.statuses).toEqual([]);
  });

  it('refuse a forged or missing signature with 401 99953 and pass nothing on', async () => {
    const body = metaJson(statusPayload());
    for (const signature of [signMetaPayload('not-the-secret', body), '', 'sha256=zz']) {
      const response = await postMeta('/v1/webhooks/whatsapp/7', body, signature);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: '99953' });
    }
    expect(sink.statuses).toEqual([]);
  });

  it('verify the exact bytes: a \\u00f1-escaped body passes; the same JSON re-serialised with the old signature fails', async () => {
    const payload = {
      object: 'whatsapp_business_account',
      entry: [{ id: '1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '573001000001', phone_number_id: '1065' }, contacts: [{ profile: { name: 'Begoña' }, wa_id: '573001234567' }], messages: [{ from: '573001234567', id: 'wamid.IN', timestamp: '1750263773', type: 'text', text: { body: 'Señor, ¿mañana?' } }] } }] }],
    };
    const escaped = metaJson(payload);
    const signature = signMetaPayload(APP_SECRET, escaped);
    const good = await postMeta('/v1/webhooks/whatsapp/7', escaped, signature);
    expect(good.statusCode).toBe(200);
    expect(sink.inbounds).toEqual([[7, { to: '+573001000001', from: '+573001234567', text: 'Señor, ¿mañana?', providerMessageId: 'wamid.IN', at: new Date(1750263773000) }]]);
    const reserialised = await postMeta('/v1/webhooks/whatsapp/7', JSON.stringify(payload), signature);
    expect(reserialised.statusCode).toBe(401);
    expect(sink.inbounds).toHaveLength(1);
  });

  it('pass a replayed delivery on with the same dedupe key', async () => {
    const body = metaJson(statusPayload('wamid.R', 'read'));
    expect((await postMeta('/v1/webhooks/whatsapp/7', body)).statusCode).toBe(200);
    expect((await postMeta('/v1/webhooks/whatsapp/7', body)).statusCode).toBe(200);
    expect(sink.statuses.map(([id, e]) => [id, e.dedupeKey, e.status])).toEqual([[7, 'wamid.R:read', 'READ'], [7, 'wamid.R:read', 'READ']]);
  });

  it('answer 500 when the sink fails, logging without the body or the secret', async () => {
    sink.failWith = new Error('database unavailable');
    const response = await postMeta('/v1/webhooks/messenger/8', metaJson({ object: 'page', entry: [{ id: 'P', messaging: [{ sender: { id: '2468' }, recipient: { id: 'P' }, timestamp: 1, read: { watermark: 1750000000000 } }] }] }));
    expect(response.statusCode).toBe(500);
    expect(response.json().code).toBe('99950');
    const log = logged.join('\n');
    expect(log).toContain('database unavailable');
    expect(log).not.toContain(APP_SECRET);
    expect(log).not.toContain('2468');
  });

  it('answer 400 for a signed body that is not a WhatsApp payload', async () => {
    const response = await postMeta('/v1/webhooks/whatsapp/7', '{"object":"page","entry":[]}');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('99931');
  });

  it('leave the JSON parser of the rest of the server alone', async () => {
    const response = await app.inject({ method: 'POST', url: '/elsewhere', headers: { 'content-type': 'application/json' }, payload: '{"a":1}' });
    expect(response.json()).toEqual({ parsed: { a: 1 } });
  });
});

describe('RBM route', () => {
  const event = (content: Record<string, unknown>, key = CLIENT_TOKEN) => {
    const decoded = Buffer.from(JSON.stringify(content));
    return { body: JSON.stringify({ message: { data: decoded.toString('base64'), messageId: '1', publishTime: '2026-03-01T12:00:00Z' }, subscription: 's' }), signature: signRbmData(key, decoded) };
  };
  const post = (body: string, signature?: string) =>
    app.inject({ method: 'POST', url: '/v1/webhooks/rcs/9', headers: { 'content-type': 'application/json', ...(signature ? { 'x-goog-signature': signature } : {}) }, payload: body });

  it('answers the setup handshake with the secret as plain text, 401 for another client token', async () => {
    const ok = await post(JSON.stringify({ clientToken: CLIENT_TOKEN, secret: '1234567890' }));
    expect([ok.statusCode, ok.body, ok.headers['content-type']]).toEqual([200, '1234567890', 'text/plain; charset=utf-8']);
    const bad = await post(JSON.stringify({ clientToken: 'someone-else', secret: '1234567890' }));
    expect(bad.statusCode).toBe(401);
  });

  it('accepts a signed DELIVERED event and refuses a forged one', async () => {
    const content = { senderPhoneNumber: '+573001234567', eventType: 'DELIVERED', eventId: 'e1', messageId: 'b3b7c1d2-0000-5000-8000-000000000001', sendTime: '2026-03-01T12:00:00Z', agentId: 'agent' };
    const good = event(content);
    expect((await post(good.body, good.signature)).statusCode).toBe(200);
    const forged = event({ ...content, eventType: 'READ' }, 'wrong-token');
    const refused = await post(forged.body, forged.signature);
    expect([refused.statusCode, refused.json().code]).toEqual([401, '99953']);
    expect((await post(good.body)).statusCode).toBe(401);
    expect(sink.statuses.map(([id, e]) => [id, e.status, e.dedupeKey])).toEqual([[9, 'DELIVERED', 'b3b7c1d2-0000-5000-8000-000000000001:DELIVERED']]);
  });
});
