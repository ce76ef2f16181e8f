// saveOtp / validateOtp: the user-validation code (sandbox outbox in demo mode). A pending user
// whose code checks out becomes active.
import { fail } from '../../errors/api-error.ts';
import type { Handler } from '../../http/handler.ts';
import { consumeOtp, issueOtp } from './otp-service.ts';
import { findUserByEmail } from './users.ts';

export const saveOtp: Handler<'clientAuth.saveOtp'> = async ({ body, deps }) => {
  const user = await findUserByEmail(deps.db, body.email);
  if (!user) throw fail('99997');
  const issued = await issueOtp(deps, user, 'validation', body.method);
  return { sent: true, method: issued.channel, to: issued.to, expiresAt: issued.expiresAt.toISOString() };
};

export const validateOtp: Handler<'clientAuth.validateOtp'> = async ({ body, deps }) => {
  const { db } = deps;
  const user = await findUserByEmail(db, body.email);
  if (!user) throw fail('99997');
  await consumeOtp(db, user, 'validation', body.code, deps.now());
  let state = user.state;
  if (state === 'pending') {
    const row = await db.updateTable('users').set({ state: 'active' }).where('id', '=', user.id).where('state', '=', 'pending').returning('state').executeTakeFirst();
    state = row?.state ?? state;
  }
  return { valid: true, state: state as 'active' };
};
