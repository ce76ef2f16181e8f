// Sign-in failures of an e-mail that has no account (issue 13). A real account counts its
// failures on its row (users.failed_logins, locked_until); an unknown e-mail counts them here, so
// signin.ts runs the same steps for both and a guesser cannot tell them apart by the answers
// (99996, then the captcha 99998, then the lock 99948). Rows are keyed by a digest of the
// normalised e-mail and forgotten a day after their last failure.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';

const FORGET_AFTER_MS = 86_400_000;

const digestOf = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

/** The e-mail's failures and whether it is locked now; an expired lock starts afresh, as an account's does. */
export async function attemptOf(db: Kysely<Database>, email: string, now: Date): Promise<{ failures: number; locked: boolean }> {
  const row = await db.selectFrom('signin_attempts').select(['failures', 'locked_until']).where('email_digest', '=', digestOf(email)).executeTakeFirst();
  if (!row) return { failures: 0, locked: false };
  if (row.locked_until && row.locked_until > now) return { failures: row.failures, locked: true };
  if (row.locked_until) {
    await db.updateTable('signin_attempts').set({ failures: 0, locked_until: null, updated_at: now }).where('email_digest', '=', digestOf(email)).execute();
    return { failures: 0, locked: false };
  }
  return { failures: row.failures, locked: false };
}

/** One more failure; answers the count. Old rows are forgotten on the way (a sprayer's e-mails do not pile up). */
export async function countFailure(db: Kysely<Database>, email: string, now: Date): Promise<number> {
  await db.deleteFrom('signin_attempts').where('updated_at', '<', new Date(now.getTime() - FORGET_AFTER_MS)).execute();
  const row = await db.insertInto('signin_attempts').values({ email_digest: digestOf(email), failures: 1, locked_until: null, updated_at: now })
    .onConflict((oc) => oc.column('email_digest').doUpdateSet((eb) => ({ failures: eb('signin_attempts.failures', '+', 1), updated_at: now })))
    .returning('failures').executeTakeFirstOrThrow();
  return row.failures;
}

export async function lockAttempts(db: Kysely<Database>, email: string, until: Date): Promise<void> {
  await db.updateTable('signin_attempts').set({ locked_until: until }).where('email_digest', '=', digestOf(email)).execute();
}
