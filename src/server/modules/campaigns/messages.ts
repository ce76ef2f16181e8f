// GET /v1/campaigns/{id}/messages (schemas/api/campaigns.yaml `messages`, screen
// /Campaigns/Campaigns/personalizedCampaignDetail/:id): every message of the campaign's
// deployments as its recipient got it (messages.body holds the text after the variables and the
// recipient's own short links were filled in), paged; q searches the number. Another company's
// campaign answers 99959, as one that does not exist. Each message says why it did not go, or not
// yet (reason,: engine/lifecycle/message-reason.ts), which the list and its export show.
import { reasonOf } from '../../../engine/lifecycle/index.ts';
import type { CampaignMessage } from '../../../generated/types.gen.ts';
import { fail } from '../../errors/api-error.ts';
import { duplicateWindowHours } from '../../../engine/campaigns/index.ts';
import { caller, type HandlerContext } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';

export async function campaignMessages(ctx: HandlerContext<'campaigns.messages'>) {
  const me = caller(ctx);
  const db = ctx.deps.db;
  const campaign = await db.selectFrom('campaigns').select('id').where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!campaign) throw fail('99959');
  const duplicateHours = await duplicateWindowHours(db, me.companyId);
  let base = db.selectFrom('messages as m')
    .innerJoin('deployments as d', 'd.id', 'm.deployment_id')
    .select(['m.id', 'm.deployment_id', 'm.to_number', 'm.body', 'm.state', 'm.delivery_status', 'm.status_code', 'm.error_code', 'm.held_reason', 'm.not_before', 'm.parts', 'm.sent_at', 'm.updated_at'])
    .where('d.campaign_id', '=', campaign.id)
    .where('d.company_id', '=', me.companyId)
    .where('m.company_id', '=', me.companyId);
  if (ctx.query.state) base = base.where('m.state', '=', ctx.query.state);
  if (ctx.query.deploymentId) base = base.where('m.deployment_id', '=', ctx.query.deploymentId);
  return paginate(base, ctx.query, {
    sortable: { id: 'm.id', toNumber: 'm.to_number', sentAt: 'm.sent_at', updatedAt: 'm.updated_at' },
    defaultSort: { column: 'm.id', order: 'asc' },
    tieBreaker: 'm.id',
    search: ['m.to_number'],
    map: (r): CampaignMessage => ({
      id: Number(r.id),
      deploymentId: Number(r.deployment_id),
      toNumber: r.to_number,
      body: r.body,
      state: r.state as CampaignMessage['state'],
      deliveryStatus: (r.delivery_status ?? null) as CampaignMessage['deliveryStatus'],
      statusCode: r.status_code,
      errorCode: r.error_code,
      reason: reasonOf(r, duplicateHours),
      parts: r.parts,
      sentAt: r.sent_at ? new Date(r.sent_at).toISOString() : null,
      updatedAt: new Date(r.updated_at).toISOString(),
    }),
  });
}
