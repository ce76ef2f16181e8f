// Chatbot conversations end to end in a real server (sandbox mode, PGlite or PostgreSQL with
// DATABASE_URL): a flow is drawn and published through the API (refused while it breaks a rule),
// put on agents, and held as conversations — over SMPP (the sandbox SMSC's MO in, MT out), over the
// Graph stand-in's WhatsApp and Messenger webhooks — with an integration step against a local HTTP
// server that fails twice before it answers, no-reply timers that retry and then time out, and
// SALIR ending a conversation. The agents' rules answer their catalogue codes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerEdges, step } from '../../src/core/flows/build.ts';
import { decodeSession } from '../../src/core/session-codec.ts';
import { fireDueTimers } from '../../src/engine/conversations/timers.ts';
import { flowVersions } from '../../src/engine/conversations/versions.ts';
import type { FlowDefinition } from '../../src/generated/types.gen.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { startServer, type RunningServer } from '../../src/server/start.ts';
import { TEST_PASSWORD, testDatabase } from './harness.ts';
import { until } from './until.ts';

let server: RunningServer;
let dropSchema = async () => {};
let token = '';
let integration: Server;
let integrationUrl = '';
let calls = 0;
const channels: Record<string, number> = {};

beforeAll(async () => {
  // The company's system behind the integration step: fails twice (503), then answers the balance.
  integration = createServer((request, response) => {
    calls += 1;
    if (calls <= 2) return void response.writeHead(503).end('ocupado');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { balance: '50.000', asked: request.url } }));
  });
  await new Promise<void>((resolve) => integration.listen(0, '127.0.0.1', resolve));
  integrationUrl = `http://127.0.0.1:${(integration.address() as AddressInfo).port}/saldo`;
  process.env.FLOW_CALL_RETRY_MS = '20';
  const { options, drop } = await testDatabase();
  dropSchema = drop;
  // The sandbox reaches the company's system (and port 9, where nothing answers) because it is named.
  const integrationTarget = `127.0.0.1:${(integration.address() as AddressInfo).port}`;
  server = await startServer({ logger: { level: 'error' }, port: 0, sandbox: true, database: options, demoPassword: TEST_PASSWORD, consoleRoot: null, messaging: { dispatcher: { idleMs: 20 } }, sandboxPrivateTargets: [integrationTarget, '127.0.0.1:9'] });
  const signin = await op('clientAuth.signin', { body: { email: demoEmail('manager'), password: TEST_PASSWORD } });
  token = decodeSession(signin.json.clientToken)!.token;
  const list = (await op('channels.list', { query: { pageSize: 200 } })).json.items as { id: number; name: string }[];
  for (const c of list) channels[c.name] = c.id;
}, 120_000);

afterAll(async () => {
  await server?.messaging?.graph?.idle();
  await server?.close();
  await new Promise((resolve) => integration?.close(resolve));
  await dropSchema();
});


