// Deployments (schemas/api/deployments.yaml): the runs of campaigns with their progress and the
// play / pause / cancel / delete actions (src/engine/campaigns/deployment-control.ts).
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { normalizeColombianPhone } from '../../../core/phone.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';
import { deploymentHistory } from './history.ts';
import { controlDeployment, loadDeployment, numbersAction, removeDeployment, resendDeployment } from '../../../engine/campaigns/index.ts';
import { toDeployment } from './deployment-answer.ts';


export const deploymentsHandlers: DomainHandlers<'deployments'> = {
  'deployments.list': async (ctx) => {
    const me = caller(ctx);
    const db = ctx.deps.db;
    let base = db.selectFrom('deployments').leftJoin('campaigns', 'campaigns.id', 'deployments.campaign_id')
      .selectAll('deployments').where('deployments.company_id', '=', me.companyId);
    if (ctx.query.campaignId) base = base.where('deployments.campaign_id', '=', ctx.query.campaignId);
    if (ctx.query.state) base = base.where('deployments.state', '=', ctx.query.state);
    const page = await paginate(base, ctx.query, {
      sortable: { createdAt: 'deployments.created_at' },
      defaultSort: { column: 'deployments.created_at', order: 'desc' },
      tieBreaker: 'deployments.id',
      search: ['campaigns.name'],
      map: (r) => r,
    });
    return { ...page, items: await Promise.all(page.items.map((r) => toDeployment(db, r))) };
  },

  'deployments.history': deploymentHistory,

  'deployments.get': async (ctx) => {
    const db = ctx.deps.db;
    return toDeployment(db, await loadDeployment(db, caller(ctx).companyId, ctx.params.id));
  },

  'deployments.control': async (ctx) => {
    const me = caller(ctx);
    const db = ctx.deps.db;
    await controlDeployment(db, me.companyId, ctx.params.id, ctx.params.action, ctx.deps.now());
    if (ctx.params.action === 'play') ctx.deps.messaging.wake();
    return toDeployment(db, await loadDeployment(db, me.companyId, ctx.params.id));
  },

  'deployments.delete': async (ctx) => {
    await removeDeployment(ctx.deps.db, caller(ctx).companyId, ctx.params.id, ctx.deps.now());
    return { ok: true as const };
  },

  'deployments.resend': async (ctx) => {
    const me = caller(ctx);
    const id = await resendDeployment(ctx.deps, me, ctx.params.id, [ctx.body.state]);
    return toDeployment(ctx.deps.db, await loadDeployment(ctx.deps.db, me.companyId, id));
  },

  'deployments.numbers': async (ctx) => {
    const me = caller(ctx);
    const numbers = ctx.body.numbers.map((n) => normalizeColombianPhone(n));
    const bad = ctx.body.numbers.filter((_, i) => !numbers[i]);
    if (bad.length) throw failFields(bad.map((n) => fieldError('numbers', '99963', n)));
    const at = ctx.body.at ? new Date(ctx.body.at) : null;
    const changed = await numbersAction(ctx.deps.db, me.companyId, ctx.params.id, ctx.body.action, numbers as string[], at, ctx.deps.now());
    return { changed };
  },
};
