// The system roles of spec 6 and their grants. Grants derive from config/menu.yaml through
// src/core/permissions.ts defaultGrants, and are re-synced on every start so a menu change in
// the YAML reaches the database without a hand-written migration.
import type { Kysely } from 'kysely';
import { defaultGrants } from '../../core/permissions.ts';
import { appSettings } from '../../generated/app.gen.ts';
import type { Database } from '../../engine/database.ts';
import { roles, type UserScope } from '../../generated/enums.gen.ts';

export const productKey = appSettings.product.key;
/** The system roles are the values of schemas/enums/role.yaml ("{product}Sms" takes the product key). */
export const systemRoleNames = roles;

/**
 * The users each system role's holders see (enum user-scope). Roles that manage people see the
 * whole company; the others only themselves, so a flag role such as "{product}Sms" never widens
 * anyone's scope (a user gets the widest scope among their roles).
 */
export const systemRoleScopes: Readonly<Record<string, Extract<UserScope, 'all' | 'onlyMe'>>> = {
  superadmin: 'all', admin: 'all', manager: 'all', develop: 'all', platform: 'all',
  analista: 'onlyMe', ops: 'onlyMe', [`${productKey}Sms`]: 'onlyMe',
};

export async function syncSystemRoles(db: Kysely<Database>): Promise<void> {
  const disabled = appSettings.disabledPages as readonly number[];
  for (const name of systemRoleNames) {
    const permissions = JSON.stringify(defaultGrants([name], productKey, disabled));
    const scope = systemRoleScopes[name] ?? 'onlyMe';
    const existing = await db.selectFrom('roles').select('id').where('company_id', 'is', null).where('name', '=', name).executeTakeFirst();
    if (existing) await db.updateTable('roles').set({ permissions, read_only: true, scope }).where('id', '=', existing.id).execute();
    else await db.insertInto('roles').values({ company_id: null, name, read_only: true, permissions, scope }).execute();
  }
}