/** An operation by id (the coverage test finds each called id): path params filled, query appended. */
async function op(id: string, args: { params?: Record<string, string | number>; query?: Record<string, string | number>; body?: unknown; language?: string } = {}) {
  const o = serverOperations.find((x) => x.id === id)!;
  let url = o.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(args.params?.[k])));
  const query = new URLSearchParams(Object.entries(args.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  if (query) url += `?${query}`;
  return api(o.method, url, args.body ?? (o.method === 'GET' || o.method === 'DELETE' ? undefined : {}), args.language);
}

async function api(method: string, url: string, body?: unknown, language?: string) {
  const response = await fetch(`${server.url}${url}`, {
    method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { 'x-auth-token': token } : {}), ...(language ? { 'accept-language': language } : {}) }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

/** Hola → menu (1 pagar: the integration, 2 consultar: end) → the balance; no answer: asked once more, then goodbye. */
const menu = (url: string): FlowDefinition => ({
  steps: [
    step('start', 'initialCall', { text: 'Hola, soy el asistente de Colibri.' }),
    step('ask', 'send', {
      text: '¿Qué quieres hacer? 1 Pagar 2 Consultar', obligatoryMatch: true, noMatch: 'retry', nonMatchMessage: 'No entendí.', maxRetries: 1, waitMinutes: 5, assignTo: 'opcion',
      responses: [{ id: 'pay', label: 'Pagar', keywords: ['pagar'] }, { id: 'query', label: 'Consultar', keywords: ['saldo'] }],
    }),
    step('api', 'integration', { method: 'GET', url: `${url}?o={{opcion}}`, expectedStatus: 200, assignTo: 'saldo', accessPath: '$.data.balance' }),
    step('done', 'end', { text: 'Tu saldo: {{saldo}}' }),
    step('info', 'end', { text: 'Consulta en colibri.co' }),
    step('bye', 'end', { text: 'Hasta pronto.' }),
  ],
  edges: [
    { from: 'start', output: 'next', to: 'ask' },
    ...answerEdges('ask', { pay: 'api', query: 'info' }, 'bye'),
    { from: 'api', output: 'success', to: 'done' },
    { from: 'api', output: 'failure', to: 'bye' },
  ],
});

async function publishedFlow(name: string, draft: FlowDefinition): Promise<number> {
  const created = await op('flows.create', { body: { name, draft } });
  expect(created.status).toBe(200);
  const published = await op('flows.publish', { params: { id: created.json.id } });
  expect([published.status, published.json.publishedVersion]).toEqual([200, 1]);
  return created.json.id as number;
}

const conversationOf = (contact: string) =>
  server.db.selectFrom('conversations').selectAll().where('contact', '=', contact).orderBy('id', 'desc').executeTakeFirst();
const smsTo = (digits: string) => server.messaging!.smsc!.messagesTo(digits).map((m) => m.text);

describe('flows through the API', () => {
  it('saves a draft that breaks rules, refuses to publish it (99901 naming each problem), and publishes it once fixed', async () => {
    const created = await op('flows.create', { body: { name: 'Borrador' } });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ publishedVersion: null, problems: [] });
    const broken = menu(integrationUrl);
    broken.edges = broken.edges.filter((e) => e.output !== 'timeout');
    const saved = await op('flows.update', { params: { id: created.json.id }, body: { draft: broken } });
    expect(saved.json.problems).toEqual([{ rule: 'outputOpen', stepId: 'ask', output: 'timeout' }]);
    const refused = await op('flows.publish', { params: { id: created.json.id } });
    expect([refused.status, refused.json.code, refused.json.errors]).toEqual([409, '99901', [{ field: 'steps/ask/timeout', code: 'outputOpen', message: 'outputOpen' }]]);
    await op('flows.update', { params: { id: created.json.id }, body: { draft: menu(integrationUrl) } });
    const published = await op('flows.publish', { params: { id: created.json.id } });
    expect([published.status, published.json.publishedVersion]).toEqual([200, 1]);
    expect((await op('flows.create', { body: { name: 'borrador' } })).json.code).toBe('99930');
    expect((await op('flows.get', { params: { id: 999_999 } })).json.code).toBe('99994');
  });

  it('answers the agents rules with their codes', async () => {
    const flowId = await publishedFlow('Reglas', menu(integrationUrl));
    const sms = channels['SMS Respuestas 85432'];
    const create = (body: Record<string, unknown>) => op('agents.create', { body: { name: 'Agente', flowId, ...body } });
    expect((await create({ channelId: sms })).json.code).toBe('99971');
    expect((await create({ channelId: channels['SMS Notificaciones'], keywords: ['pago'] })).json.errors[0]).toMatchObject({ field: 'channelId', code: '99931' });
    expect((await create({ channelId: sms, keywords: ['pago'], flowId: 999_999 })).json.code).toBe('99994');
    const first = await create({ channelId: sms, keywords: ['PAGO'] });
    expect(first.status).toBe(200);
    expect((await create({ channelId: sms, keywords: ['Pagó'] })).json.code).toBe('99970');
    const wa = channels['WhatsApp Atención'];
    expect((await create({ channelId: wa })).status).toBe(200);
    expect((await create({ channelId: wa })).json.code).toBe('99992');
    // A flow an agent runs stays, and the answer says so (not "the channel is occupied"), naming the agents.
    expect((await op('flows.delete', { params: { id: flowId } })).json).toMatchObject({ code: '99967', errors: [{ field: 'agents' }] });
    for (const a of (await op('agents.list', { query: { flowId } })).json.items) await op('agents.delete', { params: { id: a.id } });
    expect((await op('flows.delete', { params: { id: flowId } })).json).toEqual({ ok: true });
  });
});

