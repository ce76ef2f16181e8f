// The flow a campaign starts for each recipient: checked when the campaign is saved and again at
// every launch (a flow may be unpublished in between).
import type { Kysely } from 'kysely';
import type { FlowDefinition } from '../../generated/types.gen.ts';
import type { Database } from '../database.ts';
import { refuseField } from '../refused.ts';
import { jsonValue } from '../tables/index.ts';

/**
 * A flow a campaign may carry: the company's, published (99994 otherwise), starting from
 * the company — an initialPush step. A flow that starts only when a person writes in (initialCall)
 * cannot be pushed: 99990 on a scheduled or recurring campaign (no scheduling of call flows), 99968
 * otherwise (the content must be of flow type).
 */
export async function checkCampaignFlow(db: Kysely<Database>, companyId: number, flowId: number | null | undefined, kind: string): Promise<number | null> {
  if (flowId === null || flowId === undefined) return null;
  const flow = await db.selectFrom('flows').select(['id', 'published_version']).where('id', '=', flowId).where('company_id', '=', companyId).executeTakeFirst();
  if (!flow || flow.published_version === null) throw refuseField('flowId', '99994');
  const version = await db.selectFrom('flow_versions').select('definition').where('flow_id', '=', flowId).where('version', '=', flow.published_version).executeTakeFirstOrThrow();
  const steps = jsonValue<FlowDefinition>(version.definition).steps;
  if (steps.some((s) => s.type === 'initialPush')) return flow.id;
  throw refuseField('flowId', kind === 'open' ? '99968' : '99990');
}
