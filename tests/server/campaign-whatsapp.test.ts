// WhatsApp campaigns in a real server (sandbox mode, PGlite or PostgreSQL with
// DATABASE_URL) against the Graph stand-in. A campaign on the demo's WhatsApp channel keeps its
// approved template (colibri_aviso: "Hola {{1}}, tu pedido {{2}} va en camino"); each parameter
// gets a column of the uploaded file chosen by the user (the file's columns are `telefono,nombre,
// pedido`: no column has to be named "1" or "2"); launch refuses while a parameter has no column
// (99908), and then the stand-in receives `type: template` bodies with the mapped values and the
// messages are delivered. Free text is predicted outside the 24-hour window (Meta's 131047) in
// the summary and refused at launch (99907) with nothing created, until every recipient wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSession } from '../../src/core/session-codec.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { startServer, type RunningServer } from '../../src/server/start.ts';
import { TEST_PASSWORD, testDatabase } from './harness.ts';
import { until } from './until.ts';

let server: RunningServer;
let dropSchema = async () => {};
let token = '';
let channelId = 0;
let templateId = 0;

beforeAll(async () => {
  const { options, drop } = await testDatabase();
  dropSchema = drop;
  server = await startServer({ logger: { level: 'error' }, port: 0, sandbox: true, database: options, demoPassword: TEST_PASSWORD, consoleRoot: null, messaging: { dispatcher: { idleMs: 20 } } });
  const signin = await api('POST', path('clientAuth.signin'), { email: demoEmail('manager'), password: TEST_PASSWORD });
  token = decodeSession(signin.json.clientToken)!.token;
  channelId = (await api('GET', `${path('channels.list')}?platform=whatsapp&enabled=true`)).json.items[0].id;
  const templates = (await api('GET', `${path('templates.list')}?channel=whatsapp&status=APPROVED`)).json.items as { id: number; name: string }[];
  templateId = templates.find((t) => t.name === 'colibri_aviso')!.id;
}, 120_000);

afterAll(async () => {
  // The stand-in's last status webhooks are answered before the server stops.
  await server?.messaging?.graph?.idle();
  await server?.close();
  await dropSchema();
});

const path = (id: string) => serverOperations.find((o) => o.id === id)!.path;
const withId = (id: string, campaignId: number) => path(id).replace('{id}', String(campaignId));

async function api(method: string, url: string, body?: unknown) {
  const response = await fetch(`${server.url}${url}`, {
    method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { 'x-auth-token': token } : {}) }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

async function upload(campaignId: number, text: string) {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), 'clientes.csv');
  const response = await fetch(`${server.url}${withId('campaigns.uploadRecipients', campaignId)}`, { method: 'POST', headers: { 'x-auth-token': token }, body: form });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

const messagesOf = (deploymentId: number) => server.db.selectFrom('messages').select(['to_number', 'state', 'body', 'error_code']).where('deployment_id', '=', deploymentId).orderBy('to_number').execute();
const sentTo = (digits: string) => server.messaging!.graph!.requests.filter((r) => (r.body as { to?: string }).to === digits);