describe('conversations', () => {
  let flowId = 0;
  beforeAll(async () => {
    flowId = await publishedFlow('Saldo', menu(integrationUrl));
    expect((await op('agents.create', { body: { name: 'Saldo SMS', channelId: channels['SMS Respuestas 85432'], flowId, keywords: ['SALDO'] } })).status).toBe(200);
    expect((await op('agents.create', { body: { name: 'WhatsApp', channelId: channels['WhatsApp Atención'], flowId } })).status).toBe(200);
    expect((await op('agents.create', { body: { name: 'Messenger', channelId: channels['Messenger Demo S.A.S.'], flowId } })).status).toBe(200);
  });

  it('over SMPP: MO in, MT out; the integration fails twice, is retried, and its answer fills the reply', async () => {
    const smsc = server.messaging!.smsc!;
    const from = '573157770011';
    smsc.injectMo({ from, to: '85432', text: 'saldo', systemId: `ch${channels['SMS Respuestas 85432']}` });
    await until('the greeting and the menu', () => smsTo(from).length >= 2, 30_000);
    // The messages of one turn reach the SMSC in the order the flow sent them (each waits for the one before).
    expect(smsTo(from).slice(0, 2)).toEqual(['Hola, soy el asistente de Colibri.', '¿Qué quieres hacer? 1 Pagar 2 Consultar']);
    smsc.injectMo({ from, to: '85432', text: 'quiero pagar', systemId: `ch${channels['SMS Respuestas 85432']}` });
    await until('the balance', () => smsTo(from).length >= 3, 30_000);
    expect(smsTo(from)[2]).toBe('Tu saldo: 50.000');
    expect(calls).toBe(3);
    const c = (await conversationOf(`+${from}`))!;
    expect([c.state, c.step_id, c.timer_at]).toEqual(['completed', 'done', null]);
    const detail = await op('flows.conversation', { params: { id: Number(c.id) } });
    expect(detail.json.variables).toMatchObject({ opcion: 'Pagar', saldo: '50.000', phone: `+${from}` });
    expect(detail.json.turns.map((t: { direction: string; body: string }) => `${t.direction}: ${t.body}`)).toEqual([
      'in: saldo', 'out: Hola, soy el asistente de Colibri.', 'out: ¿Qué quieres hacer? 1 Pagar 2 Consultar', 'in: quiero pagar', 'out: Tu saldo: 50.000',
    ]);
    // Every reply is a message like any other: delivered, paid for.
    const sent = await server.db.selectFrom('messages').select(['state', 'source', 'purpose']).where('to_number', '=', `+${from}`).execute();
    expect(sent.length).toBe(3);
    await until('the replies delivered', async () => (await server.db.selectFrom('messages').select('state').where('to_number', '=', `+${from}`).execute()).every((m) => m.state === 'delivered'), 30_000);
    expect(new Set(sent.map((m) => `${m.source}/${m.purpose}`))).toEqual(new Set(['flow/transactional']));
    // The transcript says where each reply stands.
    const delivered = (await op('flows.conversation', { params: { id: Number(c.id) } })).json.turns as { direction: string; messageState: string | null; reason: unknown }[];
    expect(delivered.filter((t) => t.direction === 'out').map((t) => [t.messageState, t.reason])).toEqual(Array(3).fill(['delivered', null]));
    // What the person wrote reads as received (spec 4's inbound state), never as no state at all.
    expect(delivered.filter((t) => t.direction === 'in').map((t) => t.messageState)).toEqual(expect.arrayContaining(['received']));
    expect(delivered.filter((t) => t.direction === 'in').every((t) => t.messageState === 'received')).toBe(true);
    const stats = (await op('flows.stats', { query: { flowId } })).json;
    expect(stats.conversations).toEqual([{ state: 'completed', conversations: 1 }]);
    expect(stats.steps.map((s: { stepId: string }) => s.stepId)).toEqual(['start', 'ask', 'api', 'done', 'info', 'bye']);
    expect(stats.steps[1]).toMatchObject({ type: 'send', entered: 1, answered: 1, matched: 1, notMatched: 0, retried: 0, timedOut: 0 });
    expect(stats.steps[4]).toMatchObject({ entered: 0 });
    // Steps are named by the title a person gave them, else by their id.
    expect(stats.steps[0]).toMatchObject({ stepId: 'start', title: null, name: 'start' });
    const demoFlow = await server.db.selectFrom('flows').select('id').where('name', '=', 'Menú de atención').executeTakeFirstOrThrow();
    const demoStats = (await op('flows.stats', { query: { flowId: demoFlow.id } })).json;
    expect(demoStats.steps.find((s: { stepId: string }) => s.stepId === 'menu')).toMatchObject({ title: 'Menú', name: 'Menú' });
    // The call-center view finds it by the number as a person types it.
    expect((await op('flows.conversations', { query: { contact: '+57 315 777 0011' } })).json.items.map((i: { id: number }) => i.id)).toEqual([Number(c.id)]);
    // So does the call-center query (a support agent's), transcript and all, under the number's messages.
    const develop = decodeSession((await op('clientAuth.signin', { body: { email: demoEmail('develop'), password: TEST_PASSWORD } })).json.clientToken)!.token;
    const lookup = await fetch(`${server.url}/v1/colibri/reportCenter/queryCallCenter`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-auth-token': develop }, body: JSON.stringify({ phone: '315 777 0011' }),
    });
    const history = (await lookup.json()) as { items: unknown[]; turns: { conversationId: number; account: string; flow: string; direction: string; body: string; messageState: string | null }[] };
    expect([lookup.status, history.items.length]).toEqual([200, 3]);
    expect(history.turns.map((t) => `${t.direction}: ${t.body}`)).toEqual(detail.json.turns.map((t: { direction: string; body: string }) => `${t.direction}: ${t.body}`));
    expect(history.turns[1]).toMatchObject({ conversationId: Number(c.id), account: 'SMS Respuestas 85432', flow: 'Saldo', messageState: 'delivered' });
  });

  it('over WhatsApp: no reply fires the timer once (a retry), then the timeout says goodbye; the transcript keeps it all', async () => {
    const graph = server.messaging!.graph!;
    const from = '+573004440077';
    const sentTo = () => graph.requests.filter((r) => (r.body as { to?: string }).to === from.slice(1)).map((r) => (r.body as { text?: { body: string } }).text?.body);
    expect((await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from, text: 'Buenas tardes' })).answer?.status).toBe(200);
    await until('the menu on WhatsApp', () => sentTo().length >= 2, 30_000);
    const c = (await until('the conversation', () => conversationOf(from.slice(1)).then((r) => r ?? conversationOf(from))))!;
    expect(c.state).toBe('waitingReply');
    expect(c.timer_at!.getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
    // Its time comes (moved, rather than waiting five minutes): two rounds at once fire it once.
    await server.db.updateTable('conversations').set({ timer_at: new Date(Date.now() - 1000) }).where('id', '=', c.id).execute();
    const versions = flowVersions();
    const fired = await Promise.all([fireDueTimers(server.db, versions, new Date()), fireDueTimers(server.db, versions, new Date())]);
    expect(fired.map((f) => f.fired).sort()).toEqual([0, 1]);
    server.messaging!.dispatcher.wake();
    await until('the question again', () => sentTo().length >= 3, 30_000);
    expect(sentTo()[2]).toBe('¿Qué quieres hacer? 1 Pagar 2 Consultar');
    const again = (await server.db.selectFrom('conversations').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow());
    expect(again.state).toBe('waitingReply');
    await server.db.updateTable('conversations').set({ timer_at: new Date(Date.now() - 1000) }).where('id', '=', c.id).execute();
    expect(await server.messaging!.conversations.fireTimers()).toBe(1);
    server.messaging!.dispatcher.wake();
    await until('the goodbye', () => sentTo().length >= 4, 30_000);
    expect(sentTo()[3]).toBe('Hasta pronto.');
    const ended = await server.db.selectFrom('conversations').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow();
    expect([ended.state, ended.timer_at]).toEqual(['abandoned', null]);
    const turns = (await op('flows.conversation', { params: { id: Number(c.id) } })).json.turns as { direction: string; body: string }[];
    expect(turns.map((t) => `${t.direction}: ${t.body}`)).toEqual([
      'in: Buenas tardes', 'out: Hola, soy el asistente de Colibri.', 'out: ¿Qué quieres hacer? 1 Pagar 2 Consultar', 'out: ¿Qué quieres hacer? 1 Pagar 2 Consultar', 'out: Hasta pronto.',
    ]);
    expect(await server.messaging!.conversations.fireTimers()).toBe(0);
  });

  it('timers that fall due together fire in one transaction: each conversation is asked again, its transcript names its own message, and credits that cover only some send those', async () => {
    const sms = channels['SMS Respuestas 85432'];
    const channel = { id: sms, companyId: (await server.db.selectFrom('channels').select('company_id').where('id', '=', sms).executeTakeFirstOrThrow()).company_id, platform: 'sms' as const };
    const numbers = Array.from({ length: 12 }, (_, i) => `+5731888000${String(i).padStart(2, '0')}`);
    for (const from of numbers) await server.messaging!.conversations.receive({ channel, from, text: 'saldo', at: new Date() });
    const opened = await server.db.selectFrom('conversations').select(['id', 'contact']).where('contact', 'in', numbers).where('state', '=', 'waitingReply').execute();
    expect(opened.length).toBe(12);
    // The greetings and questions so far have been claimed (and paid for) before the balance is cut.
    await until('the first replies claimed', async () => (await server.db.selectFrom('messages').select('id').where('to_number', 'in', numbers).where('state', '=', 'queued').execute()).length === 0, 30_000);
    const question = await server.db.selectFrom('messages').select('cost').where('to_number', '=', numbers[0]).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const kept = await server.db.selectFrom('company_credits').select('balance').where('company_id', '=', channel.companyId).executeTakeFirstOrThrow();
    // The balance covers five of the twelve questions asked again.
    await server.db.updateTable('company_credits').set({ balance: 5 * question.cost }).where('company_id', '=', channel.companyId).execute();
    const before = Number((await server.db.selectFrom('messages').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id);
    await server.db.updateTable('conversations').set({ timer_at: new Date(Date.now() - 1000) }).where('contact', 'in', numbers).execute();
    try {
      const fired = await fireDueTimers(server.db, flowVersions(), new Date());
      expect([fired.fired, fired.sent]).toEqual([12, 12]);
      // The replies' credits are reserved when the dispatcher claims them (migration 0496).
      server.messaging!.dispatcher.wake();
      await until('the questions claimed', async () => (await server.db.selectFrom('messages').select('id').where('id', '>', before).where('to_number', 'in', numbers).where('state', '=', 'queued').execute()).length === 0, 30_000);
    } finally {
      await server.db.updateTable('company_credits').set({ balance: kept.balance }).where('company_id', '=', channel.companyId).execute();
    }
    const asked = await server.db.selectFrom('messages').select(['id', 'to_number', 'body', 'state', 'status_code']).where('id', '>', before).where('to_number', 'in', numbers).orderBy('id').execute();
    expect(asked.map((m) => m.body)).toEqual(Array(12).fill('¿Qué quieres hacer? 1 Pagar 2 Consultar'));
    expect(new Set(asked.map((m) => m.to_number))).toEqual(new Set(numbers));
    expect(asked.filter((m) => m.state === 'rejected').map((m) => m.status_code)).toEqual(Array(7).fill(81));
    // Each conversation's transcript points at the message sent to its own number.
    for (const c of opened) {
      const last = await server.db.selectFrom('conversation_turns').select(['direction', 'message_id']).where('conversation_id', '=', c.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(last.direction).toBe('out');
      expect(asked.find((m) => m.id === last.message_id)?.to_number).toBe(c.contact);
    }
    const after = await server.db.selectFrom('conversations').select(['state', 'timer_at']).where('contact', 'in', numbers).execute();
    expect(after.every((c) => c.state === 'waitingReply' && c.timer_at!.getTime() > Date.now() + 4 * 60_000)).toBe(true);
    expect((await fireDueTimers(server.db, flowVersions(), new Date())).fired).toBe(0);
  });

  it('over Messenger, and SALIR ends the conversation and blocks the sender', async () => {
    const graph = server.messaging!.graph!;
    const psid = '7700112233445566';
    const sentTo = () => graph.requests.filter((r) => (r.body as { recipient?: { id?: string } }).recipient?.id === psid);
    await graph.injectMessengerInbound({ pageId: '104857600123456', psid, text: 'hola' });
    await until('the menu on Messenger', () => sentTo().length >= 2, 30_000);
    expect((await conversationOf(psid))?.state).toBe('waitingReply');

    const smsc = server.messaging!.smsc!;
    const from = '573157770099';
    smsc.injectMo({ from, to: '85432', text: 'saldo', systemId: `ch${channels['SMS Respuestas 85432']}` });
    await until('the SMS menu', () => smsTo(from).length >= 2, 30_000);
    smsc.injectMo({ from, to: '85432', text: 'Salir', systemId: `ch${channels['SMS Respuestas 85432']}` });
    const stopped = await until('the conversation stopped', async () => ((await conversationOf(`+${from}`))?.state === 'abandoned' ? true : null), 30_000);
    expect(stopped).toBe(true);
    expect(await server.db.selectFrom('block_list').select('phone').where('phone', '=', `+${from}`).executeTakeFirst()).toEqual({ phone: `+${from}` });
  });

  it("the demo's flow: MENU on WhatsApp, a cédula that must be digits (asked again), the balance; an advisor's request sends an SMS to the sales team", async () => {
    const graph = server.messaging!.graph!;
    const from = '+573004440088';
    const texts = () => graph.requests.filter((r) => (r.body as { to?: string }).to === from.slice(1)).map((r) => (r.body as { text?: { body: string } }).text?.body);
    const say = async (text: string, expected: number) => {
      await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from, text });
      await until(`${expected} messages`, () => texts().length >= expected, 30_000);
    };
    await say('Menú', 2);
    await say('saldo', 3);
    expect(texts()[2]).toBe('Escribe tu número de cédula.');
    await say('mi cédula es abc', 5);
    expect(texts().slice(3).sort()).toEqual(['La cédula tiene de 6 a 10 dígitos.', 'Escribe tu número de cédula.'].sort());
    await say('79123456', 6);
    expect(texts()[5]).toBe('La cuenta de la cédula 79123456 tiene 120.000 créditos disponibles.');

    const other = '+573004440099';
    await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from: other, text: 'menu' });
    await until('the menu', () => graph.requests.filter((r) => (r.body as { to?: string }).to === other.slice(1)).length >= 2, 30_000);
    await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from: other, text: '2' });
    await until('the SMS to the sales team', () => smsTo('573001230099').length >= 1, 30_000);
    expect(smsTo('573001230099')[0]).toBe(`Colibri Demo: ${other} pide un asesor.`);
  });

  it("the sandbox's customer writes through the channel's stand-in (POST /v1/sandbox/inbound): SMS, and a company user only to their own channels", async () => {
    const from = '+573157770055';
    const wrote = await op('system.inbound', { body: { channelId: channels['SMS Respuestas 85432'], from, text: 'menu' } });
    expect([wrote.status, wrote.json]).toEqual([200, { ok: true }]);
    await until('the demo menu by SMS', () => smsTo(from.slice(1)).length >= 2, 30_000);
    expect(smsTo(from.slice(1))).toContain('¿En qué te ayudo? Responde 1 Saldo, 2 Asesor o 3 Salir.');
    const otherCompany = await server.db.selectFrom('channels').innerJoin('companies', 'companies.id', 'channels.company_id').select('channels.id')
      .where('channels.company_id', '!=', (await server.db.selectFrom('channels').select('company_id').where('id', '=', channels['SMS Respuestas 85432']).executeTakeFirstOrThrow()).company_id)
      .executeTakeFirst();
    const refused = await op('system.inbound', { body: { channelId: otherCompany?.id ?? 999_999, from, text: 'hola' } });
    expect([refused.status, refused.json.code]).toEqual([404, '99959']);
  });

  it('an integration that never answers becomes an incident and the conversation leaves by its failure output; agents are read and switched off', async () => {
    const broken = menu('http://127.0.0.1:9/saldo');
    const flowId = await publishedFlow('Saldo caído', broken);
    const created = await op('agents.create', { body: { name: 'Caído', channelId: channels['WhatsApp Atención'], flowId, keywords: ['CAIDO'] } });
    expect((await op('agents.get', { params: { id: created.json.id } })).json).toMatchObject({ name: 'Caído', channel: 'WhatsApp Atención', flow: 'Saldo caído', keywords: ['CAIDO'], active: true });
    expect((await op('flows.list', { query: { published: 'true', q: 'caído' } })).json.items.map((f: { name: string }) => f.name)).toEqual(['Saldo caído']);

    const graph = server.messaging!.graph!;
    const from = '+573004440066';
    const texts = () => graph.requests.filter((r) => (r.body as { to?: string }).to === from.slice(1)).map((r) => (r.body as { text?: { body: string } }).text?.body);
    await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from, text: 'caido' });
    await until('the menu', () => texts().length >= 2, 30_000);
    await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from, text: '1' });
    await until('the goodbye after the failed call', () => texts().length >= 3, 30_000);
    expect(texts()[2]).toBe('Hasta pronto.');
    const incidents = (await op('flows.incidents', { query: { flowId } })).json.items as { detail: string; stepId: string; flow: string }[];
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ stepId: 'api', flow: 'Saldo caído' });
    // In the reader's language: the console's Spanish by default, English when asked.
    expect(incidents[0].detail).toBe('No se pudo llegar a GET http://127.0.0.1:9/saldo?o=Pagar tras 3 intentos (ECONNREFUSED).');
    const inEnglish = (await op('flows.incidents', { query: { flowId }, language: 'en' })).json.items as { detail: string }[];
    expect(inEnglish[0].detail).toBe('GET http://127.0.0.1:9/saldo?o=Pagar could not be reached after 3 attempts (ECONNREFUSED).');
    const stats = (await op('flows.stats', { query: { flowId } })).json;
    expect(stats.steps.find((s: { stepId: string }) => s.stepId === 'api')).toMatchObject({ entered: 1, integrationFailed: 1 });

    // Someone is in the middle of its menu when the agent is switched off.
    const midway = '+573004440068';
    await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from: midway, text: 'caido' });
    const before = await until('the conversation at the menu', async () => (await server.db.selectFrom('conversations').select(['id', 'state', 'flow_id'])
      .where('contact', 'in', [midway, midway.slice(1)]).where('state', '=', 'waitingReply').executeTakeFirst()) ?? null, 30_000);
    expect(before.flow_id).toBe(flowId);

    // Switched off, the agent starts nothing more: its keyword goes to the channel's catch-all agent.
    expect((await op('agents.update', { params: { id: created.json.id }, body: { active: false } })).json.active).toBe(false);
    // And its open conversation does not go on: the bot and the sender no longer match (1001); the
    // answer is routed as a new message, to the channel's catch-all agent.
    await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from: midway, text: '1' });
    const ended = await until('the old conversation ended', async () => {
      const row = await server.db.selectFrom('conversations').select('state').where('id', '=', before.id).executeTakeFirstOrThrow();
      return row.state === 'abandoned' ? row : null;
    }, 30_000);
    expect(ended.state).toBe('abandoned');
    const mismatch = (await op('flows.incidents', { query: { flowId } })).json.items as { detail: string }[];
    expect(mismatch.map((i) => i.detail)).toContain('El agente de esta conversación fue apagado (1001): la conversación terminó.');
    const next = await until('a new conversation', async () => (await server.db.selectFrom('conversations').select(['flow_id', 'state'])
      .where('contact', 'in', [midway, midway.slice(1)]).where('id', '<>', before.id).executeTakeFirst()) ?? null, 30_000);
    expect(next.flow_id).not.toBe(flowId);
    await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from: '+573004440067', text: 'caido' });
    const started = await until('a conversation', async () => (await server.db.selectFrom('conversations').select('flow_id').where('contact', 'in', ['+573004440067', '573004440067']).executeTakeFirst()) ?? null, 30_000);
    expect(started.flow_id).not.toBe(flowId);
  });
});

