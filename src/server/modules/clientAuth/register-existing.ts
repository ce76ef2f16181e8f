// Registering with an e-mail that already has an account answers exactly as a new registration
// does (register.ts), so the form does not tell who has an account: the same answer, with an
// idUser taken from the users' own sequence (the next real registration's id skips it, as it
// would skip a real one), and, where a new registrant gets the validation code, the owner gets a
// notice instead: someone used their address, and how to sign in or recover the password.
import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../../engine/database.ts';
import type { ServerDeps } from '../../context.ts';

const NOTICE = {
  subject: 'Colibri: ya tienes una cuenta / you already have an account',
  body: 'Alguien intentó registrar una empresa en Colibri con este correo, que ya tiene una cuenta. Si fuiste tú, inicia sesión o usa "¿Olvidaste tu contraseña?"; si no, puedes ignorar este mensaje. / Someone tried to register a company on Colibri with this e-mail, which already has an account. If it was you, sign in or use "Forgot your password?"; if not, you can ignore this message.',
};

/** An id as a new user's would be: consumed from the users' identity sequence, never given to anyone. */
export async function decoyUserId(db: Kysely<Database>): Promise<number> {
  const { rows: [row] } = await sql<{ id: string }>`select nextval(pg_get_serial_sequence('users', 'id')) as id`.execute(db);
  return Number(row.id);
}

export async function noticeExistingOwner(deps: ServerDeps, owner: UserRow): Promise<void> {
  await deps.messages.send({ channel: 'email', to: owner.email, companyId: owner.company_id, ...NOTICE });
}
