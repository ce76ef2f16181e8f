// The transport without React: headers, URLs, error answers, the 401 rule and network failures.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setComponent, resetAction } from '../../src/console/api/component.ts';
import { ApiError, errorText } from '../../src/console/api/errors.ts';
import { getSession } from '../../src/console/api/session.ts';
import { storageKeys } from '../../src/console/api/storage.ts';
import { buildUrl, clearExpiredFlag, createTransport, isClientPath, onSessionExpired, sessionWasExpired } from '../../src/console/api/transport.ts';
import { i18n } from '../../src/console/app/i18n.ts';
import { signinPathFor } from '../../src/console/shell/guards.tsx';
import { tokenOf, users } from '../../src/console/stories/fixtures.ts';

type Seen = { url: string; init: RequestInit };
function fakeFetch(status: number, body: unknown, seen: Seen[] = []): typeof fetch {
  return (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof fetch;
}

beforeEach(() => {
  localStorage.clear();
  clearExpiredFlag();
  setComponent({ id: null, name: null });
  resetAction();
});
afterEach(() => vi.restoreAllMocks());

describe('requests', () => {
  it('fills path parameters and the query string', () => {
    expect(buildUrl('/v1/clients/{id}/hierarchy', { id: 7 })).toBe('/v1/clients/7/hierarchy');
    expect(buildUrl('/v1/sandbox/outbox', {}, { to: 'a@b.co', empty: '', none: undefined })).toBe('/v1/sandbox/outbox?to=a%40b.co');
  });

  it('sends the session token as X-Auth-Token and Bearer, and the component headers', async () => {
    localStorage.setItem(storageKeys.clientToken, tokenOf(users.manager));
    setComponent({ id: 6001, name: 'settings.areas' });
    const seen: Seen[] = [];
    const transport = createTransport({ fetch: fakeFetch(200, { id: 1, name: 'Cali' }, seen), pathname: () => '/profile/account', language: () => 'en' });
    await transport('account.create', { body: { name: 'Cali' } });
    const headers = seen[0].init.headers as Record<string, string>;
    expect(seen[0].url).toBe('/v1/account');
    expect(seen[0].init.method).toBe('POST');
    expect(seen[0].init.body).toBe('{"name":"Cali"}');
    expect(headers).toMatchObject({
      'X-Auth-Token': users.manager.token,
      Authorization: `Bearer ${users.manager.token}`,
      'X-Component-Id': '6001',
      'X-Component-Name': 'settings.areas',
      'X-Component-Action': 'create',
      'Content-Type': 'application/json',
      'Accept-Language': 'en',
    });
    expect(headers['X-Client-Token']).toBeUndefined();
  });

  it('uses X-Client-Token on routes whose first segment is Client', async () => {
    localStorage.setItem(storageKeys.clientToken, tokenOf(users.analista));
    const seen: Seen[] = [];
    await createTransport({ fetch: fakeFetch(200, { items: [], unread: 0 }, seen), pathname: () => '/Client/orders' })('notifications.list', { params: { userId: 3 } });
    const headers = seen[0].init.headers as Record<string, string>;
    expect(headers['X-Client-Token']).toBe(users.analista.token);
    expect(headers['X-Auth-Token']).toBeUndefined();
    expect(isClientPath('/Client')).toBe(true);
    expect(isClientPath('/clientSignin')).toBe(false);
    expect(signinPathFor('/Client/orders')).toBe('/clientSignin');
    expect(signinPathFor('/Campaigns')).toBe('/signin');
  });
});

describe('errors', () => {
  it('turns an error answer into ApiError with its code and field problems', async () => {
    const transport = createTransport({ fetch: fakeFetch(400, { code: '99999', message: 'Missing field', errors: [{ field: 'email', code: '99999', message: 'required' }] }) });
    const error = await transport('clientAuth.validate', { body: { email: '' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('99999');
    expect((error as ApiError).errors).toEqual([{ field: 'email', code: '99999', message: 'required' }]);
  });

  it('words errors: catalogue code, then mapped message, then the server message', () => {
    const t = i18n.getFixedT('en');
    expect(errorText(t, new ApiError({ status: 401, code: '99996', message: 'x', operation: 'clientAuth.signin' }))).toBe(i18n.t('errors.server.invalidCredentials', { lng: 'en' }));
    expect(errorText(t, new ApiError({ status: 400, code: 'zz', message: 'The new password has been used recently', operation: 'clients.patch' }))).toBe(i18n.t('errors.message.passwordUsedRecently', { lng: 'en' }));
    expect(errorText(t, new ApiError({ status: 400, code: 'zz', message: 'Something odd', operation: 'clients.patch' }))).toBe('Something odd');
  });

  it('answers the client network text when the connection fails', async () => {
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const error = await createTransport({ fetch: failing })('system.health', {}).catch((e: unknown) => e);
    expect((error as ApiError).isNetwork).toBe(true);
    expect(errorText(i18n.getFixedT('es'), error)).toBe('Error de red: ocurrió un error durante la conexión. Por favor, intenta más tarde.');
    expect(errorText(i18n.getFixedT('en'), error)).toBe(i18n.t('errors.client.network', { lng: 'en' }));
  });
});

describe('the 401 rule', () => {
  it('drops the token and the branch office and goes to /signin?expired=true', async () => {
    localStorage.setItem(storageKeys.clientToken, tokenOf(users.manager));
    localStorage.setItem(storageKeys.area, '2');
    localStorage.setItem(storageKeys.language, 'en');
    const go = vi.fn();
    const restore = onSessionExpired(go);
    await expect(createTransport({ fetch: fakeFetch(401, { code: '99953', message: 'Unauthorized' }) })('account.list', {})).rejects.toBeInstanceOf(ApiError);
    restore();
    expect(go).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(storageKeys.clientToken)).toBeNull();
    expect(localStorage.getItem(storageKeys.area)).toBeNull();
    expect(localStorage.getItem(storageKeys.language)).toBe('en');
    expect(getSession()).toBeNull();
    expect(sessionWasExpired()).toBe(true);
    expect(signinPathFor('/User')).toBe('/signin?expired=true');
  });

  it('does not apply to validate and signin (a wrong password is not an expired session)', async () => {
    localStorage.setItem(storageKeys.clientToken, tokenOf(users.manager));
    const go = vi.fn();
    const restore = onSessionExpired(go);
    const transport = createTransport({ fetch: fakeFetch(401, { code: '99996', message: 'Invalid credentials' }) });
    await expect(transport('clientAuth.signin', { body: { email: 'a@b.co', password: 'x' } })).rejects.toBeInstanceOf(ApiError);
    await expect(transport('clientAuth.validate', { body: { email: 'a@b.co' } })).rejects.toBeInstanceOf(ApiError);
    restore();
    expect(go).not.toHaveBeenCalled();
    expect(localStorage.getItem(storageKeys.clientToken)).not.toBeNull();
  });
});