describe('a campaign that carries a flow', () => {
  /** Confirm an appointment: the campaign's message, then the question; yes, no, or no answer. */
  const confirm: FlowDefinition = {
    steps: [
      step('start', 'initialPush', { text: '' }),
      step('ask', 'send', {
        text: '¿Confirmas tu cita? 1 Sí 2 No', obligatoryMatch: true, noMatch: 'goToStep', maxRetries: 1, waitMinutes: 60,
        responses: [{ id: 'yes', label: 'Sí', keywords: ['si'] }, { id: 'no', label: 'No', keywords: ['no'] }],
      }),
      step('ok', 'end', { text: 'Gracias, te esperamos.' }),
      step('cancel', 'end', { text: 'Entendido, cancelamos tu cita.' }),
    ],
    edges: [
      { from: 'start', output: 'next', to: 'ask' },
      ...answerEdges('ask', { yes: 'ok', no: 'cancel' }, 'cancel'),
    ],
  };

  it('refuses flows a campaign cannot push (99994, 99968, 99990), opens a conversation per recipient after its message, and ends the rest at its max complete interactions', async () => {
    const sms = channels['SMS Respuestas 85432'];
    const callFlow = await publishedFlow('Solo entrante', menu(integrationUrl));
    const draftOnly = (await op('flows.create', { body: { name: 'Sin publicar', draft: confirm } })).json.id as number;
    const base = { name: 'Citas de mañana', kind: 'open', purpose: 'transactional', channelId: sms, content: 'Hola, tienes cita mañana a las 9:00.' };
    expect((await op('campaigns.create', { body: { ...base, flowId: draftOnly } })).json).toMatchObject({ code: '99994', errors: [{ field: 'flowId' }] });
    expect((await op('campaigns.create', { body: { ...base, flowId: callFlow } })).json).toMatchObject({ code: '99968', errors: [{ field: 'flowId' }] });
    expect((await op('campaigns.create', { body: { ...base, kind: 'scheduled', scheduledAt: new Date(Date.now() + 86_400_000).toISOString(), flowId: callFlow } })).json)
      .toMatchObject({ code: '99990', errors: [{ field: 'flowId' }] });

    const flowId = await publishedFlow('Confirmar cita', confirm);
    const created = await op('campaigns.create', { body: { ...base, flowId, maxCompleteInteractions: 1 } });
    expect([created.status, created.json.flowId]).toEqual([200, flowId]);
    const campaignId = created.json.id as number;
    expect((await op('campaigns.pasteRecipients', { params: { id: campaignId }, body: { numbers: '3001230001\n3001230002' } })).status).toBe(200);
    expect((await op('campaigns.launch', { params: { id: campaignId } })).status).toBe(200);

    // Each number gets the campaign's message, then the flow's question, in that order.
    for (const digits of ['573001230001', '573001230002']) {
      await until(`both messages to ${digits}`, () => smsTo(digits).length >= 2, 30_000);
      expect(smsTo(digits).slice(0, 2)).toEqual(['Hola, tienes cita mañana a las 9:00.', '¿Confirmas tu cita? 1 Sí 2 No']);
    }
    const opened = await server.db.selectFrom('conversations').select(['contact', 'state', 'step_id', 'campaign_id']).where('campaign_id', '=', campaignId).orderBy('contact').execute();
    expect(opened).toEqual([
      { contact: '+573001230001', state: 'waitingReply', step_id: 'ask', campaign_id: campaignId },
      { contact: '+573001230002', state: 'waitingReply', step_id: 'ask', campaign_id: campaignId },
    ]);

    // The first answers yes: its conversation completes, and with it the campaign's one complete interaction.
    server.messaging!.smsc!.injectMo({ from: '573001230001', to: '85432', text: 'Sí', systemId: `ch${sms}` });
    await until('the thanks', () => smsTo('573001230001').length >= 3, 30_000);
    expect(smsTo('573001230001')[2]).toBe('Gracias, te esperamos.');
    const after = await server.db.selectFrom('conversations').select(['contact', 'state']).where('campaign_id', '=', campaignId).orderBy('contact').execute();
    expect(after).toEqual([{ contact: '+573001230001', state: 'completed' }, { contact: '+573001230002', state: 'abandoned' }]);
    const second = await server.db.selectFrom('conversations').select('id').where('campaign_id', '=', campaignId).where('contact', '=', '+573001230002').executeTakeFirstOrThrow();
    const transcript = (await op('flows.conversation', { params: { id: Number(second.id) } })).json.turns as { direction: string; body: string }[];
    expect(transcript.map((t) => `${t.direction}: ${t.body}`)).toEqual([
      'out: Hola, tienes cita mañana a las 9:00.', 'out: ¿Confirmas tu cita? 1 Sí 2 No', 'note: La campaña llegó a su máximo de interacciones completas.',
    ]);
  });
});

