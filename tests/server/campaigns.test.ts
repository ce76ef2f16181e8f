// Campaigns, deployments, credits and the public sending API on the database (PGlite, or
// PostgreSQL with DATABASE_URL): the content rules, the recipients upload, the pre-launch
// summary, the launch with its credits, deployment actions, the edit lock that a second person
// approves, company scoping and permissions, and POST /v1/messages with a Bearer API key.
import { beforeAll, describe, expect, it } from 'vitest';
import { fileHarness, signedIn } from './file-harness.ts';
import { apiKeyOf } from './messaging-fixtures.ts';
import { multipart } from './harness.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager', 'superadmin');
let smsChannelId: number;

beforeAll(async () => {
  const channels = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json();
  smsChannelId = channels.items[0].id;
});

const csv = (text: string) => multipart('file', 'clientes.csv', 'text/csv', Buffer.from(text, 'utf8'));
const create = (body: Record<string, unknown>, token = tokens.manager) =>
  h.op('campaigns.create', { token, body: { kind: 'open', purpose: 'transactional', channelId: smsChannelId, ...body } });

describe('campaigns', () => {
  it('writes a campaign; refuses repeated names, external links and broken variables', async () => {
    const ok = await create({ name: 'Bienvenida', content: 'Hola {{nombre}}, bienvenido a Colibri' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Bienvenida', variables: ['nombre'], label: 'Active', editLock: 'unlockedForEdit', recipients: 0 });
    expect((await create({ name: 'bienvenida', content: 'x' })).json().code).toBe('99926');
    const link = await create({ name: 'Con enlace', content: 'Compra en https://tienda.example.com/promo hoy' });
    expect(link.json()).toMatchObject({ code: '99925', errors: [{ field: 'content' }] });
    expect((await create({ name: 'Llaves', content: 'Hola {{nombre}' })).json().code).toBe('99924');
    expect((await create({ name: 'Programada', kind: 'scheduled', content: 'x' })).json()).toMatchObject({ code: '99999', errors: [{ field: 'scheduledAt' }] });
    const list = (await h.op('campaigns.list', { token: tokens.manager, query: { q: 'bienv' } })).json();
    expect(list.items.map((c: { name: string }) => c.name)).toEqual(['Bienvenida']);
  });

  it('refuses content past the limits, naming them, and never cuts it', async () => {
    // A 5,280-character paste: longer than any channel takes (99904), refused whole.
    const pasted = 'Oferta válida hasta agotar existencias. '.repeat(132);
    expect([...pasted].length).toBe(5280);
    const long = await create({ name: 'Pegado largo', content: pasted });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: '99904', errors: [{ field: 'content', code: '99904' }] });
    // On SMS, more than 10 parts (1,530 GSM-7 characters) is refused with 99903; 10 parts pass.
    const eleven = await create({ name: 'Once partes', content: 'a'.repeat(153 * 10 + 1) });
    expect(eleven.json()).toMatchObject({ code: '99903', errors: [{ field: 'content', code: '99903' }] });
    // The catalogue's words name the limit itself, never an unfilled placeholder.
    expect(eleven.json().message).toBe('A campaign SMS may have at most 10 parts: longer, Colombian operators do not deliver it whole reliably. Shorten the message.');
    expect(JSON.stringify(eleven.json())).not.toContain('{{');
    const ten = await create({ name: 'Diez partes', content: 'a'.repeat(153 * 10) });
    expect(ten.statusCode).toBe(200);
    expect(ten.json().content).toHaveLength(1530);
    // An edit is held to the same limits, against the campaign's own channel.
    const edit = await h.op('campaigns.update', { token: tokens.manager, params: { id: ten.json().id }, body: { content: 'a'.repeat(1531) } });
    expect(edit.json().code).toBe('99903');
    const names = (await h.op('campaigns.list', { token: tokens.manager, query: { q: 'partes' } })).json().items.map((c: { name: string }) => c.name);
    expect(names).toEqual(['Diez partes']);
  });

  it('uploads recipients, previews, launches, and settles credits per message', async () => {
    const campaign = (await create({ name: 'Pedido listo', content: 'Hola {{nombre}}, tu pedido está listo' })).json();
    const up = await h.op('campaigns.uploadRecipients', {
      token: tokens.manager, params: { id: campaign.id },
      ...csv('telefono;nombre\n3001234501;Ana\n+57 300 123 4502;Luis\n12345;Malo\n3001234501;Ana otra vez\n3001112233;Bloqueado\n'),
    });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toMatchObject({ rows: 5, fail: 1, duplicates: 1, separator: ';' });
    const failed = (await h.op('campaigns.recipients', { token: tokens.manager, params: { id: campaign.id }, query: { result: 'fail' } })).json();
    expect(failed.items).toEqual([expect.objectContaining({ row: 4, phone: null, result: 'fail' })]);

    const preview = (await h.op('campaigns.preview', { token: tokens.manager, params: { id: campaign.id } })).json();
    // +573001112233 is on the demo block list (in force): refused with status 5.
    expect(preview).toMatchObject({ recipients: 3, goNow: 2, wait: 0, blocked: 1, invalid: 1, duplicates: 1, encoding: 'UCS-2', parts: 2, partsMin: 1, partsMax: 1, credits: 2, enough: true });

    const before = (await h.op('credits.balance', { token: tokens.manager })).json();
    const launched = await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaign.id } });
    expect(launched.statusCode).toBe(200);
    const deployment = launched.json();
    expect(deployment).toMatchObject({ state: 'running', total: 3, reservedCredits: 2, counts: { queued: 2, rejected: 1 } });
    const after = (await h.op('credits.balance', { token: tokens.manager })).json();
    expect(after).toEqual({ balance: before.balance - 2, reserved: before.reserved + 2 });

    // Cancelling one number, then the deployment, gives every credit back (status 4).
    expect((await h.op('deployments.numbers', { token: tokens.manager, params: { id: deployment.id }, body: { action: 'cancel', numbers: ['3001234501'] } })).json()).toEqual({ changed: 1 });
    expect((await h.op('deployments.numbers', { token: tokens.manager, params: { id: deployment.id }, body: { action: 'schedule', numbers: ['123'] } })).json().code).toBe('99963');
    // At most 10 numbers a batch (spec 5): the eleventh is refused.
    const eleven = await h.op('deployments.numbers', { token: tokens.manager, params: { id: deployment.id }, body: { action: 'cancel', numbers: Array.from({ length: 11 }, (_, i) => `30012345${String(i).padStart(2, '0')}`) } });
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().errors).toEqual([expect.objectContaining({ field: 'numbers' })]);
    const paused = (await h.op('deployments.control', { token: tokens.manager, params: { id: deployment.id, action: 'pause' } })).json();
    expect(paused).toMatchObject({ state: 'paused', counts: { cancelled: 1, queued: 1 } });
    expect((await h.op('deployments.control', { token: tokens.manager, params: { id: deployment.id, action: 'play' } })).json().state).toBe('running');
    const cancelled = (await h.op('deployments.control', { token: tokens.manager, params: { id: deployment.id, action: 'cancel' } })).json();
    expect(cancelled).toMatchObject({ state: 'cancelled', counts: { cancelled: 2, rejected: 1 } });
    expect((await h.op('credits.balance', { token: tokens.manager })).json()).toEqual(before);
    // Its run cancelled, the campaign is Aborted (out of the open tab); its sent date is the run's start, nothing processed.
    const aborted = (await h.op('campaigns.get', { token: tokens.manager, params: { id: campaign.id } })).json();
    expect(aborted).toMatchObject({ label: 'Aborted', lastSentAt: expect.any(String), lastProcessedAt: null });
    expect((await h.op('campaigns.list', { token: tokens.manager, query: { label: 'Active', q: 'Pedido listo' } })).json().total).toBe(0);
    // Processed: it cannot change any more.
    expect((await h.op('deployments.control', { token: tokens.manager, params: { id: deployment.id, action: 'play' } })).json().code).toBe('99984');
    const listed = (await h.op('deployments.list', { token: tokens.manager, query: { campaignId: campaign.id } })).json();
    expect(listed.items.map((d: { id: number }) => d.id)).toEqual([deployment.id]);
    expect((await h.op('deployments.get', { token: tokens.manager, params: { id: deployment.id } })).json().campaignName).toBe('Pedido listo');
    expect((await h.op('deployments.delete', { token: tokens.manager, params: { id: deployment.id } })).json()).toEqual({ ok: true });
    expect((await h.op('deployments.get', { token: tokens.manager, params: { id: deployment.id } })).json().code).toBe('99959');
    // Launched again, it is Active again with its new run; a run that goes to its end is its processed date.
    const again = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaign.id } })).json();
    expect((await h.op('campaigns.get', { token: tokens.manager, params: { id: campaign.id } })).json().label).toBe('Active');
    await h.db.updateTable('deployments').set({ state: 'completed', finished_at: h.clock.now }).where('id', '=', again.id).execute();
    expect((await h.op('campaigns.get', { token: tokens.manager, params: { id: campaign.id } })).json().lastProcessedAt).toBe(h.clock.now.toISOString());
  });

  it('refuses a launch the credits do not cover, creating nothing', async () => {
    const other = await h.addCompany('Sin Saldo S.A.S.', [{ email: 'gerente@sinsaldo.co', roles: ['manager'] }]);
    const token = (await h.signin('gerente@sinsaldo.co')).token;
    const channel = await h.db.insertInto('channels').values({ company_id: other.companyId, name: 'SMS', platform: 'sms', type: 'MT', sender: '+573159990001', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: new Date(), updated_at: new Date() }).returning('id').executeTakeFirstOrThrow();
    const campaign = (await create({ name: 'Sin saldo', content: 'Hola', channelId: channel.id }, token)).json();
    await h.op('campaigns.uploadRecipients', { token, params: { id: campaign.id }, ...csv('telefono\n3001230001\n3001230002\n') });
    const refused = await h.op('campaigns.launch', { token, params: { id: campaign.id } });
    expect(refused.json().code).toBe('99986');
    expect(await h.db.selectFrom('deployments').select('id').where('company_id', '=', other.companyId).execute()).toEqual([]);
    // Another company's campaign is not found; the manager of the demo company cannot see it.
    expect((await h.op('campaigns.get', { token: tokens.manager, params: { id: campaign.id } })).json().code).toBe('99959');
  });

  it('locks and unlocks for edits with a second person approving', async () => {
    const campaign = (await create({ name: 'Aprobación', content: 'Hola' })).json();
    expect((await h.op('campaigns.requestLock', { token: tokens.manager, params: { id: campaign.id }, body: { lock: true } })).json().editLock).toBe('pendinglockForEdit');
    expect((await h.op('campaigns.approveLock', { token: tokens.manager, params: { id: campaign.id } })).json().code).toBe('99923');
    expect((await h.op('campaigns.update', { token: tokens.manager, params: { id: campaign.id }, body: { content: 'Cambio' } })).json().code).toBe('99984');
    expect((await h.op('campaigns.approveLock', { token: tokens.superadmin, params: { id: campaign.id } })).json().editLock).toBe('lockedForEdit');
    expect((await h.op('campaigns.delete', { token: tokens.manager, params: { id: campaign.id } })).json().code).toBe('99984');
    await h.op('campaigns.requestLock', { token: tokens.superadmin, params: { id: campaign.id }, body: { lock: false } });
    expect((await h.op('campaigns.approveLock', { token: tokens.manager, params: { id: campaign.id } })).json().editLock).toBe('unlockedForEdit');
    const updated = await h.op('campaigns.update', { token: tokens.manager, params: { id: campaign.id }, body: { content: 'Hola {{nombre}}' } });
    expect(updated.json()).toMatchObject({ content: 'Hola {{nombre}}', variables: ['nombre'] });
    expect((await h.op('campaigns.get', { token: tokens.manager, params: { id: campaign.id } })).json().name).toBe('Aprobación');
    expect((await h.op('campaigns.delete', { token: tokens.manager, params: { id: campaign.id } })).json()).toEqual({ ok: true });
  });

  it('refuses a bad recipients file with its code and keeps nothing', async () => {
    const campaign = (await create({ name: 'Archivo malo', content: 'Hola {{nombre}}' })).json();
    const missing = await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaign.id }, ...csv('telefono\n3001234567\n') });
    expect(missing.json().code).toBe('99955');
    const binary = await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaign.id }, ...multipart('file', 'x.xlsx', 'application/octet-stream', Buffer.from('no soy un zip')) });
    expect(binary.json().code).toBe('99932');
    expect((await h.op('campaigns.get', { token: tokens.manager, params: { id: campaign.id } })).json().recipients).toBe(0);
  });
});

