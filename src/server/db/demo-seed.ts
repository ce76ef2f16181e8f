// The demo company (embedded mode, or --demo): "Demo S.A.S." (active, pilot), one active user
// per role <role>@demo.colibri.co and one user per non-active state <state>@demo.colibri.co;
// a team with a hierarchy (demoTeam: a sales team under a manager, an operations team under a
// coordinator whose company role "Coordinador" sees only themselves and their dependents), cost
// centers, platform clients with responsibles and associations; and a second company, "Andina
// Logística S.A.S." (demoOtherCompany), with its own users, area, cost center and client, so
// company isolation is visible. Runs once: app_meta.demo_seeded marks it done, so later starts
// change nothing.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { defaultGrants } from '../../core/permissions.ts';
import { isValidPassword } from '../../core/password-policy.ts';
import { constants } from '../../generated/constants.gen.ts';
import { roles, userStates } from '../../generated/enums.gen.ts';
import { hashPassword } from '../security/passwords.ts';
import { seedMessagingDemo } from './demo-seed-messaging.ts';
import type { Database } from '../../engine/database.ts';
import { productKey } from './system-roles.ts';

export const DEMO_DOMAIN = 'demo.colibri.co';
export const DEMO_COMPANY = { name: 'Demo S.A.S.', nit: '900123456-8' } as const;
/** An active user for each role but the product's SMS flag role, and a user in each other state. */
export const demoRoleUsers = roles.filter((role) => role !== `${productKey}Sms`);
export const demoStateUsers = userStates.filter((state) => state !== 'active');
export const demoEmail = (name: string) => `${name}@${DEMO_DOMAIN}`;

/** The demo team below the superadmin: e-mail name, full name, role, responsible, area, cost center. */
export const demoTeam = [
  { user: 'carolina.ruiz', name: 'Carolina Ruiz', role: 'manager', parent: 'superadmin', area: 0, costCenter: 'VEN-300' },
  { user: 'andres.mejia', name: 'Andrés Mejía', role: 'analista', parent: 'carolina.ruiz', area: 0, costCenter: 'VEN-300' },
  { user: 'paula.rios', name: 'Paula Ríos', role: 'analista', parent: 'carolina.ruiz', area: 1, costCenter: 'VEN-300' },
  { user: 'jorge.pardo', name: 'Jorge Pardo', role: 'Coordinador', parent: 'superadmin', area: 1, costCenter: 'OPS-200' },
  { user: 'diana.lopez', name: 'Diana López', role: 'analista', parent: 'jorge.pardo', area: 1, costCenter: 'OPS-200' },
  { user: 'felipe.cano', name: 'Felipe Cano', role: 'analista', parent: 'diana.lopez', area: 1, costCenter: 'OPS-200' },
] as const;