describe("a flow's training file", () => {
  /** Bills: pay or ask the amount; "Reembolso" is no response of this flow. */
  const bills: FlowDefinition = {
    steps: [
      step('start', 'initialCall', { keywords: ['factura'], text: 'Facturas Colibri.' }),
      step('ask', 'send', {
        text: '¿Pagar o consultar?', obligatoryMatch: true, noMatch: 'retry', nonMatchMessage: 'No entendí, escribe pagar o consultar.', maxRetries: 2, waitMinutes: 30,
        responses: [{ id: 'pay', label: 'Pagar', keywords: ['pago'] }, { id: 'query', label: 'Consultar', keywords: ['valor'] }],
      }),
      step('paid', 'end', { text: 'Te enviamos el enlace de pago.' }),
      step('amount', 'end', { text: 'Tu factura es de $120.000.' }),
      step('bye', 'end', { text: 'Hasta pronto.' }),
    ],
    edges: [
      { from: 'start', output: 'next', to: 'ask' },
      ...answerEdges('ask', { pay: 'paid', query: 'amount' }, 'bye'),
    ],
  };
  let flowId = 0;
  const sms = () => channels['SMS Respuestas 85432'];
  const say = (from: string, text: string) => server.messaging!.smsc!.injectMo({ from, to: '85432', text, systemId: `ch${sms()}` });

  /** The file as the console sends it: multipart, field `file`. */
  async function upload(id: number, name: string, content: string | Buffer) {
    const form = new FormData();
    form.append('file', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
    const path = serverOperations.find((o) => o.id === 'flows.uploadTraining')!.path.replace('{id}', String(id));
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'x-auth-token': token }, body: form });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  }

  beforeAll(async () => {
    flowId = await publishedFlow('Facturas', bills);
    expect((await op('agents.create', { body: { name: 'Facturas SMS', channelId: sms(), flowId, keywords: ['FACTURA'] } })).status).toBe(200);
  });

  it('reads the file (header, refused rows with why), lists its phrases, and an answer written as a phrase chooses the response it means; removed, it is matched as written again', async () => {
    expect((await op('flows.uploadTraining', { params: { id: flowId } })).json.code).toBe('99932');
    const file = 'Frase;Respuesta\nMe gustaría cancelar la deuda;Pagar\n¿cuánto debo este mes?;valor\n;Pagar\nhola;Reembolso\nme gustaría cancelar la deuda;pagar\n';
    const read = await upload(flowId, 'entrenamiento.csv', file);
    expect(read.status).toBe(200);
    expect(read.json).toEqual({
      fileName: 'entrenamiento.csv', rows: 5, phrases: 3, rejectedTotal: 2,
      rejected: [{ position: 4, value: '', reason: 'emptyPhrase' }, { position: 5, value: 'hola', reason: 'unknownMeaning' }],
    });
    const listed = await op('flows.training', { params: { id: flowId }, query: { q: 'deuda' } });
    expect(listed.json.items).toEqual([
      { row: 2, phrase: 'Me gustaría cancelar la deuda', meaning: 'Pagar' }, { row: 6, phrase: 'me gustaría cancelar la deuda', meaning: 'pagar' },
    ]);
    expect((await op('flows.get', { params: { id: flowId } })).json).toMatchObject({ trainingPhrases: 3, trainingFile: 'entrenamiento.csv' });
    // The editor's preview asks what an answer means, as the conversations do.
    expect((await op('flows.trainingMeanings', { params: { id: flowId }, query: { text: '¿Cuánto debo este MES?' } })).json).toEqual({ meanings: ['valor'] });
    expect((await op('flows.trainingMeanings', { params: { id: flowId }, query: { text: 'otra cosa' } })).json).toEqual({ meanings: [] });

    const from = '573158880021';
    say(from, 'factura');
    await until('the question', () => smsTo(from).length >= 2, 30_000);
    say(from, 'ME GUSTARÍA cancelar la deuda!');
    await until('the payment link', () => smsTo(from).length >= 3, 30_000);
    expect(smsTo(from)[2]).toBe('Te enviamos el enlace de pago.');
    expect((await conversationOf(`+${from}`))!.step_id).toBe('paid');

    // Without the file the same words match nothing: the question comes again.
    expect((await op('flows.clearTraining', { params: { id: flowId } })).json).toEqual({ ok: true });
    expect((await op('flows.training', { params: { id: flowId } })).json.items).toEqual([]);
    expect((await op('flows.trainingMeanings', { params: { id: flowId }, query: { text: 'me gustaría cancelar la deuda' } })).json).toEqual({ meanings: [] });
    const other = '573158880022';
    say(other, 'factura');
    await until('the question', () => smsTo(other).length >= 2, 30_000);
    say(other, 'me gustaría cancelar la deuda');
    await until('asked again', () => smsTo(other).length >= 3, 30_000);
    expect(smsTo(other)[2]).toBe('No entendí, escribe pagar o consultar.');
  });

  it('takes files past the recipients limit (20 MB) up to its own, replaces the phrases only once a file is read whole, and refuses files it cannot read', async () => {
    await upload(flowId, 'base.csv', 'frase,respuesta\nquiero pagar ya,Pagar\n');
    // 21 MB, every row refused (no response of the flow): read to the end, stored nothing.
    const big = Buffer.from('frase,respuesta\n' + 'una frase cualquiera,Reembolso\n'.repeat(Math.ceil((21 * 1024 * 1024) / 31)));
    const answer = await upload(flowId, 'grande.csv', big);
    expect([answer.status, answer.json.rejectedTotal, answer.json.rejected.length, answer.json.phrases]).toEqual([200, answer.json.rows, 200, 0]);
    expect(answer.json.rows).toBeGreaterThan(700_000);
    // A file that cannot be read changes nothing: the phrases of the last good file stay.
    await upload(flowId, 'base.csv', 'frase,respuesta\nquiero pagar ya,Pagar\n');
    const broken = await upload(flowId, 'roto.xlsx', Buffer.from('PK\u0003\u0004 no es un libro'));
    expect([broken.status, broken.json.code]).toEqual([415, '99932']);
    expect((await op('flows.training', { params: { id: flowId } })).json.items).toEqual([{ row: 2, phrase: 'quiero pagar ya', meaning: 'Pagar' }]);
    expect((await upload(999_999, 'base.csv', 'frase,respuesta\nquiero pagar ya,Pagar\n')).json.code).toBe('99994');
    // An XLS is parsed whole: past the recipients' 20 MB it is refused (CSV or XLSX then), naming the limit.
    const ole = Buffer.alloc(21 * 1024 * 1024);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    const xls = await upload(flowId, 'viejo.xls', ole);
    expect([xls.status, xls.json.code]).toEqual([413, '99937']);
    // Only the phrases of the flow's current file remain stored.
    expect((await server.db.selectFrom('flow_training_phrases').select('upload').distinct().where('flow_id', '=', flowId).execute()).length).toBe(1);
  }, 120_000);
});
