// A channel type is one unit: a fifth, fake channel type, defined entirely in
// tests/fixtures/fake-channel (its definition, adapter and stand-in) and added with one
// registerChannel line, carries a campaign end to end in a real server (startServer, PGlite, or
// PostgreSQL with DATABASE_URL): its recipients uploaded and launched through the API,
// dispatched by the engine through the fake adapter, and receipted (DELIVERED, and FAILED for a
// destination the stand-in refuses) into the messages, the deployment and the credits.
//
// The fake platform is no value of schemas/enums/channel-platform.yaml, so the API would refuse
// it in channels.create (and the console offers only the YAML's types), and a campaign record,
// which names its channel's platform, could not be answered: the test inserts the channel and
// the campaign rows directly, then uploads the recipients and launches through the API. The engine keys channel types by their platform string at runtime
// (src/engine/channels/registry.ts), so nothing else in the product changes. Without the
// registerChannel line the dispatcher finds no adapter and every message fails with 92.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeSession } from '../../src/core/session-codec.ts';
import { registerChannel } from '../../src/engine/channels/registry.ts';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { channelSecretContext } from '../../src/server/security/sealing-contexts.ts';
import { defaultSecretBox } from '../../src/server/security/secrets.ts';
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
let managerId = 0;

const pathOf = (id: string, params: Record<string, string | number> = {}) =>
  serverOperations.find((o) => o.id === id)!.path.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));

async function call(id: string, options: { params?: Record<string, number>; body?: unknown; upload?: ReturnType<typeof multipart> } = {}) {
  const spec = serverOperations.find((o) => o.id === id)!;
  const headers: Record<string, string> = { 'x-auth-token': token, ...(options.upload?.headers ?? (options.body === undefined ? {} : { 'content-type': 'application/json' })) };
  const body = options.upload ? new Uint8Array(options.upload.payload) : options.body === undefined ? undefined : JSON.stringify(options.body);
  const response = await fetch(`${server.url}${pathOf(id, options.params)}`, { method: spec.method, headers, body });
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
  const user = await server.db.selectFrom('users').select(['id', 'company_id']).where('email', '=', demoEmail('manager')).executeTakeFirstOrThrow();
  companyId = user.company_id;
  managerId = user.id;
  const at = new Date();
  const row = await server.db.insertInto('channels').values({
    company_id: companyId, name: 'Canal de prueba (fake)', platform: FAKE_PLATFORM, type: 'MT', sender: '+573009990001', short_code: null,
    tags: '[]', keywords: '[]', priority: 1, authorization_token: defaultSecretBox().seal('fake-token', channelSecretContext('authorization_token', companyId)),
    page_access_token: null, page_access_token_fp: null, client_token: null, account_sids: '[]', facebook_page_id: null, private_key: null, client_email: null,
    callback_url: null, enabled: true, created_at: at, updated_at: at,
  }).returning('id').executeTakeFirstOrThrow();
  channelId = row.id;
}, 120_000);

afterAll(async () => {
  await server?.close();
  unregister();
  await dropSchema();
});

describe('a fifth channel type from a fixture folder', () => {
  it('sends a campaign through the fake adapter and stores its receipts', async () => {
    const at = new Date();
    const campaign = await server.db.insertInto('campaigns').values({
      company_id: companyId, name: 'Campaña canal fake', kind: 'open', purpose: 'transactional', channel_id: channelId, content: 'Hola {{nombre}}, prueba del canal fake',
      variables: JSON.stringify(['nombre']), scheduled_at: null, recurrence: null, max_complete_interactions: null, next_run_at: null,
      created_by: managerId, created_at: at, updated_at: at,
    }).returning('id').executeTakeFirstOrThrow();
    const csv = Buffer.from('telefono;nombre\n3004440101;Ana\n3004440102;Luis\n3004440000;Nadie\n', 'utf8');
    const upload = await call('campaigns.uploadRecipients', { params: { id: campaign.id }, upload: multipart('file', 'clientes.csv', 'text/csv', csv) });
    expect(upload.status).toBe(200);
    expect(upload.json).toMatchObject({ rows: 3, fail: 0 });
    const launched = await call('campaigns.launch', { params: { id: campaign.id } });
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
      ['+573009990001', '+573004440000'], ['+573009990001', '+573004440101'], ['+573009990001', '+573004440102'],
    ]);
    expect(rows.every((m) => m.provider_message_id?.startsWith('fake-'))).toBe(true);
    expect(provider.sent.find((s) => s.to === '+573004440101')?.text).toBe('Hola Ana, prueba del canal fake');
    await until('the deployment completes', async () => {
      const deployment = await server.db.selectFrom('deployments').select('state').where('id', '=', deploymentId).executeTakeFirstOrThrow();
      return deployment.state === 'completed';
    }, 30_000);
  });
});