/** The second demo company: its users are <role>@andina.demo.colibri.co. */
export const demoOtherCompany = {
  name: 'Andina Logística S.A.S.',
  nit: '900987654-7',
  domain: `andina.${DEMO_DOMAIN}`,
  users: [
    { user: 'superadmin', name: 'Gerente Andina', role: 'superadmin' },
    { user: 'analista', name: 'Analista Andina', role: 'analista' },
  ],
} as const;

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
    const addUser = async (name: string, state: string, roles: string[], changedAt: Date, more: Partial<{ companyId: number; parentId: number | null; fullName: string; email: string; areaId: number; costCenterId: number }> = {}) => {
      const user = await trx
        .insertInto('users')
        .values({
          company_id: more.companyId ?? company.id,
          parent_id: more.parentId === undefined ? superadminId : more.parentId,
          full_name: more.fullName ?? `Demo ${name}`,
          email: more.email ?? demoEmail(name),
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
          area_id: more.areaId ?? null,
          cost_center_id: more.costCenterId ?? null,
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

    const areaIds = (await trx.insertInto('areas').values([
      { company_id: company.id, name: 'Sede principal Bogotá', picture_file: null },
      { company_id: company.id, name: 'Sucursal Medellín', picture_file: null },
    ]).returning('id').execute()).map((a) => a.id);

    const centers = await trx.insertInto('cost_centers').values([
      { company_id: company.id, name: 'Mercadeo', code: 'MKT-100' },
      { company_id: company.id, name: 'Operaciones', code: 'OPS-200' },
      { company_id: company.id, name: 'Ventas', code: 'VEN-300' },
    ]).returning(['id', 'code']).execute();
    const centerId = new Map(centers.map((c) => [c.code, c.id]));

    // A company role with the manager's permissions that sees only its holder and their dependents.
    const coordinator = await trx
      .insertInto('roles')
      .values({ company_id: company.id, name: 'Coordinador', read_only: false, scope: 'meAndDependents', permissions: JSON.stringify(defaultGrants(['manager'], productKey)) })
      .returning('id')
      .executeTakeFirstOrThrow();
    roleId.set('Coordinador', coordinator.id);
    const teamIds = new Map<string, number>([['superadmin', superadminId!]]);
    for (const m of demoTeam) {
      const id = await addUser(m.user, 'active', [m.role], now, {
        parentId: teamIds.get(m.parent)!, fullName: m.name, areaId: areaIds[m.area], costCenterId: centerId.get(m.costCenter)!,
      });
      teamIds.set(m.user, id);
    }

    const clients = await trx.insertInto('platform_clients').values([
      { company_id: company.id, name: DEMO_COMPANY.name, nit: DEMO_COMPANY.nit },
      { company_id: company.id, name: 'Demo Retail', nit: '901234567-7' },
    ]).returning('id').execute();
    const responsibles = await trx.insertInto('platform_responsibles').values([
      { company_id: company.id, platform_client_id: clients[0].id, name: 'Mercadeo Digital', email: demoEmail('mercadeo') },
      { company_id: company.id, platform_client_id: clients[0].id, name: 'Servicio al Cliente', email: null },
      { company_id: company.id, platform_client_id: clients[1].id, name: 'Tiendas Norte', email: null },
    ]).returning(['id', 'platform_client_id', 'name']).execute();
    const associate = (user: number, r: (typeof responsibles)[number]) =>
      ({ company_id: company.id, user_id: user, platform_client_id: r.platform_client_id, platform_responsible_id: r.id, name: r.name });
    await trx.insertInto('associations').values([
      associate(superadminId!, responsibles[0]),
      associate(superadminId!, responsibles[1]),
      associate(teamIds.get('carolina.ruiz')!, responsibles[2]),
    ]).execute();

    // The second company: same password, its own data; nothing of it is visible from Demo S.A.S.
    const other = await trx
      .insertInto('companies')
      .values({ name: demoOtherCompany.name, nit: demoOtherCompany.nit, state: 'active', plan_type: 'subscription', picture_file: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const otherArea = await trx.insertInto('areas').values({ company_id: other.id, name: 'Centro de distribución Cali', picture_file: null }).returning('id').executeTakeFirstOrThrow();
    const otherCenter = await trx.insertInto('cost_centers').values({ company_id: other.id, name: 'Logística', code: 'LOG-01' }).returning('id').executeTakeFirstOrThrow();
    let otherBoss: number | null = null;
    for (const u of demoOtherCompany.users) {
      const id = await addUser(u.user, 'active', [u.role], now, {
        companyId: other.id, parentId: otherBoss, fullName: u.name, email: `${u.user}@${demoOtherCompany.domain}`, areaId: otherArea.id, costCenterId: otherCenter.id,
      });
      otherBoss ??= id;
    }
    const otherClient = await trx.insertInto('platform_clients').values({ company_id: other.id, name: demoOtherCompany.name, nit: demoOtherCompany.nit }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('platform_responsibles').values({ company_id: other.id, platform_client_id: otherClient.id, name: 'Despachos', email: null }).execute();
    await trx.insertInto('notifications').values(userIds.flatMap((user_id) => [
      { company_id: company.id, user_id, title: 'Bienvenido a Colibri', message: 'Tu cuenta de demostración está lista.', visible: true, created_at: now },
      { company_id: company.id, user_id, title: 'Créditos de prueba', message: 'La empresa Demo S.A.S. está en plan piloto.', visible: true, created_at: now },
    ])).execute();
    // Channels, block list and SMS accounts (demo-seed-messaging.ts).
    await seedMessagingDemo(trx, { demoCompanyId: company.id, otherCompanyIds: [other.id] }, now);
    await trx.insertInto('app_meta').values({ key: 'demo_seeded', value: now.toISOString() }).execute();
  });
  return { created: true };
}
