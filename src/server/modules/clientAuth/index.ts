// Identity operations (schemas/api/client-auth.yaml).
import { constants } from '../../../generated/constants.gen.ts';
import { revokeToken } from '../../auth/session-store.ts';
import { fail } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { captchaDemanded } from '../../security/throttle.ts';
import { findUserByEmail } from './users.ts';
import { saveOtp, validateOtp } from './otp.ts';
import { recoverPassword } from './recover-password.ts';
import { register } from './register.ts';
import { signin } from './signin.ts';

export const clientAuthHandlers: DomainHandlers<'clientAuth'> = {
  'clientAuth.validate': async ({ body, deps, request }) => {
    const user = await findUserByEmail(deps.db, body.email);
    if (!user) throw fail('99997');
    // The same two reasons sign-in asks for it (signin.ts): the account's failures, or its tries from many addresses.
    return {
      exists: true,
      state: user.state as 'active',
      captchaRequired: user.failed_logins >= constants.security.captchaAfterFailures || captchaDemanded(request),
    };
  },
  'clientAuth.signin': signin,
  'clientAuth.register': register,
  'clientAuth.signout': async (ctx) => {
    await revokeToken(ctx.deps.db, caller(ctx).tokenId, ctx.deps.now());
    return { ok: true };
  },
  'clientAuth.recoverPassword': recoverPassword,
  'clientAuth.saveOtp': saveOtp,
  'clientAuth.validateOtp': validateOtp,
};
