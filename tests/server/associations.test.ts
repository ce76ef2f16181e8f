// Associations and responsibles (schemas/api/associations.yaml, platform SMS prefix): reading and
// replacing a user's associations, the clients and responsibles lists, the sign-in session's
// `associations`, scope and company isolation.
import { beforeAll, describe, expect, it } from 'vitest';
import { demoEmail } from '../../src/server/db/demo-seed.ts';
import { fileHarness, signedIn, signedInUsers } from './file-harness.ts';
import { asOther, demoUserId } from './team-helpers.ts';

const h = fileHarness();
const tokens = signedIn(h, 'manager');
const users = signedInUsers(h, 'superadmin', 'analista');
let clients: { id: number; name: string }[];
let responsibles: { id: number; platform_client_id: number; name: string }[];
let theirClient: number;
let theirResponsible: number;
beforeAll(async () => {
  const demo = (await h.db.selectFrom('companies').select('id').where('name', '=', 'Demo S.A.S.').executeTakeFirstOrThrow()).id;
  clients = await h.db.selectFrom('platform_clients').select(['id', 'name']).where('company_id', '=', demo).orderBy('id').execute();
  responsibles = await h.db.selectFrom('platform_responsibles').select(['id', 'platform_client_id', 'name']).where('company_id', '=', demo).orderBy('id').execute();
  theirClient = (await h.db.selectFrom('platform_clients').select('id').where('company_id', '!=', demo).executeTakeFirstOrThrow()).id;
  theirResponsible = (await h.db.selectFrom('platform_responsibles').select('id').where('company_id', '!=', demo).executeTakeFirstOrThrow()).id;
});

describe('reading', () => {
  it("the sign-in session carries the user's associations", async () => {
    const { session } = await h.as('superadmin');
    expect(session.associations).toEqual([
      { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id, name: 'Mercadeo Digital' },
      { platformClientId: clients[0].id, platformResponsibleId: responsibles[1].id, name: 'Servicio al Cliente' },
    ]);
    expect((await h.as('analista')).session.associations).toEqual([]);
  });

  it("the sign-in session carries the platform clients the user's associations name, each once (the spec's session clients)", async () => {
    const nits = new Map((await h.db.selectFrom('platform_clients').select(['id', 'nit']).execute()).map((c) => [c.id, c.nit]));
    const { session } = await h.as('superadmin');
    expect(session.clients).toEqual([{ id: clients[0].id, name: clients[0].name, nit: nits.get(clients[0].id) }]);
    expect((await h.as('analista')).session.clients).toEqual([]);
  });

  it('User/{id}/Associations and ClientAccount answer the pairs with names; a user reads their own without the permission', async () => {
    const res = await h.op('associations.getUser', { params: { id: users.superadmin.id }, token: tokens.manager });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: expect.any(Number), platformClientId: clients[0].id, clientName: 'Demo S.A.S.', platformResponsibleId: responsibles[0].id, responsibleName: 'Mercadeo Digital', name: 'Mercadeo Digital' },
      { id: expect.any(Number), platformClientId: clients[0].id, clientName: 'Demo S.A.S.', platformResponsibleId: responsibles[1].id, responsibleName: 'Servicio al Cliente', name: 'Servicio al Cliente' },
    ]);
    expect((await h.op('associations.clientAccount', { query: { connectinUserId: users.superadmin.id }, token: tokens.manager })).json()).toEqual(res.json());
    expect((await h.op('associations.clientAccount', { token: users.superadmin.token })).json()).toEqual(res.json()); // default: the caller
    expect((await h.op('associations.getUser', { params: { id: users.analista.id }, token: users.analista.token })).json()).toEqual([]);
  });

  it('ClientAsocciations answers the clients of a user, or every client of the company', async () => {
    const mine = await h.op('associations.clientAssociations', { query: { connectinUserId: users.superadmin.id }, token: tokens.manager });
    expect(mine.json()).toEqual([{ id: clients[0].id, name: 'Demo S.A.S.', nit: '900123456-8' }]);
    const all = (await h.op('associations.clientAssociations', { token: tokens.manager })).json();
    expect(all.map((c: { name: string }) => c.name)).toEqual(['Demo Retail', 'Demo S.A.S.']);
  });

  it('getListResponsible answers a client responsibles; getAllListResponsible those of all the user clients', async () => {
    const list = (await h.op('associations.listResponsible', { params: { id: clients[0].id }, token: tokens.manager })).json();
    expect(list).toEqual([
      { id: responsibles[0].id, platformClientId: clients[0].id, name: 'Mercadeo Digital', email: demoEmail('mercadeo') },
      { id: responsibles[1].id, platformClientId: clients[0].id, name: 'Servicio al Cliente' },
    ]);
    const carolina = await demoUserId(h, 'carolina.ruiz');
    expect((await h.op('associations.allResponsible', { params: { userId: carolina }, token: tokens.manager })).json().map((r: { name: string }) => r.name)).toEqual(['Tiendas Norte']);
    expect((await h.op('associations.allResponsible', { params: { userId: users.analista.id }, token: users.analista.token })).json()).toEqual([]);
  });
});

