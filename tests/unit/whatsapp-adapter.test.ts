// The WhatsApp adapter against the Graph stand-in on loopback, with the stand-in's webhooks
// received by the real webhook routes (Fastify listening on loopback) into an in-memory sink.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InboundEvent, StatusEvent, SubmitOutcome } from '../../src/engine/channel-adapter.ts';
import type { ChannelAlert } from '../../src/engine/channels/shared/http-client.ts';
import { createWhatsAppAdapter, whatsappReportCode, type WhatsAppAdapterConfig } from '../../src/engine/channels/whatsapp/index.ts';
import { startGraphSandbox, type GraphSandbox } from '../../src/sandbox/graph/index.ts';
import { webhookRoutes } from '../../src/server/webhooks/index.ts';

const NUMBER_ID = '106540352242922';
const TOKEN = 'EAAG-test-token';
const CHANNEL = 41;

let app: FastifyInstance;
let graph: GraphSandbox;
const statuses: StatusEvent[] = [];
const inbound: InboundEvent[] = [];
let clock = Date.parse('2026-03-02T15:00:00Z');

beforeAll(async () => {
  app = Fastify();
  await app.register(webhookRoutes, {
    sink: { status: (_id, e) => void statuses.push(e), inbound: (_id, e) => void inbound.push(e) },
    channelSecrets: async (platform, id) => (platform === 'whatsapp' && id === CHANNEL ? { appSecret: 'app-secret', verifyToken: 'verify-me' } : null),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  graph = await startGraphSandbox({
    whatsapp: [{ id: NUMBER_ID, displayPhoneNumber: '573001000001', accessToken: TOKEN, appSecret: 'app-secret', verifyToken: 'verify-me', webhookUrl: `${address}/v1/webhooks/whatsapp/${CHANNEL}` }],
    templates: [{ name: 'pedido_listo', language: 'es_CO' }, { name: 'cita', language: 'es' }],
    ratePerSecond: 3,
    // A clock the test moves: the rate limit counts per second, the window spans 24 h.
    now: () => clock,
  });
});
afterAll(async () => {
  await graph.stop();
  await app.close();
});
afterEach(() => {
  clock += 1000;
});

const adapter = (extra: Partial<WhatsAppAdapterConfig> = {}) => createWhatsAppAdapter({ baseUrl: graph.url, phoneNumberId: NUMBER_ID, accessToken: TOKEN, ...extra });
const failed = (o: SubmitOutcome) => (o.kind === 'failed' ? o : expect.fail(`expected failed, got ${JSON.stringify(o)}`));

describe('WhatsApp adapter', () => {
  it('the stand-in completes the GET handshake against our route', async () => {
    expect(await graph.verifyWebhook('whatsapp', NUMBER_ID)).toMatchObject({ status: 200, verified: true });
  });

  it('free text inside the window is accepted; sent, delivered and read come back once each', async () => {
    await graph.injectWhatsAppInbound({ phoneNumberId: NUMBER_ID, from: '+573001234567', text: '¿Tienen envíos a Cali?' });
    expect(inbound.at(-1)).toMatchObject({ from: '+573001234567', to: '+573001000001', text: '¿Tienen envíos a Cali?' });
    const [outcome] = await adapter().submit([{ id: '100', to: '+573001234567', text: 'Sí, en 48 horas.' }]);
    expect(outcome.kind).toBe('accepted');
    const wamid = outcome.kind === 'accepted' ? outcome.providerMessageId : '';
    expect(wamid).toMatch(/^wamid\./);
    await graph.idle();
    expect(statuses.filter((s) => s.providerMessageId === wamid).map((s) => [s.status, s.dedupeKey])).toEqual([
      ['SENT', `${wamid}:sent`], ['DELIVERED', `${wamid}:delivered`], ['READ', `${wamid}:read`],
    ]);
    expect(graph.requests.at(-1)?.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '573001234567', type: 'text', text: { body: 'Sí, en 48 horas.', preview_url: false } });
  });

  it('free text outside the window fails with 131047, which reports show as 470', async () => {
    const [outcome] = await adapter().submit([{ id: '101', to: '+573005550001', text: 'Hola' }]);
    const f = failed(outcome);
    expect([f.errorCode, whatsappReportCode(f.errorCode!), f.statusCode]).toEqual(['131047', '470', 92]);
  });

  it('a window the engine knows is closed is refused without a request', async () => {
    const before = graph.requests.length;
    const [outcome] = await adapter({ customerWindow: () => false }).submit([{ id: '102', to: '+573001234567', text: 'Hola' }]);
    expect(failed(outcome).errorCode).toBe('131047');
    expect(graph.requests.length).toBe(before);
  });

  it('free text to a closed window goes as the approved template it reads as; none matching fails with 1005 without a request', async () => {
    const before = graph.requests.length;
    const closed = { customerWindow: () => false as const };
    const [mismatch] = await adapter({ ...closed, templateFor: async () => 'mismatch' }).submit([{ id: '107', to: '+573001234567', text: 'Hola' }]);
    expect([failed(mismatch).errorCode, failed(mismatch).statusCode]).toEqual(['1005', 92]);
    expect(graph.requests.length).toBe(before);
    const [none] = await adapter({ ...closed, templateFor: async () => null }).submit([{ id: '108', to: '+573001234567', text: 'Hola' }]);
    expect(failed(none).errorCode).toBe('131047');
    const asked: string[] = [];
    const [matched] = await adapter({ ...closed, templateFor: async (text) => { asked.push(text); return { name: 'pedido_listo', language: 'es_CO', parameters: ['Juan', 'A-77'] }; } })
      .submit([{ id: '109', to: '+573001234567', text: 'Hola Juan, tu pedido A-77 está listo.' }]);
    expect([matched.kind, asked]).toEqual(['accepted', ['Hola Juan, tu pedido A-77 está listo.']]);
    expect(graph.requests.at(-1)?.body).toMatchObject({ type: 'template', template: { name: 'pedido_listo', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Juan' }, { type: 'text', text: 'A-77' }] }] } });
  });

  it('a window that has expired after 24 h is closed again', async () => {
    await graph.injectWhatsAppInbound({ phoneNumberId: NUMBER_ID, from: '+573007770001', text: 'Hola' });
    clock += 24 * 60 * 60 * 1000 + 1;
    const [outcome] = await adapter().submit([{ id: '103', to: '+573007770001', text: 'Buenos días' }]);
    expect(failed(outcome).errorCode).toBe('131047');
  });

  it('templates go outside the window, positional and named; an unknown one is 132001 → 2001', async () => {
    const outcomes = await adapter().submit([
      { id: '104', to: '+573005550002', template: { name: 'pedido_listo', language: 'es_CO', parameters: ['Juan', 'A-77'] } },
      { id: '105', to: '+573005550002', template: { name: 'cita', language: 'es', parameters: { nombre: 'Ana' } } },
      { id: '106', to: '+573005550002', template: { name: 'pedido_listo', language: 'en_US', parameters: [] } },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(['accepted', 'accepted', 'failed']);
    const f = failed(outcomes[2]);
    expect([f.errorCode, whatsappReportCode(f.errorCode!)]).toEqual(['132001', '2001']);
    const bodies = graph.requests.slice(-3).map((r) => r.body as any);
    expect(bodies[0].template).toEqual({ name: 'pedido_listo', language: { policy: 'deterministic', code: 'es_CO' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Juan' }, { type: 'text', text: 'A-77' }] }] });
    expect(bodies[1].template.components[0].parameters).toEqual([{ type: 'text', parameter_name: 'nombre', text: 'Ana' }]);
  });

  it('an unreachable recipient is accepted, then a failed status carries 131026 → 1013', async () => {
    const [outcome] = await adapter().submit([{ id: '107', to: '+573009990000', template: { name: 'pedido_listo', language: 'es_CO', parameters: ['x', 'y'] } }]);
    const wamid = outcome.kind === 'accepted' ? outcome.providerMessageId : expect.fail('not accepted');
    await graph.idle();
    const mine = statuses.filter((s) => s.providerMessageId === wamid);
    expect(mine.map((s) => [s.status, s.errorCode])).toEqual([['FAILED', '131026']]);
    expect(whatsappReportCode(mine[0].errorCode!)).toBe('1013');
  });

  it('above the rate limit the answer is retry with a back-off', async () => {
    const messages = Array.from({ length: 6 }, (_, i) => ({ id: String(200 + i), to: '+573005550003', template: { name: 'cita', language: 'es', parameters: [] } }));
    const outcomes = await adapter().submit(messages);
    expect(outcomes.filter((o) => o.kind === 'accepted')).toHaveLength(3);
    const retries = outcomes.filter((o) => o.kind === 'retry');
    expect(retries).toHaveLength(3);
    // The number's throughput refused them: they overflowed (the message reads 'overflow', 70).
    for (const r of retries) expect(r).toMatchObject({ kind: 'retry', afterMs: 1000, overflow: true, reason: expect.stringContaining('130429') });
  });

  it('a refused token fails with 190 and raises one alert for the channel', async () => {
    const alerts: ChannelAlert[] = [];
    const outcomes = await adapter({ accessToken: 'expired', onAlert: (a) => alerts.push(a), maxConcurrent: 1 }).submit([
      { id: '300', to: '+573001234567', template: { name: 'cita', language: 'es', parameters: [] } },
      { id: '301', to: '+573001234567', template: { name: 'cita', language: 'es', parameters: [] } },
    ]);
    expect(outcomes.map((o) => failed(o).errorCode)).toEqual(['190', '190']);
    // Meta refused our credentials: the messages read 'unauthorized'.
    expect(outcomes.map((o) => failed(o).unauthorized)).toEqual([true, true]);
    expect(alerts).toEqual([{ platform: 'whatsapp', kind: 'tokenExpired', reason: expect.stringContaining(NUMBER_ID) }]);
    expect(JSON.stringify(alerts)).not.toContain('expired"');
  });

  it('refuses bad input locally with 60 and sends nothing', async () => {
    const before = graph.requests.length;
    const outcomes = await adapter().submit([
      { id: '400', to: '+573001234567', text: 'x'.repeat(4097) },
      { id: '401', to: '+573001234567', text: '   ' },
      { id: '402', to: 'not-a-phone', text: 'hola' },
    ]);
    expect(outcomes.map((o) => failed(o).statusCode)).toEqual([60, 60, 60]);
    expect(graph.requests.length).toBe(before);
  });

  it('an unreachable provider and a closed adapter answer retry', async () => {
    const down = createWhatsAppAdapter({ baseUrl: 'http://127.0.0.1:9/v23.0', phoneNumberId: NUMBER_ID, accessToken: TOKEN, timeoutMs: 2000 });
    const [outcome] = await down.submit([{ id: '500', to: '+573001234567', text: 'hola' }]);
    expect(outcome.kind).toBe('retry');
    expect(JSON.stringify(outcome)).not.toContain(TOKEN);
    await down.close();
    expect((await down.submit([{ id: '501', to: '+573001234567', text: 'hola' }]))[0].kind).toBe('retry');
  });

  it('replayed and forged deliveries: a replay reaches the sink with the same key, a forged one does not', async () => {
    await graph.idle();
    const delivery = graph.deliveries.find((d) => d.body.includes('"read"'))!;
    const wamid = JSON.parse(delivery.body).entry[0].changes[0].value.statuses[0].id;
    const before = statuses.length;
    const replayed = await graph.replay(delivery);
    expect(replayed.answer?.status).toBe(200);
    expect(statuses.length).toBe(before + 1);
    expect(statuses.filter((s) => s.dedupeKey === `${wamid}:read`)).toHaveLength(2);
    const forged = await graph.sendForged('whatsapp', NUMBER_ID);
    expect(forged.answer?.status).toBe(401);
    expect(statuses.length).toBe(before + 1);
  });
});
