// src/core/session-codec.ts: the base64 session payload of spec 7, UTF-8 safe both ways.
import { describe, expect, it } from 'vitest';
import { decodeSession, encodeSession } from '../../src/core/session-codec.ts';
import type { SessionUser } from '../../src/generated/types.gen.ts';

const user: SessionUser = {
  idUser: 7,
  token: 'abc_DEF-123',
  state: 'active',
  roles: ['superadmin'],
  company: { id: 1, name: 'Compañía Ñandú S.A.S. 🐦', nit: '900123456-7', state: 'active', planType: 'pilot' },
  associations: [],
  permissions: { menu: [{ id: 10, actions: ['view'] }], defaultModule: '/User' },
  fullName: 'José Pérez',
  email: 'jose@empresa.co',
  profilePic: '',
  expiresAt: '2026-01-01T00:00:00.000Z',
};

describe('session codec', () => {
  it('round-trips, accents and emoji included', () => {
    const encoded = encodeSession(user);
    expect(encoded).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodeSession(encoded)).toEqual(user);
  });

  it('is plain base64 of the UTF-8 JSON (what other clients of the contract read)', () => {
    expect(JSON.parse(Buffer.from(encodeSession(user), 'base64').toString('utf8'))).toEqual(user);
  });

  it.each([
    ['not base64', '%%%'],
    ['base64 of text', btoa('hola')],
    ['base64 of JSON without a token', btoa(JSON.stringify({ idUser: 1 }))],
    ['base64 of a number', btoa('42')],
    ['base64 of null', btoa('null')],
    ['empty', ''],
  ])('decodes %s as null', (_name, given) => {
    expect(decodeSession(given)).toBeNull();
  });
});
