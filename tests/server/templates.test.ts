// Message templates (/Campaigns/Templates, component 2002) in a real server (startServer on port
// 0, sandbox mode, PGlite or PostgreSQL with DATABASE_URL): CRUD with the list convention, the
// content and WhatsApp body rules with their codes, company scoping and permissions, and
// WhatsApp's review for real — a template is submitted through the demo's WhatsApp channel to
// the Graph stand-in (POST /{waba-id}/message_templates), whose signed
// message_template_status_update webhook comes back through our webhook route and turns it
// APPROVED or REJECTED; an edit resubmits it (POST /{template-id}), a delete deletes it at Meta;
// a forged signature is refused and a replayed delivery changes nothing. Waits are on the
// stand-in's deliveries (answered by our route once applied), never sleeps.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSession } from '../../src/core/session-codec.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import type { GraphSandbox, WebhookDelivery } from '../../src/sandbox/graph/index.ts';
import type { DatabaseOptions } from '../../src/server/db/database.ts';
import { demoEmail, DEMO_COMPANY } from '../../src/server/db/demo-seed.ts';
import { hashPassword } from '../../src/server/security/passwords.ts';
import { startServer, type RunningServer } from '../../src/server/start.ts';
import { TEST_PASSWORD, testDatabase } from './harness.ts';

let server: RunningServer;
let graph: GraphSandbox;
let dropSchema = async () => {};
let manager: string;
let andina: string;
let wabaId: string;

async function database(): Promise<DatabaseOptions> {
  const { options, drop } = await testDatabase();
  dropSchema = drop;
  return options;
}

const byId = new Map(serverOperations.map((o) => [o.id, o]));

/** One declared operation through the real routes (app.inject), as the harness does. */
async function op(id: OperationId, args: { token?: string; params?: Record<string, string | number>; query?: Record<string, string | number>; body?: unknown } = {}) {
  const spec = byId.get(id)!;
  let url = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(args.params?.[name])));
  if (args.query) url += `?${new URLSearchParams(Object.entries(args.query).map(([k, v]) => [k, String(v)]))}`;
  const headers: Record<string, string> = args.token ? { 'x-auth-token': args.token } : {};
  if (args.body !== undefined) headers['content-type'] = 'application/json';
  const res = await server.app.inject({ method: spec.method, url, headers, payload: args.body === undefined ? undefined : JSON.stringify(args.body) });
  return { status: res.statusCode, json: res.json() as Record<string, any> };
}

async function signin(email: string): Promise<string> {
  const res = await op('clientAuth.signin', { body: { email, password: TEST_PASSWORD } });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return decodeSession(res.json.clientToken)!.token;
}

/** A new user of the demo company whose one role grants only what is given. */
async function userWith(grants: { id: number; actions: string[] }[]): Promise<string> {
  const company = await server.db.selectFrom('companies').select('id').where('name', '=', DEMO_COMPANY.name).executeTakeFirstOrThrow();
  const email = `plantillas${randomBytes(3).toString('hex')}@demo.colibri.co`;
  const role = await server.db.insertInto('roles').values({ company_id: company.id, name: `Solo ver ${email}`, read_only: false, permissions: JSON.stringify(grants) }).returning('id').executeTakeFirstOrThrow();
  const user = await server.db.insertInto('users').values({
    company_id: company.id, parent_id: null, full_name: 'Solo ver', email, phone: null, document_type: null, document_id: null, address: null,
    state: 'active', otp_method: 'email', password_hash: await hashPassword(TEST_PASSWORD), password_changed_at: new Date(), locked_until: null, profile_pic_file: null,
  }).returning('id').executeTakeFirstOrThrow();
  await server.db.insertInto('user_roles').values({ user_id: user.id, role_id: role.id }).execute();
  return signin(email);
}

/** The status webhook the stand-in posted for a template (ours answered it: the change is applied). */
const statusWebhook = (templateId: string, event: string, after = 0): Promise<WebhookDelivery> =>
  graph.waitForDelivery((d) => graph.deliveries.indexOf(d) >= after && d.body.includes('message_template_status_update') && d.body.includes(`"message_template_id":${templateId}`) && d.body.includes(`"event":"${event}"`), 10_000);

