// Sign-in failures of an e-mail that has no account. A real account counts its
// failures on its row (users.failed_logins); an unknown e-mail counts them here, so signin.ts runs
// the same steps for both and a guesser cannot tell them apart by the answers (99996, then the
// captcha 99998, then this address's lock 99948, signin-locks.ts). The count only ever asks for
// the captcha: it is account-wide, and a lock on it would let anyone lock the owner out. Rows are
// keyed by a digest of the normalised e-mail and forgotten a day after their last failure.
import type { Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { emailDigest } from './email-digest.ts';

const FORGET_AFTER_MS = 86_400_000;

/** The e-mail's failures from every address. */
export async function failuresOf(db: Kysely<Database>, email: string): Promise<number> {
  const row = await db.selectFrom('signin_attempts').select('failures').where('email_digest', '=', emailDigest(email)).executeTakeFirst();
  return row?.failures ?? 0;
}

/** One more failure. Old rows are forgotten on the way (a sprayer's e-mails do not pile up). */
export async function countFailure(db: Kysely<Database>, email: string, now: Date): Promise<void> {
  await db.deleteFrom('signin_attempts').where('updated_at', '<', new Date(now.getTime() - FORGET_AFTER_MS)).execute();
  await db.insertInto('signin_attempts').values({ email_digest: emailDigest(email), failures: 1, updated_at: now })
    .onConflict((oc) => oc.column('email_digest').doUpdateSet((eb) => ({ failures: eb('signin_attempts.failures', '+', 1), updated_at: now })))
    .execute();
}
