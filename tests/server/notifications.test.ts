// Notifications: own list with the unread count; marking by ids or "all"; nobody reads or marks
// another user's notifications.
import { describe, expect, it } from 'vitest';
import { fileHarness, signedInUsers } from './file-harness.ts';

const h = fileHarness();
const users = signedInUsers(h, 'admin', 'manager');

const list = (userId: number, token: string) => h.op('notifications.list', { params: { userId }, token });

describe('notifications', () => {
  it('lists the caller\'s notifications, newest first, with the unread count', async () => {
    const res = await list(users.admin.id, users.admin.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.unread).toBe(2);
    expect(body.items).toHaveLength(2);
    expect(body.items[0]).toEqual({ id: expect.any(Number), title: expect.any(String), message: expect.any(String), visible: true, createdAt: expect.any(String) });
    expect(body.items[0].id).toBeGreaterThan(body.items[1].id);
  });

  it("another user's list answers 99982", async () => {
    const res = await list(users.manager.id, users.admin.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('99982');
  });

  it('marks the listed ids read and recomputes the count', async () => {
    const [first] = (await list(users.admin.id, users.admin.token)).json().items;
    const res = await h.op('notifications.markRead', { token: users.admin.token, body: { userId: users.admin.id, notificationIds: [first.id] } });
    expect(res.json()).toEqual({ unread: 1 });
    const after = (await list(users.admin.id, users.admin.token)).json();
    expect(after.unread).toBe(1);
    expect(after.items.find((n: { id: number }) => n.id === first.id).visible).toBe(false);
  });

  it("ids of another user's notifications are ignored", async () => {
    const theirs = (await list(users.manager.id, users.manager.token)).json().items.map((n: { id: number }) => n.id);
    const res = await h.op('notifications.markRead', { token: users.admin.token, body: { userId: users.admin.id, notificationIds: theirs } });
    expect(res.json()).toEqual({ unread: 1 });
    expect((await list(users.manager.id, users.manager.token)).json().unread).toBe(2);
  });

  it('marking for another userId answers 99982 and changes nothing', async () => {
    const res = await h.op('notifications.markRead', { token: users.admin.token, body: { userId: users.manager.id, notificationIds: 'all' } });
    expect(res.json().code).toBe('99982');
    expect((await list(users.manager.id, users.manager.token)).json().unread).toBe(2);
  });

  it('"all" marks every notification read', async () => {
    const res = await h.op('notifications.markRead', { token: users.manager.token, body: { userId: users.manager.id, notificationIds: 'all' } });
    expect(res.json()).toEqual({ unread: 0 });
    expect((await h.op('notifications.markRead', { token: users.manager.token, body: { userId: users.manager.id, notificationIds: [] } })).json()).toEqual({ unread: 0 });
  });

  it.each([
    [{ notificationIds: 'all' }, '99999'],
    [{ userId: 1 }, '99999'],
    [{ userId: 1, notificationIds: 'some' }, '99931'],
    [{ userId: 1, notificationIds: ['1'] }, '99931'],
    [{ userId: 'me', notificationIds: 'all' }, '99931'],
  ])('refuses %j with %s', async (body, code) => {
    expect((await h.op('notifications.markRead', { token: users.admin.token, body })).json().code).toBe(code);
  });

  it('needs a session: 99953 without a token', async () => {
    expect((await list(users.admin.id, '')).json().code).toBe('99953');
  });
});