describe('replacing', () => {
  it("PUT User/{id}/Associations replaces the user's set; the name defaults to the responsible's", async () => {
    const res = await h.op('associations.putUser', {
      params: { id: users.analista.id },
      token: tokens.manager,
      body: { associations: [
        { platformClientId: clients[1].id, platformResponsibleId: responsibles[2].id },
        { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id, name: ' Campañas ' },
      ] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((a: { clientName: string; name: string }) => [a.clientName, a.name])).toEqual([['Demo Retail', 'Tiendas Norte'], ['Demo S.A.S.', 'Campañas']]);
    expect((await h.as('analista')).session.associations.map((a) => a.name)).toEqual(['Tiendas Norte', 'Campañas']);
    // Two clients now, by name.
    expect((await h.as('analista')).session.clients?.map((c) => c.name)).toEqual(['Demo Retail', 'Demo S.A.S.']);
    const cleared = await h.op('associations.putUser', { params: { id: users.analista.id }, token: tokens.manager, body: { associations: [] } });
    expect(cleared.json()).toEqual([]);
  });

  it.each([
    ['a responsible of another client', (c: number[], r: number[]) => [{ platformClientId: c[1], platformResponsibleId: r[0] }], 'associations.0.platformClientId'],
    ['an unknown responsible', (c: number[]) => [{ platformClientId: c[0], platformResponsibleId: 999999 }], 'associations.0.platformResponsibleId'],
    ["another company's responsible", (_c: number[], _r: number[], t: number[]) => [{ platformClientId: t[0], platformResponsibleId: t[1] }], 'associations.0.platformResponsibleId'],
    ['the same pair twice', (c: number[], r: number[]) => [{ platformClientId: c[0], platformResponsibleId: r[0] }, { platformClientId: c[0], platformResponsibleId: r[0] }], 'associations.1'],
  ])('refuses %s: 99931 on the field, nothing changed', async (_what, make, field) => {
    const before = await h.db.selectFrom('associations').selectAll().orderBy('id').execute();
    const body = { associations: make(clients.map((c) => c.id), responsibles.map((r) => r.id), [theirClient, theirResponsible]) };
    const res = await h.op('associations.putUser', { params: { id: users.superadmin.id }, token: tokens.manager, body });
    expect(res.json()).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field })] });
    expect(await h.db.selectFrom('associations').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('refuses a body without the list (99999) and a bad name (99931)', async () => {
    expect((await h.op('associations.putUser', { params: { id: users.superadmin.id }, token: tokens.manager, body: {} })).json().code).toBe('99999');
    const bad = { associations: [{ platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id, name: '<b>' }] };
    expect((await h.op('associations.putUser', { params: { id: users.superadmin.id }, token: tokens.manager, body: bad })).json().code).toBe('99931');
  });
});

