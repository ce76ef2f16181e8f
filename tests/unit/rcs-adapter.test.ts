// The RCS adapter against the RBM stand-in on loopback: the service-account JWT bearer grant,
// sends idempotent by a messageId derived from our id, 404 → SMS fallback, capabilities, and
// DELIVERED/READ events through the real webhook route.
import { generateKeyPairSync } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../src/engine/channel-adapter.ts';
import type { ChannelAlert } from '../../src/engine/channels/shared/http-client.ts';
import { createRcsAdapter, isUuid, rbmMessageId, serviceAccountTokenProvider, uuidV5 } from '../../src/engine/channels/rcs/index.ts';
import { startRbmSandbox, type RbmSandbox } from '../../src/sandbox/rbm/index.ts';
import { webhookRoutes } from '../../src/server/webhooks/index.ts';

const AGENT = 'colibri_demo_agent';
const EMAIL = 'rbm-sender@colibri-demo.iam.gserviceaccount.com';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });

let app: FastifyInstance;
let rbm: RbmSandbox;
const statuses: StatusEvent[] = [];

beforeAll(async () => {
  app = Fastify();
  await app.register(webhookRoutes, {
    sink: { status: (_id, e) => void statuses.push(e), inbound: () => undefined },
    channelSecrets: async (platform, id) => (platform === 'rcs' && id === 3 ? { clientToken: 'client-token-rbm' } : null),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  rbm = await startRbmSandbox({
    agents: [{ id: AGENT, clientToken: 'client-token-rbm', webhookUrl: `${address}/v1/webhooks/rcs/3`, serviceAccount: { clientEmail: EMAIL, publicKey: keys.publicKey } }],
    nonRcsNumbers: ['+573001110000'],
  });
});
afterAll(async () => {
  await rbm.stop();
  await app.close();
});

const tokenProvider = (privateKey = keys.privateKey) => serviceAccountTokenProvider({ clientEmail: EMAIL, privateKey, tokenUrl: rbm.tokenUrl });

describe('RBM message ids', () => {
  it('are RFC 4122 version 5 UUIDs, stable per message id', () => {
    // RFC 4122 appendix test vector (DNS namespace).
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(rbmMessageId('12345')).toBe(rbmMessageId('12345'));
    expect(rbmMessageId('12345')).not.toBe(rbmMessageId('12346'));
    expect(isUuid(rbmMessageId('12345'))).toBe(true);
  });
});

describe('RCS adapter', () => {
  it('the setup handshake against our route succeeds', async () => {
    expect(await rbm.setupWebhook(AGENT)).toMatchObject({ status: 200, verified: true });
  });

  it('sends with a token from the JWT bearer grant; DELIVERED and READ come back', async () => {
    const adapter = createRcsAdapter({ baseUrl: rbm.url, agentId: AGENT, accessToken: tokenProvider() });
    const [outcome] = await adapter.submit([{ id: '9001', to: '+573001234567', text: 'Su pedido está en camino 🚚' }]);
    expect(outcome).toEqual({ kind: 'accepted', providerMessageId: rbmMessageId('9001') });
    expect(rbm.sent).toEqual([{ agentId: AGENT, phone: '+573001234567', messageId: rbmMessageId('9001'), body: { contentMessage: { text: 'Su pedido está en camino 🚚' } } }]);
    await rbm.idle();
    expect(statuses.filter((s) => s.providerMessageId === rbmMessageId('9001')).map((s) => s.status)).toEqual(['DELIVERED', 'READ']);
    await adapter.close();
  });

  it('a resend of the same message is accepted without sending twice, and reuses the cached token', async () => {
    const adapter = createRcsAdapter({ baseUrl: rbm.url, agentId: AGENT, accessToken: tokenProvider() });
    const tokensBefore = rbm.requests.filter((r) => r.kind === 'token').length;
    const first = await adapter.submit([{ id: '9002', to: '+573001234568', text: 'Hola' }]);
    const again = await adapter.submit([{ id: '9002', to: '+573001234568', text: 'Hola' }]);
    expect(again).toEqual(first);
    expect(rbm.sent.filter((m) => m.messageId === rbmMessageId('9002'))).toHaveLength(1);
    expect(rbm.requests.filter((r) => r.kind === 'agentMessages' && r.messageId === rbmMessageId('9002'))).toHaveLength(2);
    expect(rbm.requests.filter((r) => r.kind === 'token').length - tokensBefore).toBe(1);
  });

  it('a number without RCS answers 404: outcome fallback; capabilities say not capable', async () => {
    const adapter = createRcsAdapter({ baseUrl: rbm.url, agentId: AGENT, accessToken: tokenProvider() });
    const [outcome] = await adapter.submit([{ id: '9003', to: '+573001110000', text: 'Hola' }]);
    expect(outcome).toMatchObject({ kind: 'fallback', reason: expect.stringContaining('NOT_FOUND') });
    expect(await adapter.capabilities('+573001110000')).toMatchObject({ capable: false });
    expect(await adapter.capabilities('+573001234567')).toMatchObject({ capable: true, features: expect.arrayContaining(['RICHCARD_STANDALONE']) });
  });

  it('a key the token endpoint does not accept: retry and one alert, nothing sent', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const alerts: ChannelAlert[] = [];
    const adapter = createRcsAdapter({ baseUrl: rbm.url, agentId: AGENT, accessToken: tokenProvider(other.privateKey), onAlert: (a) => alerts.push(a), maxConcurrent: 1 });
    const outcomes = await adapter.submit([{ id: '9004', to: '+573001234567', text: 'Hola' }, { id: '9005', to: '+573001234567', text: 'Hola' }]);
    expect(outcomes.map((o) => o.kind)).toEqual(['retry', 'retry']);
    expect(alerts).toEqual([{ platform: 'rcs', kind: 'unauthorized', reason: expect.stringContaining('invalid_grant') }]);
    expect(JSON.stringify(alerts)).not.toContain('PRIVATE KEY');
    expect(rbm.sent.some((m) => m.messageId === rbmMessageId('9004'))).toBe(false);
  });

  it('a rejected token is refreshed once and the send goes through', async () => {
    let calls = 0;
    const real = tokenProvider();
    const adapter = createRcsAdapter({ baseUrl: rbm.url, agentId: AGENT, accessToken: async (refresh) => (++calls === 1 && !refresh ? 'ya29.revoked' : real(refresh)) });
    const [outcome] = await adapter.submit([{ id: '9006', to: '+573001234567', text: 'Hola' }]);
    expect(outcome.kind).toBe('accepted');
    expect(calls).toBe(2);
  });

  it('RBM throttling (429) is retry; an invalid message (400) failed', async () => {
    const throttled = await startRbmSandbox({ agents: [{ id: AGENT, clientToken: 'x', serviceAccount: { clientEmail: EMAIL, publicKey: keys.publicKey } }], ratePerSecond: 1, now: () => 1_770_000_000_000 });
    try {
      const adapter = createRcsAdapter({ baseUrl: throttled.url, agentId: AGENT, accessToken: serviceAccountTokenProvider({ clientEmail: EMAIL, privateKey: keys.privateKey, tokenUrl: throttled.tokenUrl, now: () => 1_770_000_000_000 }) });
      const outcomes = await adapter.submit([{ id: '1', to: '+573001234567', text: 'a' }, { id: '2', to: '+573001234567', text: 'b' }]);
      expect(outcomes.map((o) => o.kind).sort()).toEqual(['accepted', 'retry']);
      const local = await adapter.submit([{ id: '3', to: '3001234567', text: 'sin +57' }, { id: '4', to: '+573001234567', template: { name: 't', language: 'es', parameters: [] } }]);
      expect(local.map((o) => o.kind === 'failed' && o.statusCode)).toEqual([60, 60]);
    } finally {
      await throttled.stop();
    }
  });

  it('a replayed event reaches the sink with the same key; a forged one is refused', async () => {
    await rbm.idle();
    const delivery = rbm.deliveries.find((d) => d.answer?.status === 200 && d.url?.includes('/rcs/') && d.body.includes('data'))!;
    const before = statuses.length;
    expect((await rbm.replay(delivery)).answer?.status).toBe(200);
    expect(statuses.length).toBe(before + 1);
    expect(statuses.filter((s) => s.dedupeKey === statuses.at(-1)!.dedupeKey)).toHaveLength(2);
    expect((await rbm.sendForged(AGENT)).answer?.status).toBe(401);
    expect(statuses.length).toBe(before + 1);
  });
});
