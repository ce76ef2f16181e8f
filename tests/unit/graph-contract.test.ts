// Our WhatsApp requests (messages and template management) and the Graph stand-in's answers and
// webhooks, checked against Meta's own OpenAPI description (a copy of ../shared/contracts in tests/fixtures/contracts, MIT, kept in the repository so a clean clone tests against it).
//
// The document needs two faithful repairs before a JSON Schema validator can use it, both
// proven below with Meta's own examples:
// 1. `additionalProperties: false` inside an allOf member cannot see the properties its
//    siblings declare, so TextMessage rejects every text message (even Meta's examples). It is
//    moved to `unevaluatedProperties: false` on the allOf (JSON Schema 2020-12), which keeps
//    "no unknown properties" as intended.
// 2. The inbound message schemas (TextMessage_2, ButtonMessage, InteractiveMessageReply) inherit
//    the OUTBOUND BaseMessageProperties (to, recipient_type, messaging_product required), and
//    IncomingMessage points at the outbound TextMessage; their own examples fail. For inbound
//    webhooks the base is replaced by the documented inbound fields {from, id, timestamp, type}.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { createWhatsAppAdapter, createWhatsAppTemplate, deleteWhatsAppTemplate, editWhatsAppTemplate } from '../../src/engine/channels/whatsapp/index.ts';
import { startGraphSandbox, type GraphSandbox } from '../../src/sandbox/graph/index.ts';

const CONTRACT = new URL('../fixtures/contracts/whatsapp-business-messaging-api_v23.0.yaml', import.meta.url);
const SEND_PATH = '/{Version}/{Phone-Number-ID}/messages';

type Json = Record<string, any>;

function closeAllOfs(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeAllOfs);
  if (!node || typeof node !== 'object') return;
  const n = node as Json;
  if (Array.isArray(n.allOf)) {
    let closed = false;
    for (const member of n.allOf) {
      if (member && member.additionalProperties === false) {
        delete member.additionalProperties;
        closed = true;
      }
    }
    if (closed) n.unevaluatedProperties = false;
  }
  Object.values(n).forEach(closeAllOfs);
}

const INBOUND_BASE = {
  type: 'object',
  required: ['from', 'id', 'timestamp', 'type'],
  properties: { from: { type: 'string' }, id: { type: 'string' }, timestamp: { type: 'string' }, type: { type: 'string' } },
};
const INBOUND_KINDS = ['TextMessage_2', 'ButtonMessage', 'InteractiveMessageReply'];

function repairInbound(schemas: Json): void {
  schemas.InboundBase = INBOUND_BASE;
  for (const name of INBOUND_KINDS) {
    schemas[name].allOf = schemas[name].allOf.map((m: Json) => (m.$ref === '#/components/schemas/BaseMessageProperties' ? { $ref: '#/components/schemas/InboundBase' } : m));
  }
  schemas.IncomingMessage = { oneOf: INBOUND_KINDS.map((name) => ({ $ref: `#/components/schemas/${name}` })) };
}

let doc: Json;
let validators: { request: ValidateFunction; response: ValidateFunction; error: ValidateFunction; webhook: ValidateFunction; inboundAsDocumented: Record<string, ValidateFunction>; inboundRepaired: Record<string, ValidateFunction> };

function compile(components: Json, id: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: id, components });
  return (ref: string) => ajv.compile({ $ref: `${id}${ref}` });
}

beforeAll(() => {
  doc = parse(readFileSync(CONTRACT, 'utf8'));
  const send = doc.paths[SEND_PATH].post;
  const requestRef: string = send.requestBody.content['application/json'].schema.$ref;
  const responseRef: string = send.responses['200'].content['application/json'].schema.$ref;

  const asDocumented = compile(structuredClone(doc.components), 'asDocumented');
  const repaired = structuredClone(doc.components);
  closeAllOfs(repaired);
  repairInbound(repaired.schemas);
  const use = compile(repaired, 'wa');
  validators = {
    request: use(requestRef),
    response: use(responseRef),
    error: use('#/components/schemas/ErrorResponse'),
    webhook: use('#/components/schemas/WebhookPayload'),
    inboundAsDocumented: Object.fromEntries(INBOUND_KINDS.map((k) => [k, asDocumented(`#/components/schemas/${k}`)])),
    inboundRepaired: Object.fromEntries(INBOUND_KINDS.map((k) => [k, use(`#/components/schemas/${k}`)])),
  };
});

