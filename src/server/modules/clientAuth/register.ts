// POST /v1/clientAuth/register: a new company (state validation, plan pilot) and its first user
// (state pending, role superadmin). The body schema already enforced the corporate e-mail
// (99947), the password policy (99938), acceptTerms (99934) and the phone format; here come the
// human-verification check (99998), the phone's uniqueness (99988) and, with sendEmail, the
// validation code by e-mail. An e-mail that already has an account is answered as a new one
// and its owner told (register-existing.ts): the answer never says who has an account.
import { normalizeColombianPhone } from '../../../core/phone.ts';
import { normalizeEmail } from '../../../core/email.ts';
import { ApiError, fail } from '../../errors/api-error.ts';
import type { Handler } from '../../http/handler.ts';
import type { UserRow } from '../../../engine/database.ts';
import { issueOtp } from './otp-service.ts';
import { decoyUserId, noticeExistingOwner } from './register-existing.ts';
import { findUserByEmail } from './users.ts';
import { isUniqueViolation } from '../../db/unique.ts';
import { hashPassword } from '../../security/passwords.ts';

export const register: Handler<'clientAuth.register'> = async ({ body, deps, request }) => {
  const { db } = deps;
  if (!(await deps.captcha.verify(body.captchaToken, request.ip))) throw fail('99998');
  const email = normalizeEmail(body.email);
  const phone = normalizeColombianPhone(body.phone);
  if (!phone) throw fail('99931'); // the schema's phone-co format makes this unreachable
  if (await db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst()) throw fail('99988');

  // Hashed either way: an existing e-mail takes the same time as a new one.
  const hash = await hashPassword(body.password);
  const now = deps.now();
  const asIfNew = async (owner: UserRow | undefined) => {
    if (owner && body.sendEmail) await noticeExistingOwner(deps, owner);
    return { idUser: await decoyUserId(db), state: 'pending' as const, email };
  };
  const existing = await findUserByEmail(db, email);
  if (existing) return asIfNew(existing);
  let user;
  try {
    user = await db.transaction().execute(async (trx) => {
      const company = await trx
        .insertInto('companies')
        .values({ name: body.companyName.trim(), nit: body.nit, state: 'validation', plan_type: 'pilot', picture_file: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      const role = await trx.selectFrom('roles').select('id').where('company_id', 'is', null).where('name', '=', 'superadmin').executeTakeFirstOrThrow();
      const created = await trx
        .insertInto('users')
        .values({
          company_id: company.id,
          parent_id: null,
          full_name: body.fullName.trim(),
          email,
          phone,
          document_type: null,
          document_id: null,
          address: null,
          state: 'pending',
          otp_method: 'email',
          password_hash: hash,
          password_changed_at: now,
          locked_until: null,
          profile_pic_file: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx.insertInto('user_roles').values({ user_id: created.id, role_id: role.id }).execute();
      await trx.insertInto('password_history').values({ user_id: created.id, password_hash: hash, created_at: now }).execute();
      return created;
    });
  } catch (error) {
    // Two registrations racing for one e-mail: the unique index decides, and the loser is answered as the first.
    if (isUniqueViolation(error)) return asIfNew(await findUserByEmail(db, email));
    if (error instanceof ApiError) throw error;
    request.log.error({ err: error }, 'registration failed');
    throw fail('99995');
  }
  if (body.sendEmail) await issueOtp(deps, user, 'validation', 'email');
  return { idUser: user.id, state: 'pending', email: user.email };
};
