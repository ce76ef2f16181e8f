// The company (component 6003): reading and editing its data with the NIT check digit and the
// geography codes, the logo; the provider's staff (role platform) listing every company, moving
// states (validation -> active -> disabled -> active) and plans; a newly registered company
// reaching the full app once activated.
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeSession } from '../../src/core/session-codec.ts';
import { landingFor } from '../../src/core/access.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart, PNG_1x1 } from './harness.ts';
import { activate, asOther, memberBody } from './team-helpers.ts';
import { addCredits, balanceOf } from '../../src/engine/credits.ts';
import { createDeployment, enqueueMessages } from '../../src/engine/lifecycle/index.ts';

const h = fileHarness();
const tokens = signedIn(h, 'superadmin', 'analista', 'platform');
let demoId: number;
let andinaId: number;
beforeAll(async () => {
  demoId = (await h.db.selectFrom('companies').select('id').where('name', '=', 'Demo S.A.S.').executeTakeFirstOrThrow()).id;
  andinaId = (await h.db.selectFrom('companies').select('id').where('name', '=', 'Andina Logística S.A.S.').executeTakeFirstOrThrow()).id;
});

/** A member whose only role reads the company but may not edit it. */
async function viewOnlyUser(): Promise<string> {
  const role = (await h.op('rolesV3.create', { token: tokens.superadmin, body: { name: 'Lector empresa', scope: 'onlyMe', permissions: [{ id: 6003, actions: ['view'] }] } })).json();
  const body = memberBody({ roleIds: [role.id] });
  await h.op('team.create', { token: tokens.superadmin, body });
  return (await activate(h, body.email)).token;
}