const errorsOf = (v: ValidateFunction) => JSON.stringify(v.errors?.slice(0, 5));

describe('the repairs keep the document honest', () => {
  it('a text message with an unknown property is still refused', () => {
    const ok = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '573001234567', type: 'text', text: { body: 'Hola', preview_url: false } };
    expect(validators.request(ok), errorsOf(validators.request)).toBe(true);
    expect(validators.request({ ...ok, surprise: true })).toBe(false);
    expect(validators.request({ ...ok, text: { body: 'Hola', bold: true } })).toBe(false);
  });

  it("Meta's own inbound examples fail the schemas as written and pass the repaired ones", () => {
    for (const name of INBOUND_KINDS) {
      const example = doc.components.schemas[name].allOf[1].example;
      expect(example, name).toBeTruthy();
      expect(validators.inboundAsDocumented[name](example), name).toBe(false);
      expect(validators.inboundRepaired[name](example), `${name} ${errorsOf(validators.inboundRepaired[name])}`).toBe(true);
    }
  });
});

describe('WhatsApp adapter requests and the stand-in against the contract', () => {
  let graph: GraphSandbox;
  beforeAll(async () => {
    graph = await startGraphSandbox({
      whatsapp: [{ id: '106540352242922', displayPhoneNumber: '573001000001', accessToken: 'token-wa', appSecret: 'app-secret' }],
      templates: [{ name: 'pedido_listo', language: 'es_CO' }, { name: 'cita_recordatorio', language: 'es' }],
    });
  });
  afterAll(() => graph.stop());

  it('text, positional template and named template bodies, their answers and every webhook validate', async () => {
    const adapter = createWhatsAppAdapter({ baseUrl: graph.url, phoneNumberId: '106540352242922', accessToken: 'token-wa' });
    await graph.injectWhatsAppInbound({ phoneNumberId: '106540352242922', from: '+573001234567', text: 'Hola, ¿tienen envío a Medellín? ñ', name: 'Begoña' });
    const outcomes = await adapter.submit([
      { id: '1', to: '+573001234567', text: 'Sí señora, envío en 24 horas. Pedido nº 12' },
      { id: '2', to: '+573001234567', template: { name: 'pedido_listo', language: 'es_CO', parameters: ['Juan', '12.345'] } },
      { id: '3', to: '+573001234567', template: { name: 'cita_recordatorio', language: 'es', parameters: { nombre: 'Ana', fecha: '3 de marzo' } } },
      { id: '4', to: '+573009990000', template: { name: 'pedido_listo', language: 'es_CO', parameters: ['Luis', '1'] } },
      { id: '5', to: '+573001234567', template: { name: 'no_existe', language: 'es_CO', parameters: [] } },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'failed']);
    await graph.idle();
    await adapter.close();

    expect(graph.requests).toHaveLength(5);
    for (const request of graph.requests) {
      expect(validators.request(request.body), `request ${JSON.stringify(request.body)}: ${errorsOf(validators.request)}`).toBe(true);
      const answer = request.status === 200 ? validators.response : validators.error;
      expect(answer(request.answer), `answer ${JSON.stringify(request.answer)}: ${errorsOf(answer)}`).toBe(true);
    }
    const named = graph.requests[2].body as Json;
    expect(named.template.components[0].parameters).toEqual([
      { type: 'text', parameter_name: 'nombre', text: 'Ana' },
      { type: 'text', parameter_name: 'fecha', text: '3 de marzo' },
    ]);

    // 1 inbound + 3 accepted × (sent, delivered, read) + 1 failed status
    expect(graph.deliveries).toHaveLength(1 + 3 * 3 + 1);
    const kinds = new Set<string>();
    for (const delivery of graph.deliveries) {
      const payload = JSON.parse(delivery.body);
      expect(validators.webhook(payload), `webhook ${delivery.body}: ${errorsOf(validators.webhook)}`).toBe(true);
      const value = payload.entry[0].changes[0].value;
      if (value.statuses) kinds.add(value.statuses[0].status);
      if (value.messages) kinds.add(`inbound:${value.messages[0].type}`);
    }
    expect([...kinds].sort()).toEqual(['delivered', 'failed', 'inbound:text', 'read', 'sent']);
  });
});

