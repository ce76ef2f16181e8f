// Who a channel type can reach (core/phone.ts addressFor, each channel definition's
// `reaches`): a fixed line (60X) cannot receive an SMS or an RCS message, and a signed number
// ("-3001234567", a spreadsheet's negative number) is no phone at all, whatever separators hide the
// sign. POST /v1/messages, event fires and the recipients file say so; WhatsApp still reaches fixed
// lines. On PGlite and (with DATABASE_URL) PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { apiKeyOf } from './messaging-fixtures.ts';
import { multipart } from './harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let apiKey: string;

beforeAll(async () => {
  apiKey = await apiKeyOf(h, tokens.manager, 'ERP alcance');
});

const send = (body: unknown) => h.op('messages.send', { body, headers: { authorization: `Bearer ${apiKey}` } });

describe('SMS recipients', () => {
  it.each(['6012345678', '+57 601 234 5678', '-3001234567', '+-3001234567', '−300 123 4567'])('POST /v1/messages refuses %s for SMS (99963) and sends nothing', async (to) => {
    const before = await h.count('messages');
    const res = await send({ channel: 'sms', to, text: 'Hola' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '99963', errors: [expect.objectContaining({ field: 'to' })] });
    expect(await h.count('messages')).toBe(before);
  });

  it('in a batch, a fixed line and a signed number are rejected as invalid (94) while the mobile goes', async () => {
    const res = await send({ channel: 'sms', messages: [{ to: '3005550190', text: 'Hola' }, { to: '6015550190', text: 'Hola' }, { to: '-3005550191', text: 'Hola' }] });
    expect(res.statusCode).toBe(200);
    const states = await h.db.selectFrom('messages').select(['to_number', 'state', 'status_code']).where('id', 'in', res.json().messages.map((m: { id: string }) => Number(m.id))).orderBy('id').execute();
    expect(states[0].state).not.toBe('rejected');
    expect(states.slice(1).map((m) => [m.to_number, m.state, m.status_code])).toEqual([['6015550190', 'rejected', 94], ['-3005550191', 'rejected', 94]]);
  });

  it('WhatsApp still reaches a fixed line', async () => {
    const channels = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'whatsapp', enabled: 'true' } })).json();
    if (!channels.items.length) throw new Error('the demo has no enabled WhatsApp channel');
    const res = await send({ channel: 'whatsapp', to: '6015550192', text: 'Hola' });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a recipients file for an SMS campaign fails the fixed line and the signed number, naming why', async () => {
    const sms = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0];
    const campaign = (await h.op('campaigns.create', { token: tokens.manager, body: { name: 'Alcance SMS', kind: 'open', purpose: 'transactional', channelId: sms.id, content: 'Hola' } })).json();
    const up = await h.op('campaigns.uploadRecipients', {
      token: tokens.manager, params: { id: campaign.id },
      ...multipart('file', 'alcance.csv', 'text/csv', Buffer.from('telefono\n3005550193\n6015550193\n-3005550194\n', 'utf8')),
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ rows: 3, fail: 2 });
    const failed = (await h.op('campaigns.recipients', { token: tokens.manager, params: { id: campaign.id }, query: { result: 'fail' } })).json();
    expect(failed.items.map((r: { row: number }) => r.row)).toEqual([3, 4]); // spreadsheet rows: the header is row 1
  });
});
