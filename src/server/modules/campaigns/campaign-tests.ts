// The tests sent so far of a campaign (GET /v1/campaigns/{id}/tests); the test send itself is the
// engine's (engine/campaigns/test-send.ts).
import type { CampaignTestMessage } from '../../../generated/types.gen.ts';
import { fail } from '../../errors/api-error.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';

export async function campaignTests(ctx: HandlerContext<'campaigns.tests'>) {
  const me = caller(ctx);
  const db = ctx.deps.db;
  const campaign = await db.selectFrom('campaigns').select('id').where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!campaign) throw fail('99959');
  const base = db.selectFrom('messages').select(['id', 'to_number', 'body', 'state', 'delivery_status', 'status_code', 'cost', 'created_at', 'updated_at'])
    .where('test_campaign_id', '=', campaign.id).where('company_id', '=', me.companyId);
  return paginate(base, ctx.query, {
    sortable: { id: 'id' },
    defaultSort: { column: 'id', order: 'desc' },
    tieBreaker: 'id',
    search: ['to_number'],
    map: (r): CampaignTestMessage => ({
      id: Number(r.id),
      toNumber: r.to_number,
      body: r.body,
      state: r.state as CampaignTestMessage['state'],
      deliveryStatus: (r.delivery_status ?? null) as CampaignTestMessage['deliveryStatus'],
      statusCode: r.status_code,
      cost: r.cost,
      createdAt: new Date(r.created_at).toISOString(),
      updatedAt: new Date(r.updated_at).toISOString(),
    }),
  });
}