describe('WhatsApp template management against the contract', () => {
  const TEMPLATES_PATH = '/{Version}/{WABA-ID}/message_templates';
  const TEMPLATE_PATH = '/{Version}/{TEMPLATE_ID}';
  let graph: GraphSandbox;
  const account = () => ({ baseUrl: graph.url, wabaId: '102290129340398', accessToken: 'token-wa' });
  beforeAll(async () => {
    graph = await startGraphSandbox({
      whatsapp: [{ id: '106540352242922', displayPhoneNumber: '573001000001', accessToken: 'token-wa', appSecret: 'app-secret', wabaId: '102290129340398' }],
      templateReviewMs: 0,
    });
  });
  afterAll(() => graph.stop());

  const inline = (schema: Json) => new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(schema);

  it('create, edit and delete bodies and answers validate; the review is not in the document (Meta\'s webhook reference shapes it)', async () => {
    const created = await createWhatsAppTemplate(account(), { name: 'pedido_listo', language: 'es_CO', category: 'UTILITY', content: 'Hola {{1}}, tu pedido {{2}} está listo.' });
    expect(created).toMatchObject({ ok: true, status: 'PENDING', category: 'UTILITY' });
    const id = (created as { id: string }).id;
    await graph.idle(); // reviewed: APPROVED, so it may be edited
    const edited = await editWhatsAppTemplate(account(), id, { name: 'pedido_listo', language: 'es_CO', category: 'UTILITY', content: 'Hola {{nombre}}, tu pedido está listo.' });
    expect(edited).toMatchObject({ ok: true });
    await graph.idle();
    expect(await deleteWhatsAppTemplate(account(), id, 'pedido_listo')).toMatchObject({ ok: true });

    const [create, edit, remove] = graph.templateRequests;
    const createOp = doc.paths[TEMPLATES_PATH].post;
    const createRequest = inline(createOp.requestBody.content['application/json'].schema);
    expect(createRequest(create.body), errorsOf(createRequest)).toBe(true);
    const createAnswer = inline(createOp.responses['200'].content['application/json'].schema);
    expect(createAnswer(create.answer), errorsOf(createAnswer)).toBe(true);
    // Meta's own example of a created template's body passes the schema we check ours with.
    for (const [name, example] of Object.entries(createOp.requestBody.content['application/json'].examples as Record<string, { value: unknown }>)) {
      expect(createRequest(example.value), name).toBe(true);
    }
    const editOp = doc.paths[TEMPLATE_PATH].post;
    const editRequest = inline(editOp.requestBody.content['application/json'].schema);
    expect(edit).toMatchObject({ method: 'POST', target: id, status: 200 });
    expect(editRequest(edit.body), errorsOf(editRequest)).toBe(true);
    expect(inline(editOp.responses['200'].content['application/json'].schema)(edit.answer)).toBe(true);
    expect(remove).toMatchObject({ method: 'DELETE', target: '102290129340398', status: 200, answer: { success: true } });
    expect(inline(doc.paths[TEMPLATES_PATH].delete.responses['200'].content['application/json'].schema)(remove.answer)).toBe(true);

    // The document's webhook changes know no message_template_status_update: the stand-in follows
    // Meta's webhook reference (entry.id = WABA, time, value {event, message_template_id, …}).
    expect(doc.components.schemas.Change.properties.field.enum).not.toContain('message_template_status_update');
    const reviews = graph.deliveries.map((d) => JSON.parse(d.body));
    expect(reviews).toHaveLength(2);
    for (const review of reviews) {
      expect(review).toMatchObject({ object: 'whatsapp_business_account', entry: [{ id: '102290129340398', time: expect.any(Number), changes: [{ field: 'message_template_status_update', value: { event: 'APPROVED', message_template_id: Number(id), message_template_name: 'pedido_listo', message_template_language: 'es_CO', reason: 'NONE', message_template_category: 'UTILITY' } }] }] });
    }
  });
});
