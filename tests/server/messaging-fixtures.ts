// Fixtures shared by the channels, credentials, block-list and platform SMS tests: a user of the
// demo company holding a company role with exactly the given grants (permission-denied cases
// where no system role is refused), and a second company with its own channel types.
import type { Grant } from '../../src/core/permissions.ts';
import { DEMO_COMPANY } from '../../src/server/db/demo-seed.ts';
import { hashPassword } from '../../src/server/security/passwords.ts';
import { TEST_PASSWORD, type Harness } from './harness.ts';

export async function demoCompanyId(h: Harness): Promise<number> {
  const row = await h.db.selectFrom('companies').select('id').where('name', '=', DEMO_COMPANY.name).executeTakeFirstOrThrow();
  return row.id;
}

let roleSeq = 0;
/** Signs in a new active user of the demo company whose only role grants exactly `grants`. */
export async function userWithGrants(h: Harness, grants: Grant[]): Promise<string> {
  const companyId = await demoCompanyId(h);
  const n = ++roleSeq;
  const email = `limitado${n}@demo.colibri.co`;
  const role = await h.db
    .insertInto('roles')
    .values({ company_id: companyId, name: `Limitado ${n}`, read_only: false, permissions: JSON.stringify(grants) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const user = await h.db
    .insertInto('users')
    .values({
      company_id: companyId, parent_id: null, full_name: `Limitado ${n}`, email, phone: null, document_type: null, document_id: null, address: null,
      state: 'active', otp_method: 'email', password_hash: await hashPassword(TEST_PASSWORD), password_changed_at: h.clock.now, locked_until: null, profile_pic_file: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await h.db.insertInto('user_roles').values({ user_id: user.id, role_id: role.id }).execute();
  return (await h.signin(email)).token;
}

let companySeq = 0;
/** Another company with a manager (all of settings) and the given channel types. */
export async function otherCompany(h: Harness, platforms: string[] = [], roles: string[] = ['superadmin']): Promise<{ companyId: number; token: string }> {
  const n = ++companySeq;
  const email = `jefe${n}@otra${n}.co`;
  const { companyId } = await h.addCompany(`Otra ${n} S.A.S.`, [{ email, roles }]);
  if (platforms.length) await h.db.insertInto('company_channel_types').values(platforms.map((platform) => ({ company_id: companyId, platform }))).execute();
  return { companyId, token: (await h.signin(email)).token };
}

/** Row counts of the given tables, to prove a refused request changed nothing. */
export async function counts(h: Harness, tables: Parameters<Harness['count']>[0][]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) out[t] = await h.count(t);
  return out;
}

/** An API key of the company `token` manages, usable from the tests' address (127.0.0.1, then the only one allowed). */
export async function apiKeyOf(h: Harness, token: string, name: string): Promise<string> {
  await h.op('credentials.updateSettings', { token, body: { allowedIps: ['127.0.0.1'], notificationEmail: null, ftp: { host: null, port: null, user: null, directory: null, password: null } } });
  return (await h.op('credentials.create', { token, body: { name } })).json().apiKey;
}
