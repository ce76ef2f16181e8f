// On the database (PGlite, or PostgreSQL with DATABASE_URL): recipients pasted
// instead of a file are judged exactly as the same numbers in a file (results, problems,
// duplicates, the rows the launch reads), with the 1,000 limit and the file's refusals; a
// campaign's test send renders the first sendable row, goes through the send step (credits, block
// list), keeps the purpose, is not held by the send window (neither when queued nor when the
// dispatcher claims it) and is counted in no deployment.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChannelAdapter, SubmitOutcome } from '../../src/engine/channel-adapter.ts';
import { Dispatcher } from '../../src/engine/dispatcher.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';
import { until } from './until.ts';
import { nextBogotaSunday } from './bogota-days.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
let smsChannelId: number;

beforeAll(async () => {
  smsChannelId = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json().items[0].id;
});

const create = (body: Record<string, unknown>, token = tokens.manager) =>
  h.op('campaigns.create', { token, body: { kind: 'open', purpose: 'commercial', channelId: smsChannelId, ...body } }).then((r) => r.json());
const paste = (id: number, numbers: string, token = tokens.manager) => h.op('campaigns.pasteRecipients', { token, params: { id }, body: { numbers } });
const rows = async (id: number) => (await h.op('campaigns.recipients', { token: tokens.manager, params: { id }, query: { pageSize: 200 } })).json().items;
const sendTest = (id: number, phones: string, token = tokens.manager) => h.op('campaigns.sendTest', { token, params: { id }, body: { phones } });


describe('pasted recipients', () => {
  it('judges pasted numbers in mixed formats exactly as the same numbers in a file', async () => {
    const pasted = await create({ name: 'Pegados', content: 'Promoción de la semana' });
    const text = '3001234501, +57 300 123 4502; 573001234503\n300 123 4504 3001234505\n\n12345 3001234501 +1 2025550123\n';
    const res = await paste(pasted.id, text);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ rows: 9, pass: 2, warn: 4, fail: 3, error: 0, duplicates: 1, headers: [] });
    // The same numbers, one a line, uploaded as a number-only file: the same rows.
    const filed = await create({ name: 'Archivo', content: 'Promoción de la semana' });
    const file = ['3001234501', '+57 300 123 4502', '573001234503', '300 123 4504', '3001234505', '12345', '3001234501', '+1', '2025550123'].join('\n');
    await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: filed.id }, ...multipart('file', 'numeros.csv', 'text/csv', Buffer.from(file)) });
    expect(await rows(pasted.id)).toEqual(await rows(filed.id));
    const listed = await rows(pasted.id);
    expect(listed[0]).toMatchObject({ row: 1, phone: '+573001234501', result: 'pass', entered: null });
    expect(listed[1]).toMatchObject({ row: 2, phone: '+573001234502', result: 'warn', entered: '+57 300 123 4502' });
    expect(listed[6]).toMatchObject({ row: 7, phone: '+573001234501', result: 'warn', problems: [{ code: 'duplicatePhone', column: null }], entered: '3001234501' });
    // A refused number shows what was entered (it has no phone to show), on screen and in the export.
    expect(listed[5]).toMatchObject({ row: 6, phone: null, result: 'fail', entered: '12345' });
    expect(listed[7]).toMatchObject({ row: 8, phone: null, result: 'fail', entered: '+1' });
    // The launch's summary reads them as it reads a file.
    const preview = (await h.op('campaigns.preview', { token: tokens.manager, params: { id: pasted.id } })).json();
    expect(preview).toMatchObject({ recipients: 5, invalid: 3, duplicates: 1 });
  });

  it('refuses more than 1,000 numbers, a message with variables, an empty box, a locked or foreign campaign; the file stays', async () => {
    const campaign = await create({ name: 'Límite', content: 'Hola' });
    await paste(campaign.id, '3001230001\n3001230002');
    const many = Array.from({ length: 1001 }, (_, i) => `30000${String(i).padStart(5, '0')}`).join('\n');
    const refused = await paste(campaign.id, many);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: '99906', errors: [{ field: 'numbers', code: '99906' }] });
    expect(refused.json().message).toContain('1,000');
    expect((await h.op('campaigns.get', { token: tokens.manager, params: { id: campaign.id } })).json().recipients).toBe(2);
    const exactly = await paste(campaign.id, many.split('\n').slice(0, 1000).join(' '));
    expect(exactly.json()).toMatchObject({ rows: 1000, pass: 1000 });

    const personal = await create({ name: 'Con variables', content: 'Hola {{nombre}}' });
    expect((await paste(personal.id, '3001230001')).json()).toMatchObject({ code: '99955', errors: [{ field: 'numbers' }] });
    expect((await paste(personal.id, ' ,;\n ')).json()).toMatchObject({ code: '99999', errors: [{ field: 'numbers' }] });

    await h.db.updateTable('campaigns').set({ edit_lock: 'lockedForEdit' }).where('id', '=', campaign.id).execute();
    expect((await paste(campaign.id, '3001230003')).json().code).toBe('99984');
    await h.addCompany('Otra Pegada S.A.S.', [{ email: 'gerente@otrapegada.co', roles: ['manager'] }]);
    const stranger = (await h.signin('gerente@otrapegada.co')).token;
    expect((await paste(personal.id, '3001230001', stranger)).json().code).toBe('99959');
  });
});

