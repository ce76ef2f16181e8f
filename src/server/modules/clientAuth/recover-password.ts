// POST /v1/clientAuth/recoverPassword, two steps on one path (the wire contract):
//   { email }                  -> a 6-digit code goes to the user's e-mail
//   { email, code, password }  -> the code is checked and the password set (policy 99938 by the
//                                 schema, reuse 99939); every sign-in lock on the account is
//                                 cleared, a user told to renew their password becomes active,
//                                 and every session ends.
// Neither step tells whether the e-mail has an account: the first answers { sent: true } and
// sends nothing to an unknown e-mail (nor more than otpMaxAttempts codes to a known one: its
// newest code stays good); the second answers an unknown e-mail as a wrong code (99941). The code
// is checked before the password's reuse, so 99939 only ever answers someone who holds the code:
// it is not an oracle for an account's recent passwords.
import { revokeUserTokens } from '../../auth/session-store.ts';
import { ApiError, fail, messageFor } from '../../errors/api-error.ts';
import { contractMessages } from '../../errors/messages.ts';
import type { Handler } from '../../http/handler.ts';
import { checkOtp, issueOtp, spendOtp } from './otp-service.ts';
import { assertNotRecent, setNewPassword } from './password-change.ts';
import { clearAccount } from './signin-locks.ts';
import { findUserByEmail } from './users.ts';

export const recoverPassword: Handler<'clientAuth.recoverPassword'> = async ({ body, deps }) => {
  const { db } = deps;
  const hasCode = body.code !== undefined;
  const hasPassword = body.password !== undefined;
  if (hasCode !== hasPassword) {
    const missing = hasCode ? 'password' : 'code';
    throw fail('99999', undefined, [{ field: missing, code: '99999', message: messageFor('99999') }]);
  }
  const user = await findUserByEmail(db, body.email);
  if (!hasCode) {
    if (user) {
      try {
        await issueOtp(deps, user, 'recovery', 'email');
      } catch (error) {
        if (!(error instanceof ApiError && error.code === '99933')) throw error;
      }
    }
    return { sent: true, changed: false };
  }
  if (!user) throw fail('99941', contractMessages.invalidOtp);
  const now = deps.now();
  // The code is checked, then the reuse, then the code is spent: a refused password does not burn it.
  const otpId = await checkOtp(db, user, 'recovery', body.code!, now);
  await assertNotRecent(db, user.id, body.password!);
  await spendOtp(db, otpId, now);
  await setNewPassword(db, user.id, body.password!, now, { reuseChecked: true });
  await clearAccount(db, user.email);
  await revokeUserTokens(db, user.id, now);
  return { sent: false, changed: true };
};