describe('a WhatsApp campaign from an approved template', () => {
  it('fills named parameters from the file\'s columns of the same name, case and accents aside, without asking', async () => {
    const at = new Date();
    const companyId = (await server.db.selectFrom('channels').select('company_id').where('id', '=', channelId).executeTakeFirstOrThrow()).company_id;
    const named = await server.db.insertInto('templates').values({
      company_id: companyId, name: 'pedido_nombrado', channel: 'whatsapp', purpose: 'transactional', content: 'Hola {{nombre}}, tu pedido {{código_pedido}} está listo.',
      variables: JSON.stringify(['nombre', 'código_pedido']), category: 'UTILITY', language: 'es_CO', channel_id: channelId, status: 'APPROVED', rejection_reason: null,
      provider_template_id: '990001', status_at: at, submitted_at: at, created_by: null, created_at: at, updated_at: at,
    }).returning('id').executeTakeFirstOrThrow();
    const created = await api('POST', path('campaigns.create'), { name: 'Pedidos por nombre', kind: 'open', purpose: 'transactional', channelId, templateId: named.id, content: 'Hola {{nombre}}, tu pedido {{código_pedido}} está listo.' });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = created.json.id as number;
    expect((await upload(id, 'Teléfono,NOMBRE,Codigo Pedido\n3004440111,Ana,A-1\n')).json).toMatchObject({ rows: 1, pass: 1 });
    // The record shows the columns the launch will use; nothing is left to map.
    expect((await api('GET', withId('campaigns.get', id))).json.templateMapping).toEqual({ nombre: 'NOMBRE', 'código_pedido': 'Codigo Pedido' });
    const preview = (await api('GET', withId('campaigns.preview', id))).json;
    expect(preview).toMatchObject({ unmappedParameters: [], emptyParameters: 0 });
    expect(preview.samples).toEqual(['+573004440111: Hola Ana, tu pedido A-1 está listo.']);
    // A choice the person makes still wins over the match by name.
    const chosen = await api('PATCH', withId('campaigns.update', id), { templateMapping: { nombre: 'Codigo Pedido' } });
    expect(chosen.json.templateMapping).toEqual({ nombre: 'Codigo Pedido', 'código_pedido': 'Codigo Pedido' });
    await api('PATCH', withId('campaigns.update', id), { templateMapping: {} });
    const launched = await api('POST', withId('campaigns.launch', id));
    expect(launched.status, JSON.stringify(launched.json)).toBe(200);
    const [message] = await messagesOf(launched.json.id);
    expect(message.body).toBe('Hola Ana, tu pedido A-1 está listo.');
  });

  it('maps each parameter to a file column, refuses launch until all are mapped, and delivers template messages', async () => {
    const created = await api('POST', path('campaigns.create'), {
      name: 'Pedidos WhatsApp', kind: 'open', purpose: 'transactional', channelId, templateId, content: 'Hola {{1}}, tu pedido {{2}} va en camino. Gracias por comprar con nosotros.',
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ templateId, templateName: 'colibri_aviso', templateParameters: ['1', '2'], templateMapping: {}, fileColumns: [] });
    const id = created.json.id as number;

    // No column is named "1" or "2": the upload takes the file as it is and keeps its columns.
    const up = await upload(id, 'telefono,nombre,pedido\n3004440101,Ana,A-100\n3004440102,Luis,B-200\n');
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ rows: 2, pass: 2 });
    expect((await api('GET', withId('campaigns.get', id))).json.fileColumns).toEqual(['telefono', 'nombre', 'pedido']);

    // Unmapped: the summary names the parameters and launch refuses them, creating nothing.
    const unmappedPreview = (await api('GET', withId('campaigns.preview', id))).json;
    expect(unmappedPreview).toMatchObject({ recipients: 2, unmappedParameters: ['1', '2'], outsideWindow: 0, windowCode: null });
    // The samples say which parameters lack a column instead of showing a blank ("Hola , …").
    expect(unmappedPreview.samples[0]).toBe('+573004440101: Hola [1], tu pedido [2] va en camino. Gracias por comprar con nosotros.');
    const refused = await api('POST', withId('campaigns.launch', id));
    expect([refused.status, refused.json.code]).toEqual([409, '99908']);
    expect(await server.db.selectFrom('deployments').select('id').where('campaign_id', '=', id).execute()).toEqual([]);

    const mapped = await api('PATCH', withId('campaigns.update', id), { templateMapping: { 1: 'nombre', 2: 'pedido' } });
    expect(mapped.json.templateMapping).toEqual({ 1: 'nombre', 2: 'pedido' });
    // Nobody of them wrote in the last 24 hours: a template goes anyway.
    expect((await api('GET', withId('campaigns.preview', id))).json).toMatchObject({ unmappedParameters: [], outsideWindow: 0, windowCode: null, goNow: 2 });

    const launched = await api('POST', withId('campaigns.launch', id));
    expect(launched.status).toBe(200);
    const rows = await until('both messages delivered', async () => {
      const all = await messagesOf(launched.json.id);
      return all.length === 2 && all.every((m) => m.state === 'delivered' || m.state === 'read') ? all : null;
    });
    expect(rows.map((m) => m.body)).toEqual(['Hola Ana, tu pedido A-100 va en camino. Gracias por comprar con nosotros.', 'Hola Luis, tu pedido B-200 va en camino. Gracias por comprar con nosotros.']);
    const [request] = sentTo('573004440101');
    expect(request.status).toBe(200);
    expect(request.body).toMatchObject({
      type: 'template',
      template: { name: 'colibri_aviso', language: { code: 'es_CO' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: 'A-100' }] }] },
    });
  });

  it('never sends a template message whose mapped cell is empty: the summary counts it, the launch refuses it (131008 in words) and charges nothing for it', async () => {
    const created = await api('POST', path('campaigns.create'), {
      name: 'Pedidos con celdas vacías', kind: 'open', purpose: 'transactional', channelId, templateId, content: 'Hola {{1}}, tu pedido {{2}} va en camino. Gracias por comprar con nosotros.',
    });
    const id = created.json.id as number;
    // Marta's name is blank, Pedro's order is only spaces: both rows are valid phones, neither message may go.
    expect((await upload(id, 'telefono,nombre,pedido\n3004440301,Sofía,C-300\n3004440302,,D-400\n3004440303,Pedro,   \n')).json).toMatchObject({ rows: 3, pass: 3 });
    await api('PATCH', withId('campaigns.update', id), { templateMapping: { 1: 'nombre', 2: 'pedido' } });
    const preview = (await api('GET', withId('campaigns.preview', id))).json;
    expect(preview).toMatchObject({ recipients: 3, goNow: 1, emptyParameters: 2, unmappedParameters: [] });
    // The rows themselves say it: read against the mapping, the blank cells make them not sendable, with why.
    const judged = (await api('GET', `${withId('campaigns.recipients', id)}?pageSize=50`)).json.items as { row: number; result: string; problems: { code: string; column: string | null }[] }[];
    expect(judged.map((r) => [r.row, r.result, r.problems.map((p) => `${p.code}:${p.column}`)])).toEqual([
      [2, 'pass', []], [3, 'fail', ['emptyTemplateParameter:nombre']], [4, 'fail', ['emptyTemplateParameter:pedido']],
    ]);
    const refusedRows = (await api('GET', `${withId('campaigns.recipients', id)}?result=fail`)).json.items as { row: number }[];
    expect(refusedRows.map((r) => r.row)).toEqual([3, 4]);
    expect(((await api('GET', `${withId('campaigns.recipients', id)}?result=pass`)).json.items as { row: number }[]).map((r) => r.row)).toEqual([2]);
    // Staged on its first row only, the rows past it are judged as the launch judges them: the same summary.
    process.env.PREVIEW_STAGED_MAX = '1';
    try {
      const { staged: _s, samples: _m, ...same } = preview;
      expect((await api('GET', withId('campaigns.preview', id))).json).toMatchObject({ ...same, staged: 1 });
    } finally {
      delete process.env.PREVIEW_STAGED_MAX;
    }
    const balance = async () => (await api('GET', path('credits.balance'))).json.balance as number;
    const before = await balance();
    const launched = await api('POST', withId('campaigns.launch', id));
    expect(launched.status).toBe(200);
    const rows = await until('the one message delivered', async () => {
      const all = await messagesOf(launched.json.id);
      return all.some((m) => m.state === 'delivered' || m.state === 'read') ? all : null;
    });
    expect(rows.map((m) => [m.to_number, m.state === 'read' ? 'delivered' : m.state, m.error_code])).toEqual([
      ['+573004440301', 'delivered', null], ['+573004440302', 'rejected', '131008'], ['+573004440303', 'rejected', '131008'],
    ]);
    expect(sentTo('573004440302')).toEqual([]);
    // Only Sofía's message is priced and charged.
    expect(preview.credits).toBe(1);
    expect(before - (await balance())).toBe(1);
    // The campaign's messages say why, in words.
    const listed = (await api('GET', `${withId('campaigns.messages', id)}?pageSize=50`)).json.items as { toNumber: string; reason: { kind: string; code: string } | null }[];
    expect(listed.filter((m) => m.reason).map((m) => [m.toNumber, m.reason!.kind, m.reason!.code])).toEqual([
      ['+573004440302', 'whatsappEmptyParameter', '131008'], ['+573004440303', 'whatsappEmptyParameter', '131008'],
    ]);
  });

  it('keeps no template on an SMS campaign (there it only prefilled the text) and refuses one of another channel type', async () => {
    const sms = (await api('GET', `${path('channels.list')}?platform=sms&enabled=true`)).json.items[0].id as number;
    const wrong = await api('POST', path('campaigns.create'), { name: 'Plantilla ajena', kind: 'open', channelId: sms, templateId, content: 'Hola' });
    expect(wrong.json).toMatchObject({ code: '99931', errors: [{ field: 'templateId' }] });
  });
});