describe('a test send', () => {
  it('sends the first sendable row, charged, block list applied, in no deployment, not held by the send window', async () => {
    const sunday = nextBogotaSunday(h.clock.now);
    h.clock.now = sunday;
    tokens.manager = (await h.as('manager')).token;
    const campaign = await create({ name: 'Prueba', content: 'Hola {{nombre}}, tu saldo es {{saldo}}' });
    // No file yet: the variables' names stand in.
    const early = await sendTest(campaign.id, '3005550101');
    expect(early.json()).toMatchObject({ body: 'Hola [nombre], tu saldo es [saldo]', numbers: '+573005550101', queued: 1, refused: 0, credits: 1 });
    await h.op('campaigns.uploadRecipients', {
      token: tokens.manager, params: { id: campaign.id },
      ...multipart('file', 'clientes.csv', 'text/csv', Buffer.from('telefono,nombre,saldo\n12345,Malo,1\n3001234567,Ana,$ 20.000\n3001234568,Luis,5\n')),
    });
    const before = (await h.op('credits.balance', { token: tokens.manager })).json();
    const res = await sendTest(campaign.id, '300 555 0102, +573001112233\n3005550102');
    expect(res.statusCode).toBe(200);
    // The first sendable row (Ana; row 2 fails); the demo block list refuses +573001112233; a number twice goes once.
    expect(res.json()).toMatchObject({ body: 'Hola Ana, tu saldo es $ 20.000', numbers: '+573005550102, +573001112233', queued: 1, refused: 1, credits: 1 });
    expect((await h.op('credits.balance', { token: tokens.manager })).json()).toEqual({ balance: before.balance - 1, reserved: before.reserved + 1 });

    const stored = await h.db.selectFrom('messages').select(['to_number', 'purpose', 'source', 'deployment_id', 'held_reason', 'not_before', 'state', 'status_code'])
      .where('test_campaign_id', '=', campaign.id).orderBy('id').execute();
    expect(stored.map((m) => [m.to_number, m.purpose, m.source, m.deployment_id, m.held_reason, m.state, m.status_code])).toEqual([
      ['+573005550101', 'commercial', 'test', null, null, 'queued', 1],
      ['+573005550102', 'commercial', 'test', null, null, 'queued', 1],
      ['+573001112233', 'commercial', 'test', null, null, 'rejected', 5],
    ]);
    for (const m of stored) expect(new Date(m.not_before).getTime()).toBe(sunday.getTime());
    const listed = (await h.op('campaigns.tests', { token: tokens.manager, params: { id: campaign.id } })).json();
    expect(listed.items.map((m: { toNumber: string; state: string }) => [m.toNumber, m.state])).toEqual([
      ['+573001112233', 'rejected'], ['+573005550102', 'queued'], ['+573005550101', 'queued'],
    ]);
    // Not the campaign's: no deployment, no message of its deployments.
    expect((await h.op('deployments.list', { token: tokens.manager, query: { campaignId: campaign.id } })).json().items).toEqual([]);
    expect((await h.op('campaigns.messages', { token: tokens.manager, params: { id: campaign.id } })).json().items).toEqual([]);

    // The dispatcher, on a Sunday, sends the test and holds the same commercial message of a launch.
    const launched = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaign.id } })).json();
    expect(launched.state).toBe('running');
    const sent: string[] = [];
    const adapter: ChannelAdapter = {
      platform: 'sms',
      async submit(messages) {
        return messages.map((m): SubmitOutcome => { sent.push(m.to); return { kind: 'accepted', providerMessageId: `t-${m.id}` }; });
      },
    } as ChannelAdapter;
    const closed = new Date(sunday.getTime() + 86_400_000);
    const dispatcher = new Dispatcher({ db: h.db, adapters: { adapterFor: async () => adapter }, sendWindow: () => closed, now: () => sunday, idleMs: 20 });
    await h.db.updateTable('messages').set({ not_before: sunday }).where('deployment_id', '=', launched.id).execute();
    await dispatcher.start();
    try {
      await until('the tests handed over', async () => (await h.db.selectFrom('messages').select('id').where('test_campaign_id', '=', campaign.id).where('state', '=', 'queued').execute()).length === 0);
      await until('the launch held', async () => (await h.db.selectFrom('messages').select('id').where('deployment_id', '=', launched.id).where('held_reason', '=', 'sendWindow').execute()).length === 2);
    } finally {
      await dispatcher.stop();
    }
    expect(sent.sort()).toEqual(['+573005550101', '+573005550102']);
  });

  it('does not make the launch to the tested number a duplicate', async () => {
    const campaign = await create({ name: 'Prueba y envío', purpose: 'transactional', content: 'Tu pedido salió hoy' });
    expect((await sendTest(campaign.id, '3005550177')).json()).toMatchObject({ queued: 1, refused: 0 });
    await paste(campaign.id, '3005550177');
    const launched = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaign.id } })).json();
    expect(launched).toMatchObject({ total: 1, counts: { queued: 1, rejected: 0 } });
  });

  it('refuses 0 or more than 5 numbers, an invalid one, a campaign without credits or not ours', async () => {
    const campaign = await create({ name: 'Prueba rechazada', content: 'Hola' });
    expect((await sendTest(campaign.id, ' , ')).json()).toMatchObject({ code: '99905', errors: [{ field: 'phones' }] });
    expect((await sendTest(campaign.id, '3001230001 3001230002 3001230003 3001230004 3001230005 3001230006')).json()).toMatchObject({ code: '99905' });
    expect((await sendTest(campaign.id, '3001230001, 12345')).json()).toMatchObject({ code: '99963', errors: [{ field: 'phones' }] });
    // 601… is a fixed line: an SMS cannot reach it.
    expect((await sendTest(campaign.id, '6011234567')).json().code).toBe('99963');
    expect(await h.db.selectFrom('messages').select('id').where('test_campaign_id', '=', campaign.id).execute()).toEqual([]);

    const other = await h.addCompany('Prueba Sin Saldo S.A.S.', [{ email: 'gerente@pruebasinsaldo.co', roles: ['manager'] }]);
    const token = (await h.signin('gerente@pruebasinsaldo.co')).token;
    const channel = await h.db.insertInto('channels').values({ company_id: other.companyId, name: 'SMS', platform: 'sms', type: 'MT', sender: '+573159990002', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: new Date(), updated_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    const poor = await create({ name: 'Sin saldo', content: 'Hola', channelId: channel.id }, token);
    expect((await sendTest(poor.id, '3001230001', token)).json().code).toBe('99986');
    expect(await h.db.selectFrom('messages').select('id').where('company_id', '=', other.companyId).execute()).toEqual([]);
    expect((await sendTest(campaign.id, '3001230001', token)).json().code).toBe('99959');
    expect((await h.op('campaigns.tests', { token, params: { id: campaign.id } })).json().code).toBe('99959');
  });
});
