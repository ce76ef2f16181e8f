// Reading associations (user x platform client x responsible) with the names to show. Used by the
// associations operations and by the sign-in session (entity session-user, `associations`).
import type { Kysely } from 'kysely';
import type { AssociationDetail } from '../../../generated/types.gen.ts';
import type { Database } from '../../../engine/database.ts';

export async function associationsOf(db: Kysely<Database>, companyId: number, userId: number): Promise<AssociationDetail[]> {
  const rows = await db
    .selectFrom('associations as s')
    .innerJoin('platform_clients as c', 'c.id', 's.platform_client_id')
    .innerJoin('platform_responsibles as r', 'r.id', 's.platform_responsible_id')
    .select(['s.id', 's.platform_client_id', 'c.name as client_name', 's.platform_responsible_id', 'r.name as responsible_name', 's.name'])
    .where('s.company_id', '=', companyId)
    .where('s.user_id', '=', userId)
    .orderBy('c.name')
    .orderBy('r.name')
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    platformClientId: r.platform_client_id,
    clientName: r.client_name,
    platformResponsibleId: r.platform_responsible_id,
    responsibleName: r.responsible_name,
    name: r.name,
  }));
}
