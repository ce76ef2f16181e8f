// The MT success report (schemas/api/mt-reports.yaml): the NITs a caller may report on (their
// company's), the SMS accounts of a NIT, and the SMS traffic of the chosen accounts with the
// success rate, over the rollups. Each call is answered at two paths (spec 7: /v1/reports/mtReports
// and v1/{product}/reportCenter), one handler each.
import type { Kysely } from 'kysely';
import { nitBase } from '../../../core/nit.ts';
import type { Database } from '../../../engine/database.ts';
import type { ClientNit } from '../../../generated/types.gen.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import { caller, type DomainHandlers, type HandlerContext, type Output } from '../../http/handler.ts';
import { platformTraffic } from '../reportCenter/deployments-and-platforms.ts';
import { companyAccounts } from '../reportCenter/report-scope.ts';

async function companyNit(db: Kysely<Database>, companyId: number): Promise<ClientNit> {
  const c = await db.selectFrom('companies').select(['id', 'name', 'nit']).where('id', '=', companyId).executeTakeFirstOrThrow();
  return { companyId: c.id, nit: c.nit || null, name: c.name };
}

/** Whether `nit` names the company (without separators or verification digit). */
const isCompanyNit = (company: ClientNit, nit: string) => company.nit !== null && nitBase(company.nit) === nitBase(nit);

const clientsNit = async <K extends 'mtReports.clientsNit' | 'mtReports.reportCenterClientsNit'>(ctx: HandlerContext<K>) => [await companyNit(ctx.deps.db, caller(ctx).companyId)];

const trafficSuccess = async <K extends 'mtReports.trafficSuccess' | 'mtReports.reportCenterTrafficSuccess'>(ctx: HandlerContext<K>) => {
  const nit = (ctx.body as { Nit?: string }).Nit;
  if (nit !== undefined && !isCompanyNit(await companyNit(ctx.deps.db, caller(ctx).companyId), nit)) throw failFields([fieldError('Nit', '99961', nit)]);
  return platformTraffic(ctx, 'sms');
};

const clientsByNit = async <K extends 'mtReports.getClientsByNit' | 'mtReports.reportCenterGetClientsByNit'>(ctx: HandlerContext<K>): Promise<Output<'mtReports.getClientsByNit'>> => {
  const me = caller(ctx);
  const db = ctx.deps.db;
  if (!isCompanyNit(await companyNit(db, me.companyId), (ctx.params as { nit: string }).nit)) return [];
  return companyAccounts(db, me.companyId, 'sms');
};

const nitByUser = async <K extends 'mtReports.getNitByUser' | 'mtReports.reportCenterGetNitByUser'>(ctx: HandlerContext<K>) => {
  const me = caller(ctx);
  const user = await ctx.deps.db.selectFrom('users').select('id').where('id', '=', (ctx.params as { id: number }).id).where('company_id', '=', me.companyId).executeTakeFirst();
  if (!user) throw fail('99959');
  return companyNit(ctx.deps.db, me.companyId);
};

export const mtReportsHandlers: DomainHandlers<'mtReports'> = {
  'mtReports.clientsNit': clientsNit,
  'mtReports.reportCenterClientsNit': clientsNit,
  'mtReports.trafficSuccess': trafficSuccess,
  'mtReports.reportCenterTrafficSuccess': trafficSuccess,
  'mtReports.getClientsByNit': clientsByNit,
  'mtReports.reportCenterGetClientsByNit': clientsByNit,
  'mtReports.getNitByUser': nitByUser,
  'mtReports.reportCenterGetNitByUser': nitByUser,
};