describe('free text on WhatsApp and the 24-hour window', () => {
  it('predicts 131047 for recipients who have not written, refuses launch before creating anything, and sends once all wrote', async () => {
    const created = await api('POST', path('campaigns.create'), { name: 'Texto libre WhatsApp', kind: 'open', purpose: 'transactional', channelId, content: 'Hola {{nombre}}, gracias por escribirnos.' });
    const id = created.json.id as number;
    expect(created.json.templateId).toBeNull();
    expect((await upload(id, 'telefono,nombre\n3004440201,Marta\n3004440202,Pedro\n')).json).toMatchObject({ pass: 2 });

    // Marta writes (opens her window); Pedro does not.
    const graph = server.messaging!.graph!;
    expect((await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from: '+573004440201', text: 'Hola' })).answer?.status).toBe(200);
    expect((await api('GET', withId('campaigns.preview', id))).json).toMatchObject({ recipients: 2, outsideWindow: 1, windowCode: '131047', unmappedParameters: [] });
    const refused = await api('POST', withId('campaigns.launch', id));
    expect([refused.status, refused.json.code]).toEqual([409, '99907']);
    expect(await server.db.selectFrom('deployments').select('id').where('campaign_id', '=', id).execute()).toEqual([]);
    expect(await server.db.selectFrom('messages').select('id').where('to_number', 'in', ['+573004440201', '+573004440202']).execute()).toEqual([]);

    // Pedro writes too: nothing is predicted and the free text is delivered.
    await graph.injectWhatsAppInbound({ phoneNumberId: 'WABA102030405060', from: '+573004440202', text: 'Buenas' });
    expect((await api('GET', withId('campaigns.preview', id))).json).toMatchObject({ outsideWindow: 0, windowCode: null });
    const launched = await api('POST', withId('campaigns.launch', id));
    expect(launched.status).toBe(200);
    await until('free text delivered', async () => {
      const all = await messagesOf(launched.json.id);
      return all.length === 2 && all.every((m) => m.state === 'delivered' || m.state === 'read') ? all : null;
    });
    expect(sentTo('573004440202')[0].body).toMatchObject({ type: 'text', text: { body: 'Hola Pedro, gracias por escribirnos.' } });
  });
});
