// POST /v1/messages with an Idempotency-Key (schemas/api/messages.yaml, src/server/http/idempotency.ts)
// on the database (PGlite, or PostgreSQL with DATABASE_URL): a retry with the same key and body
// creates nothing and answers the first request's answer; the same key with another body, or
// already used to fire an event, is refused with 99931; a malformed key is refused before
// anything is sent; concurrent retries create the messages once; keys belong to their company
// and are forgotten after 24 hours.
import { beforeAll, describe, expect, it } from 'vitest';
import { demoOtherCompany } from '../../src/server/db/demo-seed.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { apiKeyOf } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let apiKey: string;

const ANDINA = 'superadmin@andina.demo.colibri.co';

beforeAll(async () => {
  apiKey = await apiKeyOf(h, tokens.manager, 'ERP');
});

const send = (body: unknown, key?: string, bearer = apiKey) =>
  h.op('messages.send', { body, headers: { authorization: `Bearer ${bearer}`, ...(key === undefined ? {} : { 'idempotency-key': key }) } });
const messagesTo = (...numbers: string[]) =>
  h.db.selectFrom('messages').select(['id', 'company_id']).where('to_number', 'in', numbers).orderBy('id').execute();
const ids = (answer: { messages: { id: string }[] }) => answer.messages.map((m) => m.id);

describe('POST /v1/messages with an Idempotency-Key', () => {
  it('creates the messages once and answers a retry with the first answer', async () => {
    const body = { channel: 'sms', messages: [{ to: '3005550101', text: 'Tu pedido salió', clientRef: 'p-1' }, { to: '3005550102', text: 'Tu pedido salió' }] };
    const first = await send(body, 'pedido-101');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.json().messages).toEqual([
      expect.objectContaining({ to: '+573005550101', state: 'queued', statusCode: 1, clientRef: 'p-1' }),
      expect.objectContaining({ to: '+573005550102', state: 'queued', statusCode: 1 }),
    ]);
    const before = await h.count('messages');

    // The same request (its keys in another order) with the same key: the first answer, nothing new.
    const retry = await send({ messages: body.messages.map((m) => Object.fromEntries(Object.entries(m).reverse())), channel: 'sms' }, 'pedido-101');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await h.count('messages')).toBe(before);
    expect((await messagesTo('+573005550101', '+573005550102')).map((m) => String(m.id))).toEqual(ids(first.json()));

    // Without a key the same request is a new one: new messages (the duplicate rule marks them 93).
    const again = await send(body);
    expect(again.json().messages.map((m: { statusCode: number }) => m.statusCode)).toEqual([93, 93]);
    expect(await h.count('messages')).toBe(before + 2);
  });

  it('refuses the key with another body, or once used to fire an event (99931), and sends nothing', async () => {
    const body = { channel: 'sms', to: '3005550201', text: 'Código 1234', purpose: 'otp' };
    expect((await send(body, 'otp-201')).statusCode).toBe(200);
    const before = await h.count('messages');
    for (const other of [{ ...body, text: 'Código 9999' }, { ...body, to: '3005550202' }, { ...body, purpose: 'transactional' }]) {
      const refused = await send(other, 'otp-201');
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: '99931', errors: [{ field: 'Idempotency-Key', message: expect.stringContaining('already used for another request') }] });
    }

    // One key, one request: a key that fired an event is not a key for POST /v1/messages (nor the reverse).
    const channels = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json();
    const channelId = channels.items.find((c: { type: string }) => c.type === 'MT').id;
    expect((await h.op('events.create', { token: tokens.manager, body: { key: 'aviso', name: 'Aviso', channelId, content: 'Hola {{nombre}}' } })).statusCode).toBe(200);
    const fire = (key: string) => h.op('events.fire', { params: { key: 'aviso' }, body: { to: '3005550203', variables: { nombre: 'Ana' } }, headers: { authorization: `Bearer ${apiKey}`, 'idempotency-key': key } });
    expect((await fire('otp-201')).json()).toMatchObject({ code: '99931', errors: [{ field: 'Idempotency-Key' }] });
    expect((await fire('aviso-203')).statusCode).toBe(200);
    expect((await send({ channel: 'sms', to: '3005550203', text: 'Hola Ana' }, 'aviso-203')).json()).toMatchObject({ code: '99931', errors: [{ field: 'Idempotency-Key' }] });
    expect(await h.count('messages')).toBe(before + 1);
  });

  it('refuses a malformed key (99931 on Idempotency-Key) before sending anything', async () => {
    const before = await h.count('messages');
    for (const bad of ['', 'con espacio', 'x'.repeat(256), 'clé', 'tab\tkey']) {
      const refused = await send({ channel: 'sms', to: '3005550301', text: 'Hola' }, bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
      expect(refused.json(), JSON.stringify(bad)).toMatchObject({ code: '99931', errors: [{ field: 'Idempotency-Key' }] });
    }
    // 255 printable ASCII characters are a key.
    const longest = '!~'.repeat(127) + 'k';
    expect((await send({ channel: 'sms', to: '3005550301', text: 'Hola' }, longest)).statusCode).toBe(200);
    expect(await h.count('messages')).toBe(before + 1);
  });

  it('creates the messages once when the same key arrives several times at once', async () => {
    const body = { channel: 'sms', messages: [{ to: '3005550401', text: 'Cita confirmada' }, { to: '3005550402', text: 'Cita confirmada' }] };
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(body, 'cita-401')));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    expect(new Set(answers.map((a) => JSON.stringify(ids(a.json()))))).toHaveProperty('size', 1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    const rows = await messagesTo('+573005550401', '+573005550402');
    expect(rows.map((m) => String(m.id))).toEqual(ids(answers[0].json()));
  });

  it('keeps keys inside their company, and forgets them after 24 hours', async () => {
    const body = { channel: 'sms', to: '3005550501', text: 'Factura lista' };
    const ours = (await send(body, 'factura-501')).json();

    // Another company (with an SMS channel of its own) may use the same key: its own messages, not ours.
    const andina = await h.db.selectFrom('companies').select('id').where('name', '=', demoOtherCompany.name).executeTakeFirstOrThrow();
    await h.db.insertInto('channels').values({
      company_id: andina.id, name: 'Andina SMS', platform: 'sms', type: 'MT', sender: '+573005550999', short_code: null, tags: '[]', keywords: '[]', priority: 5,
      page_access_token_fp: null, facebook_page_id: null,
      client_email: null, callback_url: null, enabled: true, created_at: h.clock.now, updated_at: h.clock.now,
    }).execute();
    const andinaKey = await apiKeyOf(h, (await h.signin(ANDINA)).token, 'ERP Andina');
    const theirs = await send(body, 'factura-501', andinaKey);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(ids(theirs.json())).not.toEqual(ids(ours));
    const rows = await messagesTo('+573005550501');
    expect(new Set(rows.map((m) => m.company_id)).size).toBe(2);
    // Each company's retry answers its own first request.
    expect((await send(body, 'factura-501', andinaKey)).json()).toEqual(theirs.json());
    expect((await send(body, 'factura-501')).json()).toEqual(ours);
    // And another body under that key is refused in one company without touching the other's.
    expect((await send({ ...body, text: 'Otra' }, 'factura-501', andinaKey)).json().code).toBe('99931');
    expect(await messagesTo('+573005550501')).toHaveLength(2);

    h.clock.advance(24 * 3_600_000 + 1000);
    const later = await send(body, 'factura-501');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(ids(later.json())).not.toEqual(ids(ours));
    expect(await messagesTo('+573005550501')).toHaveLength(3);
  });
});
