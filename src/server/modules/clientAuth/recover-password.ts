// POST /v1/clientAuth/recoverPassword, two steps on one path (the wire contract):
//   { email }                  -> a 6-digit code goes to the user's e-mail
//   { email, code, password }  -> the code is checked and the password set (policy 99938 by the
//                                 schema, reuse 99939); every sign-in lock on the account is cleared, a user told to renew
//                                 their password becomes active, and every session ends.
import { revokeUserTokens } from '../../auth/session-store.ts';
import { fail, messageFor } from '../../errors/api-error.ts';
import type { Handler } from '../../http/handler.ts';
import { consumeOtp, issueOtp } from './otp-service.ts';
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
  if (!user) throw fail('99997');
  if (!hasCode) {
    await issueOtp(deps, user, 'recovery', 'email');
    return { sent: true, changed: false };
  }
  const now = deps.now();
  // Reuse is checked before the code is spent, so a refused password does not burn the code.
  await assertNotRecent(db, user.id, body.password!);
  await consumeOtp(db, user, 'recovery', body.code!, now);
  await setNewPassword(db, user.id, body.password!, now, { reuseChecked: true });
  await clearAccount(db, user.email);
  await revokeUserTokens(db, user.id, now);
  return { sent: false, changed: true };
};
