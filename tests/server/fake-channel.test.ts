// A channel type is one unit: a fifth, fake channel type, defined entirely in
// tests/fixtures/fake-channel (its definition, adapter, webhook and stand-in) and added with one
// registerChannel line, is used as a company would use any type, in a real server (startServer,
// PGlite, or PostgreSQL with DATABASE_URL), through the API only: the channel is created and
// enabled (its credentials checked against the definition's fields and sealed in the channel's
// credentials document), a campaign is created, its recipients uploaded and launched, dispatched
// by the engine through the fake adapter and receipted (DELIVERED, and FAILED for a destination
// the stand-in refuses) into the messages, the deployment, its report and the credits; a person's
// SALIR comes back through the type's own signed webhook and blocks the number.
//
// The one step outside the API is the provider's: letting the company use the type
// (company_channel_types, which the spec gives no operation; the demo seed writes it for the
// built-in types). Without the registerChannel line the API refuses the platform (99931), and the
// webhook route does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSession } from '../../src/core/session-codec.ts';
import { registerChannel } from '../../src/engine/channels/registry.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { startServer, type RunningServer } from '../../src/server/start.ts';
import { FAKE_PLATFORM, FakeProvider, fakeChannel } from '../fixtures/fake-channel/index.ts';
import { multipart, TEST_PASSWORD, testDatabase } from './harness.ts';
import { until } from './until.ts';

const provider = new FakeProvider();
let unregister = () => {};
let server: RunningServer;
let dropSchema = async () => {};
let token = '';
let channelId = 0;
let companyId = 0;

const pathOf = (id: string, params: Record<string, string | number> = {}) =>
  serverOperations.find((o) => o.id === id)!.path.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? name));

async function call(id: string, options: { params?: Record<string, number | string>; query?: Record<string, string>; body?: unknown; upload?: ReturnType<typeof multipart> } = {}) {
  const spec = serverOperations.find((o) => o.id === id)!;
  const headers: Record<string, string> = { 'x-auth-token': token, ...(options.upload?.headers ?? (options.body === undefined ? {} : { 'content-type': 'application/json' })) };
  const body = options.upload ? new Uint8Array(options.upload.payload) : options.body === undefined ? undefined : JSON.stringify(options.body);
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  const response = await fetch(`${server.url}${pathOf(id, options.params)}${query}`, { method: spec.method, headers, body });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}