describe('one association at a time (AssociationsAddForm, AssociationsUpdateForm)', () => {
  const mine = () => h.db.selectFrom('associations').selectAll().where('user_id', '=', users.analista.id).orderBy('id').execute();

  it('adds one pair, reads it, changes it and removes it; the name defaults to the responsible\'s', async () => {
    const added = await h.op('associations.addUser', { params: { id: users.analista.id }, token: tokens.manager, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id } });
    expect(added.statusCode).toBe(200);
    const one = added.json();
    expect(one).toEqual({ id: expect.any(Number), platformClientId: clients[0].id, clientName: 'Demo S.A.S.', platformResponsibleId: responsibles[0].id, responsibleName: 'Mercadeo Digital', name: 'Mercadeo Digital' });
    expect((await h.op('associations.getOne', { params: { id: users.analista.id, associationId: one.id }, token: tokens.manager })).json()).toEqual(one);

    const changed = await h.op('associations.updateOne', { params: { id: users.analista.id, associationId: one.id }, token: tokens.manager, body: { platformClientId: clients[1].id, platformResponsibleId: responsibles[2].id, name: ' Norte ' } });
    expect(changed.json()).toEqual({ ...one, platformClientId: clients[1].id, clientName: 'Demo Retail', platformResponsibleId: responsibles[2].id, responsibleName: 'Tiendas Norte', name: 'Norte' });
    // The session the user signs in with carries it; the whole-list read too.
    expect((await h.as('analista')).session.associations).toEqual([{ platformClientId: clients[1].id, platformResponsibleId: responsibles[2].id, name: 'Norte' }]);

    const removed = await h.op('associations.deleteOne', { params: { id: users.analista.id, associationId: one.id }, token: tokens.manager });
    expect(removed.json()).toEqual({ ok: true });
    expect(await mine()).toEqual([]);
    expect((await h.op('associations.deleteOne', { params: { id: users.analista.id, associationId: one.id }, token: tokens.manager })).json().code).toBe('99959');
  });

  it('an update keeps the pair it changes (only the name) and refuses the pair of another of the user\'s', async () => {
    const a = (await h.op('associations.addUser', { params: { id: users.analista.id }, token: tokens.manager, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id } })).json();
    const b = (await h.op('associations.addUser', { params: { id: users.analista.id }, token: tokens.manager, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[1].id } })).json();
    const renamed = await h.op('associations.updateOne', { params: { id: users.analista.id, associationId: a.id }, token: tokens.manager, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id, name: 'Campañas' } });
    expect(renamed.json().name).toBe('Campañas');
    const clash = await h.op('associations.updateOne', { params: { id: users.analista.id, associationId: b.id }, token: tokens.manager, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id } });
    expect(clash.json()).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field: 'platformResponsibleId' })] });
    await h.op('associations.putUser', { params: { id: users.analista.id }, token: tokens.manager, body: { associations: [] } });
  });

  it.each([
    ['a responsible of another client', (c: number[], r: number[]) => ({ platformClientId: c[1], platformResponsibleId: r[0] }), 'platformClientId'],
    ['an unknown responsible', (c: number[]) => ({ platformClientId: c[0], platformResponsibleId: 999999 }), 'platformResponsibleId'],
    ["another company's client and responsible", (_c: number[], _r: number[], t: number[]) => ({ platformClientId: t[0], platformResponsibleId: t[1] }), 'platformResponsibleId'],
    ['a pair the user has already', (c: number[], r: number[]) => ({ platformClientId: c[0], platformResponsibleId: r[0] }), 'platformResponsibleId'],
  ])('add refuses %s: 99931 on the field, nothing changed', async (_what, make, field) => {
    const before = await h.db.selectFrom('associations').selectAll().orderBy('id').execute();
    const body = make(clients.map((c) => c.id), responsibles.map((r) => r.id), [theirClient, theirResponsible]);
    const res = await h.op('associations.addUser', { params: { id: users.superadmin.id }, token: tokens.manager, body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '99931', errors: [expect.objectContaining({ field })] });
    expect(await h.db.selectFrom('associations').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('refuses bad bodies: a missing responsible (99999), an unknown property or markup in the name (99931)', async () => {
    const before = await h.snapshot();
    const at = (body: unknown) => h.op('associations.addUser', { params: { id: users.analista.id }, token: tokens.manager, body });
    expect((await at({ platformClientId: clients[0].id })).json().code).toBe('99999');
    expect((await at({ platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id, userId: '5' })).json().code).toBe('99931');
    expect((await at({ platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id, name: '<b>' })).json().code).toBe('99931');
    const first = (await h.db.selectFrom('associations').select('id').where('user_id', '=', users.superadmin.id).orderBy('id').executeTakeFirstOrThrow()).id;
    const upd = await h.op('associations.updateOne', { params: { id: users.superadmin.id, associationId: first }, token: tokens.manager, body: { name: 'x' } });
    expect(upd.json().code).toBe('99999');
    expect(await h.snapshot()).toEqual(before);
  });

  it("another user's association id answers 99959 through this user's path", async () => {
    const superadmins = (await h.db.selectFrom('associations').select('id').where('user_id', '=', users.superadmin.id).orderBy('id').executeTakeFirstOrThrow()).id;
    const before = await h.db.selectFrom('associations').selectAll().orderBy('id').execute();
    for (const [op, args] of [
      ['associations.getOne', {}],
      ['associations.updateOne', { body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[1].id } }],
      ['associations.deleteOne', {}],
    ] as const) {
      const res = await h.op(op, { params: { id: users.analista.id, associationId: superadmins }, token: tokens.manager, ...args });
      expect(res.json().code, op).toBe('99959');
    }
    expect(await h.db.selectFrom('associations').selectAll().orderBy('id').execute()).toEqual(before);
  });
});

