// Setting a new password (recovery and change): no reuse of the last N (constants.security.
// passwordHistory, the current one included), argon2id hash, history row, lock cleared, and a
// user who was told to renew their password (needsNewPassword / ExpiredPassword) becomes active.
import { sql, type Kysely } from 'kysely';
import { constants } from '../../../generated/constants.gen.ts';
import type { Database } from '../../../engine/database.ts';
import { fail } from '../../errors/api-error.ts';
import { contractMessages } from '../../errors/messages.ts';
import { hashPassword, matchesAny } from '../../security/passwords.ts';

export async function assertNotRecent(db: Kysely<Database>, userId: number, password: string): Promise<void> {
  const recent = await db
    .selectFrom('password_history')
    .select('password_hash')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(constants.security.passwordHistory)
    .execute();
  const current = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  const hashes = [...new Set([...(current ? [current.password_hash] : []), ...recent.map((r) => r.password_hash)])];
  if (await matchesAny(hashes, password)) throw fail('99939', contractMessages.passwordReused);
}

/** Returns the user's state after the change. */
export async function setNewPassword(db: Kysely<Database>, userId: number, password: string, now: Date, opts: { reuseChecked?: boolean } = {}): Promise<string> {
  if (!opts.reuseChecked) await assertNotRecent(db, userId, password);
  const hash = await hashPassword(password); // outside the transaction: PGlite has one connection
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('users')
      .set({
        password_hash: hash,
        password_changed_at: now,
        failed_logins: 0,
        locked_until: null,
        state: sql<string>`case when state in ('needsNewPassword', 'ExpiredPassword') then 'active' else state end`,
      })
      .where('id', '=', userId)
      .returning('state')
      .executeTakeFirstOrThrow();
    await trx.insertInto('password_history').values({ user_id: userId, password_hash: hash, created_at: now }).execute();
    return row.state;
  });
}
