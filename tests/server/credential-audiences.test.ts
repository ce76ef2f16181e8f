// Credentials have audiences: an API key works on the operations whose YAML declares
// `credentials: [.., apiKey]` (the sending API: POST /v1/messages, GET /v1/messages/{id},
// POST /v1/events/{key}/fire) and on no other: the demo key could list the company's API keys.
// Generated from the declared operations, so a new operation refuses keys unless it says otherwise.
// On PGlite and (with DATABASE_URL) PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { serverOperations } from '../../src/generated/server-operations.gen.ts';
import type { OperationId } from '../../src/generated/operations.gen.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { apiKeyOf } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let apiKey: string;

beforeAll(async () => {
  apiKey = await apiKeyOf(h, tokens.manager, 'ERP audiencias');
});

const keyed = serverOperations.filter((o) => (o.credentials as readonly string[]).includes('apiKey'));
const consoleOnly = serverOperations.filter((o) => o.access !== 'public' && !(o.credentials as readonly string[]).includes('apiKey'));
const paramsOf = (path: string) => Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], '1']));

describe('API keys work on the sending API only', () => {
  it('the sending API declares them', () => {
    expect(keyed.map((o) => o.id).sort()).toEqual(['events.fire', 'messages.get', 'messages.send']);
  });

  it('sends with the key, as Bearer and as X-Api-Key', async () => {
    const bearer = await h.op('messages.send', { body: { channel: 'sms', to: '3005550301', text: 'Hola' }, headers: { authorization: `Bearer ${apiKey}` } });
    expect(bearer.statusCode, bearer.body).toBe(200);
    const id = bearer.json().messages[0].id;
    const status = await h.op('messages.get', { params: { id }, headers: { 'x-api-key': apiKey } });
    expect(status.statusCode, status.body).toBe(200);
  });

  it.each(consoleOnly.map((o) => [o.id] as const))('%s refuses an API key (99982) and changes nothing', async (id) => {
    const op = serverOperations.find((o) => o.id === id)!;
    const before = await h.snapshot();
    const res = await h.op(id as OperationId, { params: paramsOf(op.path), headers: { authorization: `Bearer ${apiKey}` }, ...(op.body ? { body: {} } : {}) });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('99982');
    expect(await h.snapshot()).toEqual(before);
  });

  it('the demo key can no longer list the company API keys; a session still can', async () => {
    expect((await h.op('credentials.list', { headers: { 'x-api-key': apiKey } })).json().code).toBe('99982');
    expect((await h.op('credentials.list', { token: tokens.manager })).statusCode).toBe(200);
  });
});
