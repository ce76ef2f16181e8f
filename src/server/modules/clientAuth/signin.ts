// POST /v1/clientAuth/signin (spec 7). Order of checks:
//  1. unknown e-mail -> the same steps 2–4 as an account, on a counter kept for that e-mail
//     (signin-attempts.ts), with a dummy hash (the same work as a real try): the answers (99996,
//     then 99998, then 99948) never tell an unknown e-mail from an account (issue 13)
//  2. locked (too many failures, lockMinutes) -> 99948 'Account blocked. Too many login attempts'
//  3. after captchaAfterFailures failures the human-verification token is required -> 99998
//  4. wrong password -> count the failure; reaching maxFailedLogins locks the account (99948),
//     otherwise 99996
//  5. success -> failures reset; an active user whose password is older than
//     passwordMaxAgeDays becomes ExpiredPassword; a token is issued. Users in any state sign in
//     and get their state back, so the console can send them to the right screen.
import { encodeSession } from '../../../core/session-codec.ts';
import { constants } from '../../../generated/constants.gen.ts';
import { issueToken } from '../../auth/session-store.ts';
import { fail } from '../../errors/api-error.ts';
import { contractMessages } from '../../errors/messages.ts';
import type { Handler } from '../../http/handler.ts';
import { buildSessionUser } from './session-user.ts';
import { attemptOf, countFailure, lockAttempts } from './signin-attempts.ts';
import { findUserByEmail } from './users.ts';
import { dummyHash, verifyPassword } from '../../security/passwords.ts';

const { captchaAfterFailures, maxFailedLogins, lockMinutes, passwordMaxAgeDays } = constants.security;

export const signin: Handler<'clientAuth.signin'> = async ({ body, deps, request }) => {
  const { db } = deps;
  const now = deps.now();
  let user = await findUserByEmail(db, body.email);
  if (!user) {
    const attempt = await attemptOf(db, body.email, now);
    if (attempt.locked) throw fail('99948', contractMessages.accountBlocked);
    if (attempt.failures >= captchaAfterFailures && !(await deps.captcha.verify(body.captchaToken, request.ip))) throw fail('99998');
    await verifyPassword(await dummyHash(), body.password);
    if (await countFailure(db, body.email, now) >= maxFailedLogins) {
      await lockAttempts(db, body.email, new Date(now.getTime() + lockMinutes * 60_000));
      throw fail('99948', contractMessages.accountBlocked);
    }
    throw fail('99996');
  }
  if (user.locked_until && user.locked_until > now) throw fail('99948', contractMessages.accountBlocked);
  let failures = user.failed_logins;
  if (user.locked_until) {
    // The lock has run out: the user starts afresh.
    await db.updateTable('users').set({ failed_logins: 0, locked_until: null }).where('id', '=', user.id).execute();
    failures = 0;
  }
  if (failures >= captchaAfterFailures && !(await deps.captcha.verify(body.captchaToken, request.ip))) throw fail('99998');

  if (!(await verifyPassword(user.password_hash, body.password))) {
    const counted = await db
      .updateTable('users')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
      .where('id', '=', user.id)
      .returning('failed_logins')
      .executeTakeFirstOrThrow();
    if (counted.failed_logins >= maxFailedLogins) {
      await db.updateTable('users').set({ locked_until: new Date(now.getTime() + lockMinutes * 60_000) }).where('id', '=', user.id).execute();
      throw fail('99948', contractMessages.accountBlocked);
    }
    throw fail('99996');
  }

  const expired = user.state === 'active' && now.getTime() - new Date(user.password_changed_at).getTime() > passwordMaxAgeDays * 86_400_000;
  if (expired || user.failed_logins !== 0) {
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