describe('a deployment after a crash', () => {
  it('counts the messages left in doubt as being verified, not as sending', async () => {
    const campaign = (await create({ name: 'Tras la caída', content: 'Hola, tu cita es mañana' })).json();
    await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaign.id }, ...csv('telefono\n3001230101\n3001230102\n') });
    const deployment = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaign.id } })).json();
    // What the engine's in-doubt recovery does to a dead worker's row (engine/lifecycle/in-doubt.ts).
    const [first] = await h.db.selectFrom('messages').select('id').where('deployment_id', '=', deployment.id).orderBy('id').execute();
    await h.db.updateTable('messages').set({ state: 'in_doubt', in_doubt_since: new Date() }).where('id', '=', first.id).execute();
    const seen = (await h.op('deployments.get', { token: tokens.manager, params: { id: deployment.id } })).json();
    expect(seen.counts).toMatchObject({ inDoubt: 1, sending: 0, queued: 1 });
  });
});

describe('the sending API', () => {
  it('sends with a Bearer API key, answers each message status and reads its history', async () => {
    const apiKey = await apiKeyOf(h, tokens.manager, 'ERP');
    const headers = { authorization: `Bearer ${apiKey}` };
    const one = await h.op('messages.send', { headers, body: { channel: 'sms', to: '300 765 4321', text: 'Tu código es 123456', purpose: 'otp' } });
    expect(one.statusCode).toBe(200);
    const [message] = one.json().messages;
    expect(message).toMatchObject({ channel: 'sms', to: '+573007654321', state: 'queued', statusCode: 1, parts: 1, cost: 1 });
    const batch = (await h.op('messages.send', { headers, body: { channel: 'sms', messages: [{ to: '3001112233', text: 'bloqueado' }, { to: 'abc', text: 'malo' }, { to: '3007654321', text: 'Tu código es 123456' }] } })).json();
    expect(batch.messages.map((m: { statusCode: number }) => m.statusCode)).toEqual([5, 94, 93]);
    const read = (await h.op('messages.get', { headers, params: { id: message.id } })).json();
    expect(read.history).toEqual([expect.objectContaining({ state: 'queued', statusCode: 1 })]);
    expect((await h.op('messages.send', { headers, body: { channel: 'sms', to: '12', text: 'x' } })).json().code).toBe('99963');
    expect((await h.op('messages.send', { body: { channel: 'sms', to: '3001234567', text: 'x' } })).statusCode).toBe(401);
    expect((await h.op('messages.get', { token: tokens.manager, params: { id: '999999999' } })).json().code).toBe('99959');
  });
});
