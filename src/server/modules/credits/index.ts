// Credits (1 credit = 1 COP): the balance and what running deployments hold (src/engine/credits.ts).
import { balanceOf } from '../../../engine/credits.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';

export const creditsHandlers: DomainHandlers<'credits'> = {
  'credits.balance': async (ctx) => balanceOf(ctx.deps.db, caller(ctx).companyId),
};
