// POST /v1/clientAuth/signin (spec 7). Order of checks:
//  1. this address locked out of this account (maxFailedLogins failures from it, lockMinutes)
//     -> 99948 'Account blocked. Too many login attempts'; other addresses are not (signin-locks.ts)
//  2. after captchaAfterFailures failures of the account from any address, or when the account is
//     tried past its limit from many addresses (security/throttle.ts), the human-verification
//     token is required -> 99998. The account-wide count never locks: anyone could lock the
//     owner out with it; it makes every guess cost a captcha instead.
//  3. wrong password -> count the failure for the account and for this address; reaching
//     maxFailedLogins from this address locks it out (99948), otherwise 99996
//  4. success -> this address's and the account's counts reset; an active user whose password is
//     older than passwordMaxAgeDays becomes ExpiredPassword; a token is issued. Users in any
//     state sign in and get their state back, so the console can send them to the right screen.
// An unknown e-mail runs the same steps on counters kept for that e-mail (signin-attempts.ts),
// with a dummy hash (the same work as a real try): the answers (99996, then 99998, then 99948)
// never tell an unknown e-mail from an account.
import { encodeSession } from '../../../core/session-codec.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { issueToken } from '../../auth/session-store.ts';
import { fail } from '../../errors/api-error.ts';
import { contractMessages } from '../../errors/messages.ts';
import type { Handler } from '../../http/handler.ts';
import { captchaDemanded, clientAddress } from '../../security/throttle.ts';
import { buildSessionUser } from './session-user.ts';
import { countFailure, failuresOf } from './signin-attempts.ts';
import { clearAddress, countAddressFailure, lockOf } from './signin-locks.ts';
import { noteSigninAccount } from '../../request-actor.ts';
import { findUserByEmail } from './users.ts';
import { dummyHash, verifyPassword } from '../../security/passwords.ts';

const { captchaAfterFailures, maxFailedLogins, lockMinutes, passwordMaxAgeDays } = constants.security;

export const signin: Handler<'clientAuth.signin'> = async ({ body, deps, request }) => {
  const { db } = deps;
  const now = deps.now();
  const address = clientAddress(request);
  let user = await findUserByEmail(db, body.email);
  if (user) noteSigninAccount(request, user);
  const lock = await lockOf(db, body.email, address, now);
  if (lock === 'locked') throw fail('99948', contractMessages.accountBlocked);

  const failures = user ? user.failed_logins : await failuresOf(db, body.email);
  if ((failures >= captchaAfterFailures || captchaDemanded(request)) && !(await deps.captcha.verify(body.captchaToken, request.ip))) throw fail('99998');

  const right = await verifyPassword(user?.password_hash ?? (await dummyHash()), body.password);
  if (!user || !right) {
    if (user) await db.updateTable('users').set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) })).where('id', '=', user.id).execute();
    else await countFailure(db, body.email, now);
    if (await countAddressFailure(db, body.email, address, now, maxFailedLogins, new Date(now.getTime() + lockMinutes * 60_000))) {
      throw fail('99948', contractMessages.accountBlocked);
    }
    throw fail('99996');
  }

  // A success from this address starts its count again (nothing to clear when it had none).
  if (lock === 'counting') await clearAddress(db, body.email, address);
  const expired = user.state === 'active' && now.getTime() - new Date(user.password_changed_at).getTime() > passwordMaxAgeDays * 86_400_000;
  if (expired || user.failed_logins !== 0 || user.locked_until) {
    user = await db
      .updateTable('users')
      .set({ failed_logins: 0, locked_until: null, ...(expired ? { state: 'ExpiredPassword' } : {}) })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  const { token, expiresAt } = await issueToken(db, user.id, now);
  return { clientToken: encodeSession(await buildSessionUser(db, user, token, expiresAt)) };
};
