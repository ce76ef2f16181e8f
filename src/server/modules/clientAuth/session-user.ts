// The sign-in answer's payload (entity session-user), base64-encoded by src/core/session-codec.
import type { Kysely } from 'kysely';
import { firstWorkingPath, visibleMenu, type Grant } from '../../../core/permissions.ts';
import type { SessionUser } from '../../../generated/types.gen.ts';
import { unionGrants } from '../../auth/grants.ts';
import { rolesOf } from '../../auth/session-store.ts';
import type { Database, UserRow } from '../../../engine/database.ts';
import { productKey } from '../../db/system-roles.ts';
import { associationsOf } from '../associations/queries.ts';
import { fileUrl } from './users.ts';

/**
 * The first page that works among the menu entries the user may open: the first top-level entry
 * with a screen, or a group's first working child (a develop user's Campaigns opens its list);
 * '/' when there is none.
 */
export function defaultModuleFor(grants: readonly Grant[], roles: readonly string[], planType: string | null): string {
  return firstWorkingPath(visibleMenu(grants, { roles, planType, productKey })) ?? '/';
}

/** The platform clients these associations name, each once, by name (the company's only). */
async function clientsOf(db: Kysely<Database>, companyId: number, ids: readonly number[]): Promise<NonNullable<SessionUser['clients']>> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('platform_clients').select(['id', 'name', 'nit'])
    .where('company_id', '=', companyId).where('id', 'in', [...new Set(ids)]).orderBy('name').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, nit: r.nit }));
}

export async function buildSessionUser(db: Kysely<Database>, user: UserRow, token: string, expiresAt: Date): Promise<SessionUser> {
  const company = await db.selectFrom('companies').selectAll().where('id', '=', user.company_id).executeTakeFirst();
  const roles = await rolesOf(db, user.id);
  const names = roles.map((r) => r.name);
  const grants = unionGrants(roles.map((r) => r.permissions));
  const associations = await associationsOf(db, user.company_id, user.id);
  return {
    idUser: user.id,
    token,
    state: user.state as SessionUser['state'],
    roles: names,
    company: company
      ? { id: company.id, name: company.name, nit: company.nit, state: company.state as 'active', planType: company.plan_type as 'pilot' }
      : null,
    associations: associations.map((a) => ({
      platformClientId: a.platformClientId,
      platformResponsibleId: a.platformResponsibleId,
      name: a.name,
    })),
    clients: await clientsOf(db, user.company_id, associations.map((a) => a.platformClientId)),
    permissions: { menu: grants as SessionUser['permissions']['menu'], defaultModule: defaultModuleFor(grants, names, company?.plan_type ?? null) },
    fullName: user.full_name,
    email: user.email,
    profilePic: fileUrl(user.profile_pic_file),
    expiresAt: expiresAt.toISOString(),
  };
}
