// Sign-in locks per (account, client address). maxFailedLogins wrong passwords at one account from
// one address lock that address out of that account for lockMinutes (99948); every other address,
// the owner's among them, still signs in (after the captcha the account-wide count asks for).
// Known and unknown e-mails are kept alike, under the e-mail's digest, so the lock does not tell
// them apart. A success from the address, or a password recovery, clears it; rows are forgotten a
// day after their last failure.
import type { Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { emailDigest } from './email-digest.ts';

const FORGET_AFTER_MS = 86_400_000;

/**
 * This address's standing at this account now: locked out, counting failures (a success clears
 * them), or clear (nothing recorded). An expired lock starts afresh.
 */
export async function lockOf(db: Kysely<Database>, email: string, address: string, now: Date): Promise<'locked' | 'counting' | 'clear'> {
  const key = { digest: emailDigest(email), address };
  const row = await db.selectFrom('signin_locks').select('locked_until')
    .where('email_digest', '=', key.digest).where('address', '=', key.address).executeTakeFirst();
  if (!row) return 'clear';
  if (!row.locked_until) return 'counting';
  if (row.locked_until > now) return 'locked';
  await db.deleteFrom('signin_locks').where('email_digest', '=', key.digest).where('address', '=', key.address).execute();
  return 'clear';
}

/** One more failure from this address; at maxFailures the pair is locked until `until`. Answers whether it now is. */
export async function countAddressFailure(db: Kysely<Database>, email: string, address: string, now: Date, maxFailures: number, until: Date): Promise<boolean> {
  await db.deleteFrom('signin_locks').where('updated_at', '<', new Date(now.getTime() - FORGET_AFTER_MS)).execute();
  const row = await db.insertInto('signin_locks').values({ email_digest: emailDigest(email), address, failures: 1, locked_until: null, updated_at: now })
    .onConflict((oc) => oc.columns(['email_digest', 'address']).doUpdateSet((eb) => ({ failures: eb('signin_locks.failures', '+', 1), updated_at: now })))
    .returning('failures').executeTakeFirstOrThrow();
  if (row.failures < maxFailures) return false;
  await db.updateTable('signin_locks').set({ locked_until: until })
    .where('email_digest', '=', emailDigest(email)).where('address', '=', address).execute();
  return true;
}

/** A success from this address: its count starts again. */
export async function clearAddress(db: Kysely<Database>, email: string, address: string): Promise<void> {
  await db.deleteFrom('signin_locks').where('email_digest', '=', emailDigest(email)).where('address', '=', address).execute();
}

/** A password recovery: every address's lock on the account ends. */
export async function clearAccount(db: Kysely<Database>, email: string): Promise<void> {
  await db.deleteFrom('signin_locks').where('email_digest', '=', emailDigest(email)).execute();
}
