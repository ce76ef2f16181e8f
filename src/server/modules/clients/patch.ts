// PATCH /v1/clients/{id}: profile fields, and with currentPassword + password a password change
// (own record only; wrong current 99935, reuse 99939). Every check runs before any write, so a
// refused request changes nothing.
import { normalizeColombianPhone } from '../../../core/phone.ts';
import { revokeUserTokens } from '../../auth/session-store.ts';
import type { Updateable } from 'kysely';
import type { UsersTable } from '../../../engine/database.ts';
import { fail, messageFor } from '../../errors/api-error.ts';
import { caller, type Handler } from '../../http/handler.ts';
import { assertNotRecent, setNewPassword } from '../clientAuth/password-change.ts';
import { findCompanyUser, findScopedUser, roleNamesByUser, toUser } from '../clientAuth/users.ts';
import { verifyPassword } from '../../security/passwords.ts';

export const patchClient: Handler<'clients.patch'> = async (ctx) => {
  const { db } = ctx.deps;
  const me = caller(ctx);
  const target = await findScopedUser(db, me, ctx.params.id);
  if (!target) throw fail('99959');
  const { currentPassword, password, ...fields } = ctx.body;

  const changesPassword = currentPassword !== undefined || password !== undefined;
  if (changesPassword) {
    if (target.id !== me.userId) throw fail('99982');
    if (currentPassword === undefined || password === undefined) {
      const field = currentPassword === undefined ? 'currentPassword' : 'password';
      throw fail('99999', undefined, [{ field, code: '99999', message: messageFor('99999') }]);
    }
    if (!(await verifyPassword(target.password_hash, currentPassword))) throw fail('99935');
    await assertNotRecent(db, target.id, password);
  }

  const update: Updateable<UsersTable> = {};
  if (fields.fullName !== undefined) update.full_name = fields.fullName.trim();
  if (fields.phone !== undefined) update.phone = normalizeColombianPhone(fields.phone);
  if (fields.documentType !== undefined) update.document_type = fields.documentType;
  if (fields.documentId !== undefined) update.document_id = fields.documentId;
  if (fields.address !== undefined) update.address = fields.address;
  if (fields.otpMethod !== undefined) update.otp_method = fields.otpMethod;
  if (Object.keys(update).length > 0) {
    await db.updateTable('users').set(update).where('id', '=', target.id).where('company_id', '=', me.companyId).execute();
  }
  if (changesPassword) {
    const now = ctx.deps.now();
    await setNewPassword(db, target.id, password!, now, { reuseChecked: true });
    // The caller keeps this session; any other session of theirs ends.
    await revokeUserTokens(db, target.id, now, me.tokenId);
  }
  const updated = (await findCompanyUser(db, me.companyId, target.id))!;
  const roles = await roleNamesByUser(db, [updated.id]);
  return toUser(updated, roles.get(updated.id) ?? []);
};