const create = (body: Record<string, unknown>, token = manager) => op('templates.create', { token, body });
const get = (id: number, token = manager) => op('templates.get', { token, params: { id } });
const row = (id: number) => server.db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  server = await startServer({
    port: 0,
    sandbox: true,
    database: await database(),
    demoPassword: TEST_PASSWORD,
    consoleRoot: null,
    messaging: { dispatcher: { idleMs: 20 }, graph: { templateReviewMs: 30 } },
  });
  graph = server.messaging!.graph!;
  manager = await signin(demoEmail('manager'));
  andina = await signin('superadmin@andina.demo.colibri.co');
  const channel = await server.db.selectFrom('channels').select('credentials').where('platform', '=', 'whatsapp').executeTakeFirstOrThrow();
  wabaId = channel.credentials.accountSids[0].sid;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await dropSchema();
});

describe('templates: SMS and the other channels', () => {
  it('creates, reads, lists (filters, search, sort), edits and deletes; no review: APPROVED at once', async () => {
    const made = await create({ name: 'aviso_entrega', channel: 'sms', purpose: 'transactional', content: 'Hola {{nombre}}, tu pedido {{pedido}} llega hoy.' });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    expect(made.json).toMatchObject({ name: 'aviso_entrega', channel: 'sms', purpose: 'transactional', variables: ['nombre', 'pedido'], status: 'APPROVED', category: null, language: null, channelId: null, providerTemplateId: null, rejectionReason: null });
    const id = made.json.id as number;
    expect((await get(id)).json).toEqual(made.json);

    // The demo's own templates are there too: filters, search and sorting run on the server.
    const sms = (await op('templates.list', { token: manager, query: { channel: 'sms', sort: 'name', order: 'asc' } })).json;
    expect(sms.items.map((t: { name: string }) => t.name)).toEqual(['aviso_entrega', 'promo_fin_de_semana', 'recordatorio_pago']);
    expect(sms.total).toBe(3);
    const commercial = (await op('templates.list', { token: manager, query: { purpose: 'commercial' } })).json;
    expect(commercial.items.map((t: { name: string }) => t.name)).toEqual(['promo_fin_de_semana']);
    const found = (await op('templates.list', { token: manager, query: { q: 'llega hoy' } })).json;
    expect(found.items.map((t: { id: number }) => t.id)).toEqual([id]);
    const whatsapp = (await op('templates.list', { token: manager, query: { channel: 'whatsapp', status: 'APPROVED' } })).json;
    expect(whatsapp.items).toEqual([expect.objectContaining({ name: 'colibri_aviso', language: 'es_CO', category: 'UTILITY', channelName: 'WhatsApp Atención' })]);
    const paged = (await op('templates.list', { token: manager, query: { pageSize: 2, page: 2, sort: 'name' } })).json;
    expect(paged).toMatchObject({ page: 2, pageSize: 2, total: 4 });

    const edited = await op('templates.update', { token: manager, params: { id }, body: { name: 'aviso_entrega_hoy', content: 'Hola {{nombre}}, llega hoy.', purpose: 'commercial' } });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ name: 'aviso_entrega_hoy', purpose: 'commercial', variables: ['nombre'], status: 'APPROVED' });

    const deleted = await op('templates.delete', { token: manager, params: { id } });
    expect(deleted).toEqual({ status: 200, json: { ok: true } });
    expect((await get(id)).json.code).toBe('99959');
  });

  it('refuses with the catalogue codes: name, content, duplicates, fields of another channel, channel types', async () => {
    const base = { name: 'prueba_reglas', channel: 'sms', content: 'Hola {{nombre}}' };
    expect((await create({ ...base, name: 'Con Mayúsculas' })).json).toMatchObject({ code: '99931', errors: [{ field: 'name' }] });
    expect((await create({ name: 'sin_contenido', channel: 'sms' })).json).toMatchObject({ code: '99999', errors: [{ field: 'content' }] });
    expect((await create({ ...base, content: 'Hola {{nombre}' })).json).toMatchObject({ code: '99924', errors: [{ field: 'content' }] });
    expect((await create({ ...base, content: 'Compra en https://tienda.example.com/promo' })).json).toMatchObject({ code: '99925', errors: [{ field: 'content' }] });
    expect((await create({ ...base, language: 'es' })).json).toMatchObject({ code: '99931', errors: [{ field: 'language' }] });
    expect((await create({ ...base, name: 'recordatorio_pago' })).json).toMatchObject({ code: '99913', errors: [{ field: 'name' }] });
    expect((await create({ ...base, channel: 'telegram' })).json.code).toBe('99931');
    // Andina Logística may use SMS only.
    expect((await create({ ...base, channel: 'rcs' }, andina)).json).toMatchObject({ code: '99972', errors: [{ field: 'channel' }] });
    const ok = await create(base);
    expect(ok.status).toBe(200);
    const renamed = await op('templates.update', { token: manager, params: { id: ok.json.id }, body: { name: 'promo_fin_de_semana' } });
    expect(renamed.json).toMatchObject({ code: '99913', errors: [{ field: 'name' }] });
    expect((await op('templates.update', { token: manager, params: { id: ok.json.id }, body: {} })).json.code).toBe('99931');
    await op('templates.delete', { token: manager, params: { id: ok.json.id } });
  });

  it("keeps companies apart: another company's template is not found, and lists hold their own", async () => {
    const demo = (await op('templates.list', { token: manager, query: { q: 'recordatorio' } })).json.items[0];
    expect((await get(demo.id, andina)).json.code).toBe('99959');
    expect((await op('templates.update', { token: andina, params: { id: demo.id }, body: { content: 'otro' } })).json.code).toBe('99959');
    expect((await op('templates.delete', { token: andina, params: { id: demo.id } })).json.code).toBe('99959');
    const theirs = (await op('templates.list', { token: andina })).json;
    expect(theirs.items.map((t: { name: string }) => t.name)).toEqual(['despacho_en_ruta']);
    // The same name is free in another company.
    const same = await create({ name: 'recordatorio_pago', channel: 'sms', content: 'Su factura vence pronto.' }, andina);
    expect(same.status).toBe(200);
    expect((await get(demo.id)).json.content).toContain('{{factura}}');
  });

  it('refuses changes to a role that may only view templates (99982); viewing works', async () => {
    const viewer = await userWith([{ id: 2002, actions: ['view'] }]);
    expect((await op('templates.list', { token: viewer })).status).toBe(200);
    expect((await create({ name: 'no_permitida', channel: 'sms', content: 'x' }, viewer)).json.code).toBe('99982');
    const demo = (await op('templates.list', { token: manager, query: { q: 'promo' } })).json.items[0];
    expect((await op('templates.update', { token: viewer, params: { id: demo.id }, body: { content: 'x' } })).json.code).toBe('99982');
    expect((await op('templates.delete', { token: viewer, params: { id: demo.id } })).json.code).toBe('99982');
    // The analista, like for campaigns (no manageRoles on 20/2002), writes templates.
    const analista = await signin(demoEmail('analista'));
    const theirs = await create({ name: 'de_analista', channel: 'sms', content: 'Hola' }, analista);
    expect(theirs.status).toBe(200);
  });
});

