// Notifications (spec 7): a user reads and marks only their own; another user's id answers
// 99982. visible = true means unread; every answer carries the recomputed unread count.
import type { Kysely } from 'kysely';
import type { Session } from '../../context.ts';
import type { Database } from '../../../engine/database.ts';
import { fail } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';

const LIST_LIMIT = 200;

async function unreadCount(db: Kysely<Database>, me: Session): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', me.userId)
    .where('company_id', '=', me.companyId)
    .where('visible', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const notificationsHandlers: DomainHandlers<'notifications'> = {
  'notifications.list': async (ctx) => {
    const me = caller(ctx);
    if (ctx.params.userId !== me.userId) throw fail('99982');
    const rows = await ctx.deps.db
      .selectFrom('notifications')
      .select(['id', 'title', 'message', 'visible', 'created_at'])
      .where('user_id', '=', me.userId)
      .where('company_id', '=', me.companyId)
      .orderBy('id', 'desc')
      .limit(LIST_LIMIT)
      .execute();
    const items = rows.map((r) => ({ id: r.id, title: r.title, message: r.message, visible: r.visible, createdAt: new Date(r.created_at).toISOString() }));
    return { items, unread: await unreadCount(ctx.deps.db, me) };
  },

  'notifications.markRead': async (ctx) => {
    const me = caller(ctx);
    if (ctx.body.userId !== me.userId) throw fail('99982');
    const ids = ctx.body.notificationIds;
    let q = ctx.deps.db.updateTable('notifications').set({ visible: false }).where('user_id', '=', me.userId).where('company_id', '=', me.companyId);
    if (ids !== 'all') {
      if (ids.length === 0) return { unread: await unreadCount(ctx.deps.db, me) };
      q = q.where('id', 'in', ids);
    }
    await q.where('visible', '=', true).execute();
    return { unread: await unreadCount(ctx.deps.db, me) };
  },
};
