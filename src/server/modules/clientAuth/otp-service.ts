// Issuing and checking one-time codes (user validation and password recovery).
//  - a new code replaces the user's previous unused code for the same purpose;
//  - at most otpMaxAttempts codes per user and purpose within otpTtlSeconds (99933), so the
//    endpoint cannot be used to flood someone's phone or mailbox;
//  - a code expires (99940), allows otpMaxAttempts wrong tries, then is burned: every further
//    try answers 99941 even with the right digits, and a new code must be requested.
import type { Kysely } from 'kysely';
import { maskDestination } from '../../../core/phone.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { MessageChannel } from '../../../core/ports/message.ts';
import type { ServerDeps } from '../../context.ts';
import type { Database, UserRow } from '../../../engine/database.ts';
import { fail } from '../../errors/api-error.ts';
import { contractMessages } from '../../errors/messages.ts';
import { hashOtp, newOtpCode, otpMatches, type OtpPurpose } from '../../security/otp.ts';

const { otpTtlSeconds, otpMaxAttempts, recoveryTtlSeconds } = constants.security;
const ttlFor = (purpose: OtpPurpose) => (purpose === 'recovery' ? recoveryTtlSeconds : otpTtlSeconds);

type Template = { subject: string; body: (code: string, minutes: number) => string };

const TEXT: Record<OtpPurpose, Template> = {
  validation: {
    subject: 'Colibri: código de verificación / verification code',
    body: (code, minutes) => `Tu código de verificación de Colibri es ${code}. Vence en ${minutes} minutos. / Your Colibri verification code is ${code}. It expires in ${minutes} minutes.`,
  },
  recovery: {
    subject: 'Colibri: recuperar contraseña / password recovery',
    body: (code, minutes) => `Tu código para cambiar la contraseña de Colibri es ${code}. Vence en ${minutes} minutos. / Your Colibri password recovery code is ${code}. It expires in ${minutes} minutes.`,
  },
};

// A team member added by an admin gets a recovery-purpose code with a welcome text: they set their
// own password with recoverPassword { email, code, password } (or ask for a new code there).
const INVITATION: Template = {
  subject: 'Colibri: crea tu contraseña / set your password',
  body: (code, minutes) =>
    `Te agregaron a un equipo en Colibri. Para crear tu contraseña usa el código ${code} en "¿Olvidaste tu contraseña?"; vence en ${minutes} minutos (puedes pedir otro allí). / You were added to a team on Colibri. To set your password, use the code ${code} in "Forgot your password?"; it expires in ${minutes} minutes (you can ask for a new one there).`,
};

export interface IssuedOtp { channel: MessageChannel; to: string; expiresAt: Date }

export async function issueOtp(deps: ServerDeps, user: UserRow, purpose: OtpPurpose, wanted?: MessageChannel, template?: 'invitation'): Promise<IssuedOtp> {
  const { db } = deps;
  const now = deps.now();
  const windowStart = new Date(now.getTime() - otpTtlSeconds * 1000);
  const recent = await db
    .selectFrom('otps')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', user.id)
    .where('purpose', '=', purpose)
    .where('created_at', '>', windowStart)
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= otpMaxAttempts) throw fail('99933');

  // SMS needs a phone; a user without one gets the code by e-mail (the answer says which).
  const preferred = wanted ?? (user.otp_method as MessageChannel);
  const channel: MessageChannel = preferred === 'sms' && user.phone ? 'sms' : 'email';
  const to = channel === 'sms' ? user.phone! : user.email;
  const code = newOtpCode();
  const expiresAt = new Date(now.getTime() + ttlFor(purpose) * 1000);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('otps').set({ consumed_at: now }).where('user_id', '=', user.id).where('purpose', '=', purpose).where('consumed_at', 'is', null).execute();
    await trx.insertInto('otps').values({ user_id: user.id, purpose, channel, code_hash: hashOtp(user.id, purpose, code), expires_at: expiresAt, created_at: now }).execute();
  });
  const text = template === 'invitation' ? INVITATION : TEXT[purpose];
  await deps.messages.send({ channel, to, companyId: user.company_id, subject: text.subject, body: text.body(code, Math.round(ttlFor(purpose) / 60)) });
  return { channel, to: maskDestination(to), expiresAt };
}

/**
 * Checks a code without spending it; throws 99941 / 99940 otherwise, and answers the code's id for
 * spendOtp. A late code is called expired (99940) only when its digits are right: to anyone who
 * does not hold the code every miss is 99941, whether or not a code was ever sent.
 */
export async function checkOtp(db: Kysely<Database>, user: UserRow, purpose: OtpPurpose, code: string, now: Date): Promise<number> {
  const otp = await db
    .selectFrom('otps')
    .selectAll()
    .where('user_id', '=', user.id)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!otp) throw fail('99941', contractMessages.invalidOtp);
  if (otp.expires_at <= now) {
    if (otpMatches(otp.code_hash, user.id, purpose, code)) throw fail('99940');
    throw fail('99941', contractMessages.invalidOtp);
  }
  // Count the try before comparing, atomically, so concurrent guesses cannot exceed the limit.
  const counted = await db
    .updateTable('otps')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', otp.id)
    .where('attempts', '<', otpMaxAttempts)
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1 || !otpMatches(otp.code_hash, user.id, purpose, code)) {
    throw fail('99941', contractMessages.invalidOtp);
  }
  return otp.id;
}

/** Spends a checked code, atomically: of two concurrent correct tries, only one wins. */
export async function spendOtp(db: Kysely<Database>, otpId: number, now: Date): Promise<void> {
  const done = await db.updateTable('otps').set({ consumed_at: now }).where('id', '=', otpId).where('consumed_at', 'is', null).executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw fail('99941', contractMessages.invalidOtp);
}

/** Checks a code and consumes it on success; throws 99941 / 99940 otherwise. */
export async function consumeOtp(db: Kysely<Database>, user: UserRow, purpose: OtpPurpose, code: string, now: Date): Promise<void> {
  await spendOtp(db, await checkOtp(db, user, purpose, code, now), now);
}