beforeAll(async () => {
  // The one registry line.
  unregister = registerChannel(fakeChannel(provider));
  const { options, drop } = await testDatabase();
  dropSchema = drop;
  server = await startServer({ port: 0, sandbox: true, database: options, demoPassword: TEST_PASSWORD, consoleRoot: null, messaging: { dispatcher: { idleMs: 20 }, callbacks: false } });
  const signin = await fetch(`${server.url}${pathOf('clientAuth.signin')}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: demoEmail('manager'), password: TEST_PASSWORD }),
  });
  token = decodeSession(((await signin.json()) as { clientToken: string }).clientToken)!.token;
  const user = await server.db.selectFrom('users').select(['company_id']).where('email', '=', demoEmail('manager')).executeTakeFirstOrThrow();
  companyId = user.company_id;
  // The provider lets the company use the type.
  await server.db.insertInto('company_channel_types').values({ company_id: companyId, platform: FAKE_PLATFORM }).execute();
}, 120_000);

afterAll(async () => {
  await server?.close();
  unregister();
  await dropSchema();
});

const SENDER = '+573009990001';
const CLIENT_TOKEN = 'fake-webhook-secret-7f3a';

describe('a fifth channel type from a fixture folder', () => {
  it('is offered to the company and created through the API, its credentials checked against its definition and sealed', async () => {
    const platforms = (await call('channels.platforms')).json;
    expect(platforms.platforms).toContain(FAKE_PLATFORM);
    // Its names for the console (which adds them to its labels: tests/console/channel-type-words.test.tsx); the built-in types have theirs in the locales.
    expect(platforms.names).toEqual({ [FAKE_PLATFORM]: { es: 'Canal de prueba', en: 'Test channel' } });
    // A field the type does not declare is refused, as for any type; a type nobody registered is no channel type.
    const foreign = await call('channels.create', { body: { name: 'Fake con página', platform: FAKE_PLATFORM, type: 'MT', sender: SENDER, authorizationToken: 'fake-token', pageAccessToken: 'EAAG-x' } });
    expect(foreign.status).toBe(400);
    expect(foreign.json).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field: 'pageAccessToken' })] });
    const unknown = await call('channels.create', { body: { name: 'Nadie', platform: 'carrier-pigeon', type: 'MT', sender: SENDER } });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field: 'platform' })] });
    // Enabling needs the fields its definition requires.
    const incomplete = await call('channels.create', { body: { name: 'Canal fake', platform: FAKE_PLATFORM, type: 'MO', sender: SENDER, enabled: true } });
    expect(incomplete.json).toMatchObject({ code: '99999', errors: [expect.objectContaining({ field: 'authorizationToken' })] });

    const created = await call('channels.create', {
      body: { name: 'Canal fake', platform: FAKE_PLATFORM, type: 'MO', sender: '300 999 0001', authorizationToken: 'fake-token-1234', clientToken: CLIENT_TOKEN, enabled: true },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).toMatchObject({ platform: FAKE_PLATFORM, sender: SENDER, enabled: true, missing: [], authorizationToken: '••••1234', clientToken: '••••7f3a' });
    channelId = created.json.id as number;
    const row = await server.db.selectFrom('channels').select('credentials').where('id', '=', channelId).executeTakeFirstOrThrow();
    expect(Object.keys(row.credentials.secrets).sort()).toEqual(['authorizationToken', 'clientToken']);
    expect(JSON.stringify(row)).not.toContain('fake-token-1234');
    expect(JSON.stringify(row)).not.toContain(CLIENT_TOKEN);
    // Its statistics carry the colour its definition declares.
    expect((await call('channels.stats', { params: { id: channelId } })).json).toMatchObject({ statsCode: FAKE_PLATFORM, color: '#8E24AA', total: 0 });
  });

  it('sends a campaign through the fake adapter, stores its receipts and reports its run', async () => {
    const campaign = await call('campaigns.create', { body: { name: 'Campaña canal fake', kind: 'open', purpose: 'transactional', channelId, content: 'Hola {{nombre}}, prueba del canal fake' } });
    expect(campaign.status, JSON.stringify(campaign.json)).toBe(200);
    const csv = Buffer.from('telefono;nombre\n3004440101;Ana\n3004440102;Luis\n3004440000;Nadie\n', 'utf8');
    const upload = await call('campaigns.uploadRecipients', { params: { id: campaign.json.id }, upload: multipart('file', 'clientes.csv', 'text/csv', csv) });
    expect(upload.status).toBe(200);
    expect(upload.json).toMatchObject({ rows: 3, fail: 0 });
    const launched = await call('campaigns.launch', { params: { id: campaign.json.id } });
    expect(launched.status).toBe(200);
    const deploymentId = launched.json.id as number;

    const rows = await until('every message receipted', async () => {
      const found = await server.db.selectFrom('messages').select(['to_number', 'state', 'delivery_status', 'provider_message_id', 'cost'])
        .where('deployment_id', '=', deploymentId).orderBy('to_number').execute();
      return found.length === 3 && found.every((m) => m.state === 'delivered' || m.state === 'failed') ? found : null;
    }, 30_000);
    expect(rows.map((m) => [m.to_number, m.state, m.delivery_status])).toEqual([
      ['+573004440000', 'failed', 'FAILED'],
      ['+573004440101', 'delivered', 'DELIVERED'],
      ['+573004440102', 'delivered', 'DELIVERED'],
    ]);
    // They left through the fake provider, from the channel's sender, with their own ids.
    expect(provider.sent.map((s) => [s.account, s.to]).sort()).toEqual([
      [SENDER, '+573004440000'], [SENDER, '+573004440101'], [SENDER, '+573004440102'],
    ]);
    expect(rows.every((m) => m.provider_message_id?.startsWith('fake-'))).toBe(true);
    expect(provider.sent.find((s) => s.to === '+573004440101')?.text).toBe('Hola Ana, prueba del canal fake');
    await until('the deployment completes', async () => {
      const deployment = await server.db.selectFrom('deployments').select('state').where('id', '=', deploymentId).executeTakeFirstOrThrow();
      return deployment.state === 'completed';
    }, 30_000);
    // The run's report counts them as any type's.
    const report = await call('reportCenter.getDeploymentsSummary', { params: { product: 'sms' }, body: { DeploymentId: deploymentId } });
    expect(report.status, JSON.stringify(report.json)).toBe(200);
    expect(report.json.items).toEqual([expect.objectContaining({ deploymentId, campaign: 'Campaña canal fake', messages: 3, delivered: 2, failed: 1 })]);
  });

  it('takes a person\'s SALIR on its own signed webhook and blocks the number; a forged one changes nothing', async () => {
    const webhookUrl = `${server.url}/v1/webhooks/fake/${channelId}`;
    const forged = await provider.reply(webhookUrl, 'not-the-client-token', { from: '+573004440102', to: SENDER, text: 'SALIR' });
    expect(forged.status).toBe(401);
    const answered = await provider.reply(webhookUrl, CLIENT_TOKEN, { from: '+573004440101', to: SENDER, text: 'SALIR' });
    expect(answered.status).toBe(200);
    const blocked = await until('the number is on the block list', async () => {
      const answer = await call('blockList.list', { query: { pageSize: '200' } });
      expect(answer.status, JSON.stringify(answer.json)).toBe(200);
      const list = answer.json.items as { phone: string; status: string }[];
      return list.some((entry) => entry.phone === '+573004440101') ? list : null;
    }, 30_000);
    expect(blocked.some((entry) => entry.phone === '+573004440102')).toBe(false);
  });
});
