// GET /v1/audit (schemas/api/audit.yaml): the caller's company's audit log, paged, within the
// caller's user scope. Dates are America/Bogota calendar days (constants.sendWindow.timeZone),
// "up to today": a date after today answers 99962, an end before the start 99958.
import { calendarDate, dateRangeProblem, dayAfter, dayStart } from '../../../core/date-range.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { AuditEntry } from '../../../generated/types.gen.ts';
import { inScope } from '../../auth/user-scope.ts';
import { fail } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';

const TIME_ZONE = constants.sendWindow.timeZone;

export const auditHandlers: DomainHandlers<'audit'> = {
  'audit.list': async (ctx) => {
    const me = caller(ctx);
    const f = ctx.query;
    const problem = dateRangeProblem({ start: f.dateStart, end: f.dateEnd }, calendarDate(ctx.deps.now(), TIME_ZONE));
    if (problem === 'afterToday') throw fail('99962');
    if (problem === 'endBeforeStart') throw fail('99958');

    let qb = ctx.deps.db
      .selectFrom('audit_log as l')
      .selectAll('l')
      .where('l.company_id', '=', me.companyId)
      .where(inScope(me, 'l.user_id'));
    if (f.userId) qb = qb.where('l.user_id', '=', f.userId);
    if (f.operationId) qb = qb.where('l.operation_id', '=', f.operationId);
    if (f.componentId) qb = qb.where('l.component_id', '=', f.componentId);
    if (f.status) qb = qb.where('l.status', '=', f.status);
    if (f.dateStart) qb = qb.where('l.created_at', '>=', dayStart(f.dateStart, TIME_ZONE));
    if (f.dateEnd) qb = qb.where('l.created_at', '<', dayAfter(f.dateEnd, TIME_ZONE));
    return paginate(qb, f, {
      sortable: { createdAt: 'l.created_at', userEmail: 'l.user_email', operationId: 'l.operation_id', status: 'l.status' },
      defaultSort: { column: 'l.created_at', order: 'desc' },
      tieBreaker: 'l.id',
      search: ['l.user_email', 'l.path', 'l.operation_id', 'l.component_name'],
      map: (r): AuditEntry => ({
        id: Number(r.id),
        userId: r.user_id,
        userEmail: r.user_email,
        ip: r.ip,
        method: r.method,
        path: r.path,
        operationId: r.operation_id,
        componentId: r.component_id,
        componentName: r.component_name,
        componentAction: r.component_action,
        status: r.status,
        createdAt: new Date(r.created_at).toISOString(),
      }),
    });
  },
};