describe('permissions, scope and company isolation', () => {
  it('an analista may not read or change anyone else: 99982', async () => {
    const before = await h.snapshot();
    for (const [op, args] of [
      ['associations.getUser', { params: { id: users.superadmin.id } }],
      ['associations.putUser', { params: { id: users.analista.id }, body: { associations: [] } }],
      ['associations.clientAssociations', {}],
      ['associations.clientAccount', { query: { connectinUserId: users.superadmin.id } }],
      ['associations.listResponsible', { params: { id: clients[0].id } }],
      ['associations.allResponsible', { params: { userId: users.superadmin.id } }],
      ['associations.addUser', { params: { id: users.analista.id }, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id } }],
      ['associations.getOne', { params: { id: users.superadmin.id, associationId: 1 } }],
      ['associations.updateOne', { params: { id: users.superadmin.id, associationId: 1 }, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id } }],
      ['associations.deleteOne', { params: { id: users.superadmin.id, associationId: 1 } }],
    ] as const) {
      const res = await h.op(op, { token: users.analista.token, ...args });
      expect(res.statusCode, op).toBe(403);
      expect(res.json().code).toBe('99982');
    }
    expect(await h.snapshot()).toEqual(before);
  });

  it("another company's users and clients answer 99959, never their data", async () => {
    const { token } = await asOther(h, 'superadmin');
    const associations = await h.db.selectFrom('associations').selectAll().orderBy('id').execute();
    const ownIds = associations.filter((a) => a.user_id === users.superadmin.id).map((a) => a.id);
    for (const [op, args] of [
      ['associations.getUser', { params: { id: users.superadmin.id } }],
      ['associations.putUser', { params: { id: users.superadmin.id }, body: { associations: [] } }],
      ['associations.clientAssociations', { query: { connectinUserId: users.superadmin.id } }],
      ['associations.clientAccount', { query: { connectinUserId: users.superadmin.id } }],
      ['associations.listResponsible', { params: { id: clients[0].id } }],
      ['associations.allResponsible', { params: { userId: users.superadmin.id } }],
      ['associations.addUser', { params: { id: users.superadmin.id }, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id } }],
      ['associations.getOne', { params: { id: users.superadmin.id, associationId: ownIds[0] } }],
      ['associations.updateOne', { params: { id: users.superadmin.id, associationId: ownIds[0] }, body: { platformClientId: clients[0].id, platformResponsibleId: responsibles[0].id } }],
      ['associations.deleteOne', { params: { id: users.superadmin.id, associationId: ownIds[0] } }],
    ] as const) {
      const res = await h.op(op, { token, ...args });
      expect(res.statusCode, op).toBe(404);
      expect(res.json().code).toBe('99959');
      expect(res.body).not.toContain('Mercadeo');
    }
    expect(await h.db.selectFrom('associations').selectAll().orderBy('id').execute()).toEqual(associations);
    expect((await h.op('associations.clientAssociations', { token })).json().map((c: { name: string }) => c.name)).toEqual(['Andina Logística S.A.S.']);
  });

  it('a coordinator (me and dependents) reaches only their dependents', async () => {
    const { token } = await h.signin(demoEmail('jorge.pardo'));
    const diana = await demoUserId(h, 'diana.lopez');
    expect((await h.op('associations.getUser', { params: { id: diana }, token })).statusCode).toBe(200);
    expect((await h.op('associations.getUser', { params: { id: users.superadmin.id }, token })).json().code).toBe('99959');
    expect((await h.op('associations.putUser', { params: { id: users.superadmin.id }, token, body: { associations: [] } })).json().code).toBe('99959');
  });
});