describe('templates: WhatsApp review at Meta (Graph stand-in)', () => {
  it('submits a template; the signed status webhook turns it APPROVED; a replay changes nothing', async () => {
    const before = graph.templateRequests.length;
    const made = await create({ name: 'pedido_despachado', channel: 'whatsapp', purpose: 'transactional', language: 'es_CO', content: 'Hola {{1}}, tu pedido {{2}} salió hoy. ¡Gracias!' });
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    expect(made.json).toMatchObject({ status: 'PENDING', category: 'UTILITY', language: 'es_CO', channelName: 'WhatsApp Atención', providerTemplateId: expect.stringMatching(/^\d{16}$/), variables: ['1', '2'] });
    expect(made.json.submittedAt).toEqual(expect.any(String));
    // What reached Meta: the business account's message_templates, with an example per parameter.
    const request = graph.templateRequests[before];
    expect(request).toMatchObject({ method: 'POST', target: wabaId, status: 200, answer: { id: made.json.providerTemplateId, status: 'PENDING', category: 'UTILITY' } });
    expect(request.body).toEqual({
      name: 'pedido_despachado', language: 'es_CO', category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hola {{1}}, tu pedido {{2}} salió hoy. ¡Gracias!', example: { body_text: [['ejemplo 1', 'ejemplo 2']] } }],
    });

    const delivery = await statusWebhook(made.json.providerTemplateId, 'APPROVED');
    expect(delivery.answer?.status).toBe(200);
    expect(delivery.headers['x-hub-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
    // Meta's shape (its webhook reference; the OpenAPI document does not describe this field).
    const change = JSON.parse(delivery.body).entry[0];
    expect(change).toMatchObject({ id: wabaId, time: expect.any(Number), changes: [{ field: 'message_template_status_update', value: { event: 'APPROVED', message_template_id: Number(made.json.providerTemplateId), message_template_name: 'pedido_despachado', message_template_language: 'es_CO', reason: 'NONE', message_template_category: 'UTILITY' } }] });
    const approved = (await get(made.json.id)).json;
    expect(approved).toMatchObject({ status: 'APPROVED', rejectionReason: null });

    const stored = await row(made.json.id);
    const again = await graph.replay(delivery);
    expect(again.answer?.status).toBe(200);
    expect(await row(made.json.id)).toEqual(stored);
    expect((await get(made.json.id)).json).toEqual(approved);
  });

  it('a name with "rechazo" comes back REJECTED with Meta\'s reason; a forged signature is refused and changes nothing', async () => {
    const made = await create({ name: 'promo_rechazo_total', channel: 'whatsapp', purpose: 'commercial', language: 'es', content: 'Hola {{nombre}}, {{descuento}} de descuento solo hoy.' });
    expect(made.json).toMatchObject({ status: 'PENDING', category: 'MARKETING', variables: ['nombre', 'descuento'] });
    // Named parameters go with parameter_format "named" and an example for each.
    const body = graph.templateRequests.at(-1)!.body as Record<string, any>;
    expect(body).toMatchObject({ parameter_format: 'named', components: [{ type: 'BODY', example: { body_text_named_params: [{ param_name: 'nombre', example: 'nombre' }, { param_name: 'descuento', example: 'descuento' }] } }] });

    await statusWebhook(made.json.providerTemplateId, 'REJECTED');
    expect((await get(made.json.id)).json).toMatchObject({ status: 'REJECTED', rejectionReason: 'INCORRECT_CATEGORY' });

    const stored = await row(made.json.id);
    const phoneNumberId = (await server.db.selectFrom('channels').select('credentials').where('platform', '=', 'whatsapp').executeTakeFirstOrThrow()).credentials.accountSids[0].sid;
    const forged = await graph.sendForged('whatsapp', phoneNumberId, {
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, time: Math.floor(Date.now() / 1000), changes: [{ field: 'message_template_status_update', value: { event: 'APPROVED', message_template_id: Number(made.json.providerTemplateId), message_template_name: 'promo_rechazo_total', message_template_language: 'es', reason: 'NONE' } }] }],
    });
    expect(forged.answer?.status).toBe(401);
    expect(JSON.parse(forged.answer!.body).code).toBe('99953');
    expect(await row(made.json.id)).toEqual(stored);
  });

  it('an edit resubmits the template (PENDING, then Meta answers again); no edits while in review, name and language are fixed', async () => {
    const made = await create({ name: 'cita_recordatorio', channel: 'whatsapp', purpose: 'transactional', language: 'es', content: 'Hola {{1}}, tu cita es el {{2}}.' });
    const templateId = made.json.providerTemplateId as string;
    // Meta is still reviewing it (unless it already answered): either way the webhook comes.
    const first = await statusWebhook(templateId, 'APPROVED');
    const mark = graph.deliveries.indexOf(first) + 1;

    const edited = await op('templates.update', { token: manager, params: { id: made.json.id }, body: { content: 'Hola {{1}}, recuerda tu cita del {{2}}.' } });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    expect(edited.json).toMatchObject({ status: 'PENDING', providerTemplateId: templateId, content: 'Hola {{1}}, recuerda tu cita del {{2}}.' });
    expect(graph.templateRequests.at(-1)).toMatchObject({ method: 'POST', target: templateId, status: 200, body: { category: 'UTILITY', components: [{ type: 'BODY', text: 'Hola {{1}}, recuerda tu cita del {{2}}.' }] } });
    await statusWebhook(templateId, 'APPROVED', mark);
    expect((await get(made.json.id)).json).toMatchObject({ status: 'APPROVED', content: 'Hola {{1}}, recuerda tu cita del {{2}}.' });
    expect((await op('templates.update', { token: manager, params: { id: made.json.id }, body: { name: 'cita_otra' } })).json).toMatchObject({ code: '99931', errors: [{ field: 'name' }] });
    expect((await op('templates.update', { token: manager, params: { id: made.json.id }, body: { language: 'en_US' } })).json).toMatchObject({ code: '99931', errors: [{ field: 'language' }] });
    // While Meta reviews it, it cannot be edited (Meta refuses edits in review too).
    await server.db.updateTable('templates').set({ status: 'PENDING' }).where('id', '=', made.json.id).execute();
    expect((await op('templates.update', { token: manager, params: { id: made.json.id }, body: { content: 'Otra vez {{1}} el {{2}}.' } })).json.code).toBe('99912');
    await server.db.updateTable('templates').set({ status: 'APPROVED' }).where('id', '=', made.json.id).execute();
    // Only the purpose: nothing for Meta to review.
    const purpose = await op('templates.update', { token: manager, params: { id: made.json.id }, body: { purpose: 'commercial' } });
    expect(purpose.json).toMatchObject({ purpose: 'commercial', status: 'APPROVED', category: 'UTILITY' });

    // Delete: at Meta too.
    const requests = graph.templateRequests.length;
    expect((await op('templates.delete', { token: manager, params: { id: made.json.id } })).json).toEqual({ ok: true });
    expect(graph.templateRequests[requests]).toMatchObject({ method: 'DELETE', target: wabaId, status: 200 });
    expect(graph.template(templateId)).toBeUndefined();
  });

  it("Meta's body rules and refusals: codes, and nothing stored when Meta says no", async () => {
    const wa = { channel: 'whatsapp', language: 'es', purpose: 'transactional' };
    expect((await create({ ...wa, name: 'sin_idioma', language: undefined, content: 'Hola' })).json).toMatchObject({ code: '99999', errors: [{ field: 'language' }] });
    expect((await create({ ...wa, name: 'mezcla', content: 'Hola {{1}} y {{nombre}} adiós' })).json).toMatchObject({ code: '99910', errors: [{ field: 'content' }] });
    expect((await create({ ...wa, name: 'desorden', content: 'Hola {{2}} y {{1}} adiós' })).json).toMatchObject({ code: '99910', errors: [{ field: 'content' }] });
    expect((await create({ ...wa, name: 'mayusculas', content: 'Hola {{Nombre}} adiós' })).json).toMatchObject({ code: '99910', errors: [{ field: 'content' }] });
    expect((await create({ ...wa, name: 'al_borde', content: '{{1}} es tu saldo' })).json).toMatchObject({ code: '99910', errors: [{ field: 'content' }] });
    expect((await create({ ...wa, name: 'codigo_doble', purpose: 'otp', content: 'Tu código {{1}} y {{2}}' })).json).toMatchObject({ code: '99910', errors: [{ field: 'content' }] });
    expect((await create({ ...wa, name: 'muy_largo', content: `Hola ${'a'.repeat(1030)}` })).json).toMatchObject({ code: '99931', errors: [{ field: 'content' }] });
    expect((await create({ ...wa, name: 'canal_ajeno', channelId: 999999, content: 'Hola' })).json).toMatchObject({ code: '99972', errors: [{ field: 'channelId' }] });

    // An authentication template: Meta writes the body; we send the copy-code button.
    const otp = await create({ ...wa, name: 'codigo_acceso', purpose: 'otp', content: '{{1}} es tu código de acceso.' });
    expect(otp.json).toMatchObject({ status: 'PENDING', category: 'AUTHENTICATION' });
    expect(graph.templateRequests.at(-1)!.body).toEqual({ name: 'codigo_acceso', language: 'es', category: 'AUTHENTICATION', components: [{ type: 'BODY', add_security_recommendation: true }, { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] }] });

    // Meta already has hello_world in en_US for this account: it refuses, and nothing is kept.
    const count = (await op('templates.list', { token: manager })).json.total;
    const refused = await create({ ...wa, name: 'hello_world', language: 'en_US', content: 'Hello {{1}}, welcome.' });
    expect(refused.json.code).toBe('99911');
    expect(refused.json.message).toContain('Content in this language already exists');
    expect((await op('templates.list', { token: manager })).json.total).toBe(count);
  });

  it("the stand-in's own registry (what sends may use) follows its review", async () => {
    const made = await create({ name: 'bienvenida_cliente', channel: 'whatsapp', purpose: 'transactional', language: 'es', content: 'Hola {{1}}, bienvenido a nuestra tienda.' });
    const webhook = statusWebhook(made.json.providerTemplateId, 'APPROVED');
    // Meta answered the submission PENDING. (Its registry is not read here before the review: the
    // review comes 30 ms after the submission, and a loaded machine can take longer than that to
    // answer the create, which made this check fail now and then.)
    expect(made.json.status).toBe('PENDING');
    await webhook;
    expect(graph.template(made.json.providerTemplateId)?.status).toBe('APPROVED');
  });
});
