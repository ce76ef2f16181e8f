// The Messenger adapter against the Graph stand-in; receipts through the real webhook routes.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundEvent, StatusEvent } from '../../src/engine/channel-adapter.ts';
import { createMessengerAdapter, type MessengerAdapterConfig } from '../../src/engine/channels/messenger/index.ts';
import { messengerRefusal } from '../../src/engine/channels/messenger/errors.ts';
import { startGraphSandbox, type GraphSandbox } from '../../src/sandbox/graph/index.ts';
import { webhookRoutes } from '../../src/server/webhooks/index.ts';

const PAGE = '104857600123';
const TOKEN = 'EAAPage-token';

let app: FastifyInstance;
let graph: GraphSandbox;
const statuses: StatusEvent[] = [];
const inbound: InboundEvent[] = [];
let clock = Date.parse('2026-03-02T15:00:00Z');

beforeAll(async () => {
  app = Fastify();
  await app.register(webhookRoutes, {
    sink: { status: (_id, e) => void statuses.push(e), inbound: (_id, e) => void inbound.push(e) },
    channelSecrets: async (platform, id) => (platform === 'fbMessenger' && id === 5 ? { appSecret: 'page-app-secret', verifyToken: 'fb-verify' } : null),
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  graph = await startGraphSandbox({
    messenger: [{ id: PAGE, accessToken: TOKEN, appSecret: 'page-app-secret', verifyToken: 'fb-verify', webhookUrl: `${address}/v1/webhooks/messenger/5` }],
    ratePerSecond: 2,
    now: () => clock,
  });
});
afterAll(async () => {
  await graph.stop();
  await app.close();
});

const adapter = (extra: Partial<MessengerAdapterConfig> = {}) => createMessengerAdapter({ baseUrl: graph.url, pageId: PAGE, pageAccessToken: TOKEN, ...extra });

describe('Messenger adapter', () => {
  it('outside the window the Send API refuses with code 10: failed', async () => {
    const [outcome] = await adapter().submit([{ id: '1', to: '2468013579', text: 'Hola' }]);
    expect(outcome).toMatchObject({ kind: 'failed', statusCode: 92, errorCode: '10' });
  });

  it('after the user writes: accepted, inbound recorded, delivery and read by watermark', async () => {
    clock += 1000;
    await graph.injectMessengerInbound({ pageId: PAGE, psid: '2468013579', text: '¿Tienen domicilio?' });
    expect(inbound.at(-1)).toMatchObject({ from: '2468013579', to: PAGE, text: '¿Tienen domicilio?' });
    const [outcome] = await adapter().submit([{ id: '2', to: '2468013579', text: 'Sí, en toda Bogotá.' }]);
    const mid = outcome.kind === 'accepted' ? outcome.providerMessageId : expect.fail(JSON.stringify(outcome));
    expect(graph.requests.at(-1)?.body).toEqual({ recipient: { id: '2468013579' }, messaging_type: 'RESPONSE', message: { text: 'Sí, en toda Bogotá.' } });
    await graph.idle();
    expect(statuses.map((s) => [s.providerMessageId, s.status, s.recipient, s.watermark?.getTime()])).toEqual([
      [mid, 'DELIVERED', undefined, undefined],
      ['', 'DELIVERED', '2468013579', clock],
      ['', 'READ', '2468013579', clock],
    ]);
  });

  it('a PSID that blocked the page answers 551: failed as invalid', async () => {
    clock += 1000;
    const [outcome] = await adapter().submit([{ id: '3', to: '1357900000', text: 'Hola' }]);
    expect(outcome).toMatchObject({ kind: 'failed', statusCode: 94, errorCode: '551' });
  });

  it('a message tag goes outside the window', async () => {
    clock += 1000;
    const [outcome] = await adapter({ messagingType: 'MESSAGE_TAG', tag: 'ACCOUNT_UPDATE' }).submit([{ id: '4', to: '9999888877', text: 'Su cuenta fue actualizada' }]);
    expect(outcome.kind).toBe('accepted');
    expect(graph.requests.at(-1)?.body).toMatchObject({ messaging_type: 'MESSAGE_TAG', tag: 'ACCOUNT_UPDATE' });
  });

  it('above the rate limit (613) the answer is retry', async () => {
    clock += 1000;
    const tagged = adapter({ messagingType: 'MESSAGE_TAG', tag: 'POST_PURCHASE_UPDATE' });
    const outcomes = await tagged.submit(Array.from({ length: 4 }, (_, i) => ({ id: String(10 + i), to: '9999888877', text: `Pedido ${i}` })));
    expect(outcomes.filter((o) => o.kind === 'accepted')).toHaveLength(2);
    expect(outcomes.filter((o) => o.kind === 'retry').map((o) => (o.kind === 'retry' ? o.reason : ''))).toEqual([expect.stringContaining('613'), expect.stringContaining('613')]);
    expect(outcomes.filter((o) => o.kind === 'retry').every((o) => o.kind === 'retry' && o.overflow === true)).toBe(true);
  });

  it('a refused page token (190) or a missing permission (200) is unauthorized; the closed window (10) is not', () => {
    const graphError = (code: number) => ({ message: `(#${code}) refused`, code });
    expect(messengerRefusal(graphError(190))).toMatchObject({ kind: 'failed', errorCode: '190', unauthorized: true });
    expect(messengerRefusal(graphError(200))).toMatchObject({ kind: 'failed', errorCode: '200', unauthorized: true });
    expect(messengerRefusal(graphError(10))).not.toHaveProperty('unauthorized');
  });

  it('refuses templates, empty text and MESSAGE_TAG without a tag locally', async () => {
    const before = graph.requests.length;
    const outcomes = await adapter().submit([
      { id: '20', to: '2468013579', template: { name: 'x', language: 'es', parameters: [] } },
      { id: '21', to: '2468013579', text: '' },
    ]);
    const untagged = await adapter({ messagingType: 'MESSAGE_TAG' }).submit([{ id: '22', to: '2468013579', text: 'x' }]);
    expect([...outcomes, ...untagged].map((o) => o.kind === 'failed' && o.statusCode)).toEqual([60, 60, 60]);
    expect(graph.requests.length).toBe(before);
  });
});
