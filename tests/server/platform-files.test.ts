// The provider's SMS file processor and its deployments (reportFileUpload, addCampaign, the
// processed files, deploy, play / pause / cancel): staff work for a client company and one of its
// SMS accounts; the rows are judged by the campaigns' intake; a Connectin SMS file (512) becomes
// the company's campaign, an Eloqua or Responsys file (1024, 2048) is deployed without one; the
// client's credits, block list and account quota apply; a company user reaches only their own
// company's files (99982 naming another, 99959 for another's file) and none of the staff's calls.
import { beforeAll, describe, expect, it } from 'vitest';
import { addCredits, balanceOf } from '../../src/engine/credits.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';
import { otherCompany } from './messaging-fixtures.ts';

const h = fileHarness();
const tokens = signedIn(h, 'platform', 'superadmin', 'develop');
let client: { companyId: number; token: string; accountId: number; channelId: number };

const csv = (text: string, name = 'envio.csv') => multipart('file', name, 'text/csv', Buffer.from(text, 'utf8'));
const upload = (query: Record<string, string | number>, text: string, token = tokens.platform) =>
  h.op('platformFiles.reportFileUpload', { token, query, ...csv(text) });

beforeAll(async () => {
  const other = await otherCompany(h, ['sms']);
  const now = h.clock.now;
  const channel = await h.db.insertInto('channels').values({
    company_id: other.companyId, name: 'SMS cliente', platform: 'sms', type: 'MT', sender: '890123', tags: '[]', keywords: '[]', priority: 5,
    page_access_token_fp: null, facebook_page_id: null, client_email: null, callback_url: null, short_code: null, enabled: true, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  const pc = await h.db.insertInto('platform_clients').values({ company_id: other.companyId, name: 'Cliente Uno', nit: '800222333-1' }).returning('id').executeTakeFirstOrThrow();
  const account = await h.db.insertInto('sms_accounts').values({
    company_id: other.companyId, platform_client_id: pc.id, platform_responsible_id: null, name: 'Cuenta Uno', state: 'active', quota: 5, used: 0, created_at: now, updated_at: now,
  }).returning('id').executeTakeFirstOrThrow();
  await addCredits(h.db, 'grant', { companyId: other.companyId, amount: 100, now });
  client = { ...other, accountId: account.id, channelId: channel.id };
});

const query = (toolId: number, extra: Record<string, string | number> = {}) => ({ companyId: client.companyId, accountId: client.accountId, toolId, ...extra });

describe('reportFileUpload: a file judged for a client company', () => {
  it('judges every row as a campaign upload does (pass, warn, fail, error) and keeps them for the file', async () => {
    const text = 'celular,nombre,enlace\n3001112233,Ana,https://colibri.co\n+57 300 111 2244,Luis,https://colibri.co\n5551234,Eva,https://colibri.co\n,Sin,https://colibri.co\n3001112255,Rosa,notaurl\n3001112266,,https://colibri.co\n';
    const res = await upload(query(512, { content: 'Hola {{nombre}}, mira {{enlace}}' }), text);
    expect(res.statusCode).toBe(200);
    const file = res.json();
    expect(file).toMatchObject({ companyId: client.companyId, company: expect.stringMatching(/^Otra/), account: 'Cuenta Uno', toolId: 512, fileName: 'envio.csv', state: 'validated', campaignId: null, deploymentId: null });
    const rows = (await h.op('platformFiles.fileRows', { token: tokens.platform, params: { id: file.id } })).json().items as { row: number; result: string; problems: { code: string }[] }[];
    const codes = rows.map((r) => [r.result, r.problems.map((p) => p.code).sort().join(',')]);
    expect(codes).toEqual([
      ['pass', ''], ['warn', 'phoneNormalized'], ['fail', 'invalidPhone'], ['fail', 'emptyPhone'], ['fail', 'invalidUrl'], ['fail', 'requiredValue'],
    ]);
    expect(file).toMatchObject({ rows: 6, sendable: 2, refused: 4 });
    // The error report: the refused rows alone.
    expect((await h.op('platformFiles.fileRows', { token: tokens.platform, params: { id: file.id }, query: { result: 'fail' } })).json().total).toBe(4);
  });

  it('Eloqua and Responsys rows carry the message: a column mensaje is required, content refused', async () => {
    const headers = await upload(query(1024), 'celular,texto\n3001112233,hola\n');
    expect(headers.json().code).toBe('99955');
    expect((await upload(query(2048, { content: 'Hola' }), 'celular,mensaje\n3001112233,hola\n')).json().errors[0]).toMatchObject({ field: 'content', code: '99931' });
    const ok = (await upload(query(2048), 'celular,mensaje\n3001112233,Tu pedido llegó\n3001112234,\n')).json();
    expect(ok).toMatchObject({ toolId: 2048, content: null, rows: 2, sendable: 1, refused: 1 });
    const rows = (await h.op('platformFiles.fileRows', { token: tokens.platform, params: { id: ok.id }, query: { result: 'fail' } })).json().items;
    expect(rows[0].problems[0]).toMatchObject({ code: 'requiredValue', column: 'mensaje' });
  });

  it('refuses what is missing or not the company\'s before reading the file', async () => {
    expect((await upload(query(512), 'celular\n3001112233\n')).json().errors[0]).toMatchObject({ field: 'content', code: '99999' });
    expect((await upload({ toolId: 512, content: 'x' }, 'celular\n3001112233\n')).json().errors.map((e: { field: string }) => e.field)).toEqual(['companyId', 'accountId']);
    expect((await upload(query(777 as never), 'celular\n3001112233\n')).json().code).toBe('99931');
    // The demo company's account is not the client's.
    const demoAccount = await h.db.selectFrom('sms_accounts').select('id').where('company_id', '!=', client.companyId).executeTakeFirstOrThrow();
    expect((await upload(query(1024, { accountId: demoAccount.id }), 'celular,mensaje\n3001112233,x\n')).json().errors[0]).toMatchObject({ field: 'accountId', code: '99959' });
    expect((await upload(query(512, { content: 'Hola' }), '\u0000\u0001binario')).json().code).toBe('99932');
  });

  it('the account picker lists the client company\'s active accounts to staff only', async () => {
    await h.db.insertInto('sms_accounts').values({
      company_id: client.companyId, platform_client_id: (await h.db.selectFrom('platform_clients').select('id').where('company_id', '=', client.companyId).executeTakeFirstOrThrow()).id,
      platform_responsible_id: null, name: 'Cuenta Inactiva', state: 'inactive', quota: 5, used: 0, created_at: h.clock.now, updated_at: h.clock.now,
    }).execute();
    const accounts = (await h.op('platformFiles.clientAccounts', { token: tokens.platform, params: { companyId: client.companyId } })).json();
    expect(accounts.map((a: { name: string }) => a.name)).toEqual(['Cuenta Uno']);
    expect((await h.op('platformFiles.clientAccounts', { token: client.token, params: { companyId: client.companyId } })).json().code).toBe('99982');
    const inactive = await h.db.selectFrom('sms_accounts').select('id').where('name', '=', 'Cuenta Inactiva').executeTakeFirstOrThrow();
    expect((await upload(query(1024, { accountId: inactive.id }), 'celular,mensaje\n3001112233,x\n')).json().errors[0]).toMatchObject({ field: 'accountId', code: '99961' });
  });

  it('is the staff\'s: a company user gets 99982 and nothing is stored', async () => {
    const before = await h.count('platform_files');
    for (const token of [tokens.superadmin, tokens.develop, client.token]) {
      const res = await upload(query(1024, { companyId: client.companyId }), 'celular,mensaje\n3001112233,x\n', token);
      expect(res.json().code).toBe('99982');
    }
    expect(await h.count('platform_files')).toBe(before);
  });
});

describe('a Connectin SMS file becomes the company\'s campaign and is deployed', () => {
  let fileId: number;
  it('addCampaign makes an open SMS campaign of the client company with the file\'s rows', async () => {
    fileId = (await upload(query(512, { content: 'Hola {{nombre}}' }), 'celular,nombre\n3001110001,Ana\n3001110002,Luis\n')).json().id;
    // Deploying before its campaign exists is refused.
    expect((await h.op('platformFiles.deployFile', { token: tokens.platform, params: { id: fileId } })).json().code).toBe('99985');
    const res = await h.op('platformFiles.addCampaign', { token: tokens.platform, body: { fileId, name: 'Promo noviembre' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'campaign', campaign: 'Promo noviembre' });
    const campaign = await h.db.selectFrom('campaigns').selectAll().where('id', '=', res.json().campaignId).executeTakeFirstOrThrow();
    expect(campaign).toMatchObject({ company_id: client.companyId, kind: 'open', channel_id: client.channelId, content: 'Hola {{nombre}}' });
    // The client's own team sees it among their campaigns.
    expect((await h.op('campaigns.get', { token: client.token, params: { id: campaign.id } })).json().name).toBe('Promo noviembre');
    expect((await h.op('platformFiles.addCampaign', { token: tokens.platform, body: { fileId, name: 'Otra' } })).json().errors[0]).toMatchObject({ field: 'fileId', code: '99931' });
  });

  it('deploys with the client\'s credits and the account\'s quota; a second deploy is 99984', async () => {
    const credits = await balanceOf(h.db, client.companyId);
    const res = await h.op('platformFiles.deployFile', { token: tokens.platform, params: { id: fileId } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'deployed', total: 2, deploymentState: expect.stringMatching(/running|scheduled/) });
    const deployment = await h.db.selectFrom('deployments').selectAll().where('id', '=', res.json().deploymentId).executeTakeFirstOrThrow();
    expect(deployment).toMatchObject({ company_id: client.companyId, campaign_id: res.json().campaignId });
    const messages = await h.db.selectFrom('messages').select(['to_number', 'body']).where('deployment_id', '=', deployment.id).orderBy('to_number').execute();
    expect(messages).toEqual([{ to_number: '+573001110001', body: 'Hola Ana' }, { to_number: '+573001110002', body: 'Hola Luis' }]);
    const after = await balanceOf(h.db, client.companyId);
    expect(after.reserved - credits.reserved).toBe(2);
    expect((await h.db.selectFrom('sms_accounts').select('used').where('id', '=', client.accountId).executeTakeFirstOrThrow()).used).toBe(2);
    expect((await h.op('platformFiles.deployFile', { token: tokens.platform, params: { id: fileId } })).json().code).toBe('99984');
  });

  it('pauses, plays and cancels; the client\'s own users may too, for their files only', async () => {
    const pause = await h.op('platformFiles.controlFile', { token: tokens.platform, params: { id: fileId, action: 'pause' } });
    expect(pause.json().deploymentState).toBe('paused');
    expect((await h.op('platformFiles.controlFile', { token: client.token, params: { id: fileId, action: 'play' } })).json().deploymentState).not.toBe('paused');
    // The demo company's users do not reach the client's file.
    expect((await h.op('platformFiles.controlFile', { token: tokens.superadmin, params: { id: fileId, action: 'cancel' } })).json().code).toBe('99959');
    expect((await h.op('platformFiles.controlFile', { token: tokens.platform, params: { id: fileId, action: 'cancel' } })).json().deploymentState).toBe('cancelled');
    expect((await h.op('platformFiles.controlFile', { token: tokens.platform, params: { id: fileId, action: 'play' } })).json().code).toBe('99984');
  });
});

describe('an Eloqua file is deployed without a campaign', () => {
  it('sends each row\'s own message, refuses the client\'s blocked numbers, and spends its quota', async () => {
    await h.db.insertInto('block_list').values({ company_id: client.companyId, phone: '+573001119999', source: 'manual', created_by: null, created_at: h.clock.now, effective_at: h.clock.now }).execute();
    const file = (await upload(query(1024), 'celular,mensaje\n3001119998,Tu cita es mañana\n3001119999,No me llegues\n', tokens.platform)).json();
    const res = await h.op('platformFiles.deployFile', { token: tokens.platform, params: { id: file.id } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'deployed', campaignId: null });
    const deployment = await h.db.selectFrom('deployments').selectAll().where('id', '=', res.json().deploymentId).executeTakeFirstOrThrow();
    expect(deployment.campaign_id).toBeNull();
    const messages = await h.db.selectFrom('messages').select(['to_number', 'body', 'state']).where('deployment_id', '=', deployment.id).orderBy('to_number').execute();
    expect(messages[0]).toMatchObject({ to_number: '+573001119998', body: 'Tu cita es mañana' });
    expect(messages[1]).toMatchObject({ to_number: '+573001119999', state: 'rejected' });
    expect((await h.db.selectFrom('sms_accounts').select('used').where('id', '=', client.accountId).executeTakeFirstOrThrow()).used).toBe(4);
  });

  it('a file over the account\'s quota is refused (99986) and nothing is sent', async () => {
    const file = (await upload(query(2048), 'celular,mensaje\n3001117771,a\n3001117772,b\n')).json();
    const before = await h.count('deployments');
    const res = await h.op('platformFiles.deployFile', { token: tokens.platform, params: { id: file.id } });
    expect(res.json().errors[0]).toMatchObject({ field: 'accountId', code: '99986' });
    expect(await h.count('deployments')).toBe(before);
    expect((await h.op('platformFiles.getFile', { token: tokens.platform, params: { id: file.id } })).json().state).toBe('validated');
  });

  it('a client company the provider disabled is refused (99961): nothing sent, no quota taken', async () => {
    const file = (await upload(query(2048), 'celular,mensaje\n3001117781,a\n')).json();
    await h.db.updateTable('companies').set({ state: 'disabled' }).where('id', '=', client.companyId).execute();
    try {
      const before = { deployments: await h.count('deployments'), used: (await h.db.selectFrom('sms_accounts').select('used').where('id', '=', client.accountId).executeTakeFirstOrThrow()).used };
      const res = await h.op('platformFiles.deployFile', { token: tokens.platform, params: { id: file.id } });
      expect(res.json().errors[0]).toMatchObject({ field: 'accountId', code: '99961' });
      expect({ deployments: await h.count('deployments'), used: (await h.db.selectFrom('sms_accounts').select('used').where('id', '=', client.accountId).executeTakeFirstOrThrow()).used }).toEqual(before);
    } finally {
      await h.db.updateTable('companies').set({ state: 'active' }).where('id', '=', client.companyId).execute();
    }
  });
});

describe('validated messages that were lost (99949)', () => {
  it('a campaign whose recipients were replaced no longer holds the file\'s rows: deploying it is 99949', async () => {
    await h.db.updateTable('sms_accounts').set({ quota: 1000 }).where('id', '=', client.accountId).execute();
    const file = (await upload(query(512, { content: 'Hola' }), 'celular\n3001116661\n')).json();
    const made = (await h.op('platformFiles.addCampaign', { token: tokens.platform, body: { fileId: file.id, name: 'Reemplazada' } })).json();
    // The client's team uploads another file to that campaign: the processed rows are gone.
    const replaced = await h.op('campaigns.uploadRecipients', { token: client.token, params: { id: made.campaignId }, ...csv('celular\n3001116662\n') });
    expect(replaced.statusCode).toBe(200);
    expect((await h.op('platformFiles.getFile', { token: tokens.platform, params: { id: file.id } })).json().state).toBe('lost');
    const before = await h.count('deployments');
    expect((await h.op('platformFiles.deployFile', { token: tokens.platform, params: { id: file.id } })).json().code).toBe('99949');
    expect(await h.count('deployments')).toBe(before);
  });
});

describe('the processed files list', () => {
  it('staff see every company\'s, filtered; a company user sees only their own and 99982 naming another', async () => {
    const all = (await h.op('platformFiles.listFiles', { token: tokens.platform })).json();
    expect(all.total).toBeGreaterThanOrEqual(6);
    expect(all.items.every((f: { companyId: number }) => f.companyId === client.companyId)).toBe(true);
    const deployed = (await h.op('platformFiles.listFiles', { token: tokens.platform, query: { state: 'deployed', toolId: 1024 } })).json();
    expect(deployed.items.map((f: { toolId: number; state: string }) => [f.toolId, f.state])).toEqual([[1024, 'deployed']]);
    expect((await h.op('platformFiles.listFiles', { token: client.token })).json().total).toBe(all.total);
    expect((await h.op('platformFiles.listFiles', { token: tokens.superadmin })).json().total).toBe(0);
    expect((await h.op('platformFiles.listFiles', { token: tokens.superadmin, query: { companyId: client.companyId } })).json().code).toBe('99982');
    expect((await h.op('platformFiles.fileRows', { token: tokens.superadmin, params: { id: all.items[0].id } })).json().code).toBe('99959');
  });
});