describe('company.get and company.patch', () => {
  it("reads the caller's company", async () => {
    const res = await h.op('company.get', { token: tokens.analista });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: demoId, name: 'Demo S.A.S.', nit: '900123456-8', state: 'active', planType: 'pilot', logoUrl: '', countryCode: null });
    expect((await h.op('company.get', { token: (await asOther(h, 'superadmin')).token })).json().name).toBe('Andina Logística S.A.S.');
  });

  it('changes the fields sent: name, NIT with a valid check digit, phone, address and place', async () => {
    const res = await h.op('company.patch', {
      token: tokens.superadmin,
      body: { name: ' Demo Colombia S.A.S. ', nit: '890903938-8', phone: '601 234 5678', address: 'Calle 26 # 68-35', countryCode: 'co', regionCode: '5', cityCode: '05001' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Demo Colombia S.A.S.', nit: '890903938-8', phone: '+576012345678', address: 'Calle 26 # 68-35', countryCode: 'CO', regionCode: '05', cityCode: '05001' });
    // The session's company follows.
    expect((await h.as('analista')).session.company?.name).toBe('Demo Colombia S.A.S.');
    const onlyAddress = await h.op('company.patch', { token: tokens.superadmin, body: { address: 'Avenida El Dorado # 69-76' } });
    expect(onlyAddress.json()).toMatchObject({ nit: '890903938-8', address: 'Avenida El Dorado # 69-76', cityCode: '05001' });
  });

  it.each([
    ['a wrong NIT check digit', { nit: '890903938-7' }, '99929', 'nit'],
    ['a NIT without its check digit', { nit: '890903938' }, '99929', 'nit'],
    ['a city of another region', { regionCode: '11', cityCode: '05001' }, '99931', 'cityCode'],
    ['an unknown region', { countryCode: 'CO', regionCode: '98' }, '99931', 'regionCode'],
    ['an unknown country', { countryCode: 'ZZ', regionCode: null, cityCode: null }, '99931', 'countryCode'],
    ['a foreign phone', { phone: '+1 202 555 0100' }, '99931', 'phone'],
    ['markup in the name', { name: '<b>Demo</b>' }, '99931', 'name'],
    ['the plan (set by the provider)', { planType: 'subscription' }, '99931', 'planType'],
    ['the state', { state: 'active' }, '99931', 'state'],
  ])('refuses %s: %s on %s, nothing changed', async (_what, body, code, field) => {
    const before = await h.db.selectFrom('companies').selectAll().orderBy('id').execute();
    const res = await h.op('company.patch', { token: tokens.superadmin, body });
    expect(res.json().code).toBe(code);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await h.db.selectFrom('companies').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('an empty body answers 99931', async () => {
    expect((await h.op('company.patch', { token: tokens.superadmin, body: {} })).json().code).toBe('99931');
  });

  it('a role that may only read the company is refused the edit: 99982', async () => {
    const token = await viewOnlyUser();
    expect((await h.op('company.get', { token })).statusCode).toBe(200);
    const before = await h.db.selectFrom('companies').selectAll().orderBy('id').execute();
    expect((await h.op('company.patch', { token, body: { name: 'Tomada' } })).json().code).toBe('99982');
    expect((await h.op('company.uploadLogo', { token, ...multipart('file', 'logo.png', 'image/png', PNG_1x1) })).json().code).toBe('99982');
    expect(await h.db.selectFrom('companies').selectAll().orderBy('id').execute()).toEqual(before);
  });
});

describe('company.uploadLogo', () => {
  it('stores the logo (the same picture as the account picture) and refuses a fake image (99932)', async () => {
    const res = await h.op('company.uploadLogo', { token: tokens.superadmin, ...multipart('file', 'logo.png', 'image/png', PNG_1x1) });
    expect(res.statusCode).toBe(200);
    expect((await h.op('company.get', { token: tokens.analista })).json().logoUrl).toBe(res.json().url);
    expect((await h.op('account.getPicture', { token: tokens.analista })).json().url).toBe(res.json().url);
    const before = await h.snapshot();
    expect((await h.op('company.uploadLogo', { token: tokens.superadmin, ...multipart('file', 'logo.png', 'image/png', Buffer.from('<svg onload=alert(1)>')) })).json().code).toBe('99932');
    expect(await h.snapshot()).toEqual(before);
  });
});

describe('provider staff: every company', () => {
  it('lists every company, paged, with filters and search', async () => {
    const page = (await h.op('company.listAll', { token: tokens.platform })).json();
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 50 });
    expect(page.items.find((c: { id: number }) => c.id === andinaId)).toMatchObject({ name: 'Andina Logística S.A.S.', planType: 'subscription', usersCount: 2 });
    expect((await h.op('company.listAll', { token: tokens.platform, query: { planType: 'subscription' } })).json().total).toBe(1);
    expect((await h.op('company.listAll', { token: tokens.platform, query: { q: '900987654' } })).json().items[0].id).toBe(andinaId);
    expect((await h.op('company.listAll', { token: tokens.platform, query: { sort: 'name', order: 'desc' } })).json().items[0].id).toBe(demoId);
    expect((await h.op('company.listAll', { token: tokens.platform, query: { state: 'sleeping' } })).json().code).toBe('99931');
  });

  it('anyone without the platform role is refused: 99982, even a superadmin', async () => {
    const before = await h.db.selectFrom('companies').selectAll().orderBy('id').execute();
    for (const token of [tokens.superadmin, tokens.analista]) {
      expect((await h.op('company.listAll', { token })).json().code).toBe('99982');
      expect((await h.op('company.setState', { params: { id: andinaId }, token, body: { state: 'disabled' } })).json().code).toBe('99982');
      expect((await h.op('company.setPlan', { params: { id: andinaId }, token, body: { planType: 'pilot' } })).json().code).toBe('99982');
    }
    expect(await h.db.selectFrom('companies').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('a newly registered company waits in validation until the staff activate it; then its users reach the full app', async () => {
    const reg = await h.op('clientAuth.register', {
      body: { fullName: 'Nueva Gerente', email: 'gerente@nueva-empresa.co', password: 'Nueva#Clave2025', companyName: 'Nueva Empresa S.A.S.', nit: '901234567-7', phone: '3207778899', acceptTerms: true, captchaToken: 'sandbox-ok', sendEmail: true },
    });
    expect(reg.statusCode).toBe(200);
    await h.op('clientAuth.validateOtp', { body: { email: 'gerente@nueva-empresa.co', code: await h.lastCode('gerente@nueva-empresa.co') } });
    // A user waiting on verification too (state validation), as the spec names it.
    const company = (await h.db.selectFrom('users').select('company_id').where('email', '=', 'gerente@nueva-empresa.co').executeTakeFirstOrThrow()).company_id;
    await h.db.updateTable('users').set({ state: 'validation' }).where('email', '=', 'gerente@nueva-empresa.co').execute();
    const waiting = await h.signin('gerente@nueva-empresa.co', 'Nueva#Clave2025');
    expect(landingFor(waiting.session as never)).toBe('/validation');
    expect((await h.op('team.list', { token: waiting.token })).json().code).toBe('99982');

    const res = await h.op('company.setState', { params: { id: company }, token: tokens.platform, body: { state: 'active' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: company, state: 'active' });
    const after = await h.op('clientAuth.signin', { body: { email: 'gerente@nueva-empresa.co', password: 'Nueva#Clave2025' } });
    const session = decodeSession(after.json().clientToken)!;
    expect(session.state).toBe('active');
    expect(landingFor(session)).toBeNull();
    expect((await h.op('team.list', { token: session.token })).statusCode).toBe(200);
  });

  it('active -> disabled -> active; other transitions (99927) and unknown ids (99959) are refused', async () => {
    const andina = await asOther(h, 'superadmin');
    expect((await h.op('company.setState', { params: { id: andinaId }, token: tokens.platform, body: { state: 'disabled' } })).json().state).toBe('disabled');
    // A disabled company's sessions lose the full app at once.
    expect((await h.op('team.list', { token: andina.token })).json().code).toBe('99982');
    const before = await h.db.selectFrom('companies').selectAll().orderBy('id').execute();
    const res = await h.op('company.setState', { params: { id: andinaId }, token: tokens.platform, body: { state: 'validation' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('99927');
    expect((await h.op('company.setState', { params: { id: andinaId }, token: tokens.platform, body: { state: 'disabled' } })).json().code).toBe('99927');
    expect((await h.op('company.setState', { params: { id: demoId }, token: tokens.platform, body: { state: 'disabled' } })).json().code).toBe('99927'); // their own
    expect((await h.op('company.setState', { params: { id: 999999 }, token: tokens.platform, body: { state: 'active' } })).json().code).toBe('99959');
    expect((await h.op('company.setState', { params: { id: andinaId }, token: tokens.platform, body: { state: 'closed' } })).json().code).toBe('99931');
    expect((await h.op('company.setState', { params: { id: andinaId }, token: tokens.platform, body: {} })).json().code).toBe('99999');
    expect(await h.db.selectFrom('companies').selectAll().orderBy('id').execute()).toEqual(before);
    expect((await h.op('company.setState', { params: { id: andinaId }, token: tokens.platform, body: { state: 'active' } })).json().state).toBe('active');
    expect((await h.op('team.list', { token: andina.token })).statusCode).toBe(200);
  });

  it('disabling a company stops its sending: what waits is refused with 85, its credits come back, its runs are cancelled; what it enqueues while disabled is refused too', async () => {
    const now = new Date();
    await addCredits(h.db, 'grant', { companyId: andinaId, amount: 100, now });
    const channel = await h.db.insertInto('channels').values({ company_id: andinaId, name: 'SMS Andina', platform: 'sms', type: 'MT', tags: '[]', keywords: '[]', priority: 5, enabled: true, created_at: now, updated_at: now } as never).returning('id').executeTakeFirstOrThrow();
    const enqueue = (items: { to: string; body: string }[], deploymentId: number | null, at: Date) => h.db.transaction().execute((trx) => enqueueMessages(trx, {
      companyId: andinaId, channel: { id: channel.id, platform: 'sms' }, purpose: 'transactional', source: deploymentId ? 'campaign' : 'api', deploymentId,
      items, duplicateWindowHours: 0, heldUntil: null, now: new Date(), at, onInsufficientCredits: 'reject',
    }));
    const tomorrow = new Date(now.getTime() + 86_400_000);
    const deploymentId = await h.db.transaction().execute((trx) => createDeployment(trx, { companyId: andinaId, campaignId: null, channelId: channel.id, purpose: 'transactional', at: tomorrow, createdBy: null, now }));
    const planned = await enqueue([{ to: '+573001110001', body: 'Mañana llega su pedido' }, { to: '+573001110002', body: 'Mañana llega su pedido' }], deploymentId, tomorrow);
    expect(planned.queued).toBe(2);
    expect(await balanceOf(h.db, andinaId)).toMatchObject({ reserved: 2 });

    expect((await h.op('company.setState', { params: { id: andinaId }, token: tokens.platform, body: { state: 'disabled' } })).json().state).toBe('disabled');
    const rows = await h.db.selectFrom('messages').select(['state', 'status_code']).where('id', 'in', planned.ids).execute();
    expect(rows).toEqual([{ state: 'rejected', status_code: 85 }, { state: 'rejected', status_code: 85 }]);
    expect(await balanceOf(h.db, andinaId)).toMatchObject({ reserved: 0 });
    expect(await h.db.selectFrom('deployments').select(['state', 'stop_reason']).where('id', '=', deploymentId).executeTakeFirstOrThrow()).toEqual({ state: 'cancelled', stop_reason: 'companyDisabled' });
    // A recurrence, an event or the staff's file deploy enqueuing for it now: refused, nothing reserved.
    const late = await enqueue([{ to: '+573001110003', body: 'Hola' }], null, new Date());
    expect([late.queued, late.rejected.clientInactive, late.reservedCredits]).toEqual([0, 1, 0]);
    expect((await h.db.selectFrom('messages').select('status_code').where('id', '=', late.ids[0]).executeTakeFirstOrThrow()).status_code).toBe(85);

    expect((await h.op('company.setState', { params: { id: andinaId }, token: tokens.platform, body: { state: 'active' } })).json().state).toBe('active');
    const again = await enqueue([{ to: '+573001110004', body: 'Hola de nuevo' }], null, new Date());
    expect(again.queued).toBe(1);
  });

  it('sets a company plan', async () => {
    const res = await h.op('company.setPlan', { params: { id: andinaId }, token: tokens.platform, body: { planType: 'pilot' } });
    expect(res.json()).toMatchObject({ id: andinaId, planType: 'pilot' });
    expect((await h.op('company.setPlan', { params: { id: 999999 }, token: tokens.platform, body: { planType: 'pilot' } })).json().code).toBe('99959');
    expect((await h.op('company.setPlan', { params: { id: andinaId }, token: tokens.platform, body: { planType: 'free' } })).json().code).toBe('99931');
  });
});
