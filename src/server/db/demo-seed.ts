// The demo company (embedded mode, or --demo): "Demo S.A.S." (active, pilot), one active user
// per role <role>@demo.colibri.co and one user per non-active state <state>@demo.colibri.co.
// Runs once: app_meta.demo_seeded marks it done, so later starts change nothing.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isValidPassword } from '../../core/password-policy.ts';
import { constants } from '../../generated/constants.gen.ts';
import { hashPassword } from '../security/passwords.ts';
import type { Database } from './schema.ts';
import { productKey } from './system-roles.ts';

export const DEMO_DOMAIN = 'demo.colibri.co';
export const DEMO_COMPANY = { name: 'Demo S.A.S.', nit: '900123456-7' } as const;
export const demoRoleUsers = ['superadmin', 'admin', 'analista', 'manager', 'ops', 'develop', 'platform'] as const;
export const demoStateUsers = ['pending', 'validation', 'needsNewPassword', 'ExpiredPassword', 'disabled'] as const;
export const demoEmail = (name: string) => `${name}@${DEMO_DOMAIN}`;

// Staff roles also hold the "{product}Sms" flag role so the SMS platform menus show for them.
const extraRoles: Record<string, string[]> = { develop: [`${productKey}Sms`], platform: [`${productKey}Sms`] };

/** A random password that satisfies the policy; never a fixed one in the code. */
export function generateDemoPassword(): string {
  for (;;) {
    const candidate = `Co-${randomBytes(12).toString('base64url')}-9x`;
    if (isValidPassword(candidate)) return candidate;
  }
}

export async function isDemoSeeded(db: Kysely<Database>): Promise<boolean> {
  return !!(await db.selectFrom('app_meta').select('value').where('key', '=', 'demo_seeded').executeTakeFirst());
}

export async function seedDemo(db: Kysely<Database>, password: string, now: Date = new Date()): Promise<{ created: boolean }> {
  if (await isDemoSeeded(db)) return { created: false };
  const hash = await hashPassword(password); // one hash: every demo user shares the printed password
  const expiredAt = new Date(now.getTime() - (constants.security.passwordMaxAgeDays + 1) * 86_400_000);
  await db.transaction().execute(async (trx) => {
    const company = await trx
      .insertInto('companies')
      .values({ name: DEMO_COMPANY.name, nit: DEMO_COMPANY.nit, state: 'active', plan_type: 'pilot', picture_file: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const roleRows = await trx.selectFrom('roles').select(['id', 'name']).where('company_id', 'is', null).execute();
    const roleId = new Map(roleRows.map((r) => [r.name, r.id]));

    let phone = 3000000001;
    let superadminId: number | null = null;
    const addUser = async (name: string, state: string, roles: string[], changedAt: Date) => {
      const user = await trx
        .insertInto('users')
        .values({
          company_id: company.id,
          parent_id: superadminId,
          full_name: `Demo ${name}`,
          email: demoEmail(name),
          phone: `+57${phone++}`,
          document_type: 'CC',
          document_id: String(10000000 + phone % 1000),
          address: 'Calle 100 # 10-20, Bogotá',
          state,
          otp_method: 'email',
          password_hash: hash,
          password_changed_at: changedAt,
          locked_until: null,
          profile_pic_file: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('user_roles').values(roles.map((r) => ({ user_id: user.id, role_id: roleId.get(r)! }))).execute();
      await trx.insertInto('password_history').values({ user_id: user.id, password_hash: hash, created_at: changedAt }).execute();
      return user.id;
    };

    const userIds: number[] = [];
    for (const role of demoRoleUsers) {
      const id = await addUser(role, 'active', [role, ...(extraRoles[role] ?? [])], now);
      if (role === 'superadmin') superadminId = id;
      userIds.push(id);
    }
    for (const state of demoStateUsers) {
      await addUser(state, state, ['superadmin'], state === 'ExpiredPassword' ? expiredAt : now);
    }

    await trx.insertInto('areas').values([
      { company_id: company.id, name: 'Sede principal Bogotá', picture_file: null },
      { company_id: company.id, name: 'Sucursal Medellín', picture_file: null },
    ]).execute();
    await trx.insertInto('notifications').values(userIds.flatMap((user_id) => [
      { company_id: company.id, user_id, title: 'Bienvenido a Colibri', message: 'Tu cuenta de demostración está lista.', visible: true, created_at: now },
      { company_id: company.id, user_id, title: 'Créditos de prueba', message: 'La empresa Demo S.A.S. está en plan piloto.', visible: true, created_at: now },
    ])).execute();
    await trx.insertInto('app_meta').values({ key: 'demo_seeded', value: now.toISOString() }).execute();
  });
  return { created: true };
}
