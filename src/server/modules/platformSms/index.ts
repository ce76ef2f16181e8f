// The SMS platform calls of spec 7 and the quota screen (schemas/api/platform-sms.yaml), answered
// from the platform's own tables and scoped to the caller's company.
import type { Kysely } from 'kysely';
import { nitBase } from '../../../core/nit.ts';
import type { SmsClientData } from '../../../generated/types.gen.ts';
import type { Database } from '../../../engine/database.ts';
import { fail } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { accountsQuery, quotaCsv, toAccount } from './accounts.ts';
import { listMessageStates, listOperators } from './reference-lists.ts';


async function clientData(db: Kysely<Database>, companyId: number, clientIds: number[]): Promise<SmsClientData[]> {
  if (!clientIds.length) return [];
  const clients = await db.selectFrom('platform_clients').select(['id', 'name', 'nit']).where('company_id', '=', companyId).where('id', 'in', clientIds).orderBy('name').orderBy('id').execute();
  if (!clients.length) return [];
  const ids = clients.map((c) => c.id);
  const responsibles = await db
    .selectFrom('platform_responsibles')
    .select(['id', 'platform_client_id', 'name', 'email'])
    .where('company_id', '=', companyId)
    .where('platform_client_id', 'in', ids)
    .orderBy('name')
    .orderBy('id')
    .execute();
  const accounts = (await accountsQuery(db, companyId).where('a.platform_client_id', 'in', ids).orderBy('a.name').orderBy('a.id').execute()).map(toAccount);
  return clients.map((client) => ({
    client,
    responsibles: responsibles
      .filter((r) => r.platform_client_id === client.id)
      .map((r) => (r.email ? { id: r.id, platformClientId: r.platform_client_id, name: r.name, email: r.email } : { id: r.id, platformClientId: r.platform_client_id, name: r.name })),
    accounts: accounts.filter((a) => a.clientId === client.id),
  }));
}

/** One account of the company; when the query names a client or responsible, it must be the account's. */
async function quotaAccount(db: Kysely<Database>, companyId: number, id: number, query: { clientId?: number; responsibleId?: number }) {
  let q = accountsQuery(db, companyId).where('a.id', '=', id);
  if (query.clientId !== undefined) q = q.where('a.platform_client_id', '=', query.clientId);
  if (query.responsibleId !== undefined) q = q.where('a.platform_responsible_id', '=', query.responsibleId);
  const row = await q.executeTakeFirst();
  if (!row) throw fail('99959');
  return toAccount(row);
}

export const platformSmsHandlers: DomainHandlers<'platformSms'> = {
  'platformSms.getAccountsByNits': async (ctx) => {
    const me = caller(ctx);
    const nits = [...new Set(ctx.params.nits.split(',').map(nitBase))];
    const clients = await ctx.deps.db.selectFrom('platform_clients').select(['id', 'nit']).where('company_id', '=', me.companyId).execute();
    const ids = clients.filter((c) => nits.includes(nitBase(c.nit))).map((c) => c.id);
    if (!ids.length) return [];
    return (await accountsQuery(ctx.deps.db, me.companyId).where('a.platform_client_id', 'in', ids).orderBy('a.name').orderBy('a.id').execute()).map(toAccount);
  },

  'platformSms.getCampaignsByAccount': async (ctx) => {
    const me = caller(ctx);
    const rows = await ctx.deps.db
      .selectFrom('sms_campaigns')
      .select(['id', 'account_id', 'name', 'created_at'])
      .where('company_id', '=', me.companyId)
      .where('account_id', 'in', ctx.body.ids)
      .orderBy('account_id')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, name: r.name, createdAt: r.created_at.toISOString() }));
  },

  'platformSms.clientsSms': async (ctx) => {
    const me = caller(ctx);
    return ctx.deps.db.selectFrom('platform_clients').select(['id', 'name', 'nit']).where('company_id', '=', me.companyId).orderBy('name').orderBy('id').execute();
  },

  'platformSms.getStates': async (ctx) => listMessageStates(ctx.deps.db),

  'platformSms.getListAccount': async (ctx) => {
    const me = caller(ctx);
    const { clientId, responsibleId } = ctx.params;
    const client = await ctx.deps.db.selectFrom('platform_clients').select('id').where('id', '=', clientId).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!client) throw fail('99959');
    let q = accountsQuery(ctx.deps.db, me.companyId).where('a.platform_client_id', '=', clientId);
    if (responsibleId !== 0) q = q.where('a.platform_responsible_id', '=', responsibleId);
    return (await q.orderBy('a.name').orderBy('a.id').execute()).map(toAccount);
  },

  'platformSms.getQuotaByAccount': async (ctx) => quotaAccount(ctx.deps.db, caller(ctx).companyId, ctx.params.id, ctx.query),

  'platformSms.getQuotaFileByAccount': async (ctx) => {
    const account = await quotaAccount(ctx.deps.db, caller(ctx).companyId, ctx.params.id, ctx.query);
    ctx.reply.header('content-disposition', `attachment; filename="cupo-cuenta-${account.id}.csv"`);
    return { contentType: 'text/csv; charset=utf-8', bytes: quotaCsv(account) };
  },

  'platformSms.operators': async (ctx) => listOperators(ctx.deps.db),

  'platformSms.getAllDataClients': async (ctx) => {
    const me = caller(ctx);
    const [data] = await clientData(ctx.deps.db, me.companyId, [ctx.params.id]);
    if (!data) throw fail('99959');
    return data;
  },

  'platformSms.getAllDataClientsByUserId': async (ctx) => {
    const me = caller(ctx);
    const links = await ctx.deps.db.selectFrom('associations').select('platform_client_id').distinct().where('company_id', '=', me.companyId).where('user_id', '=', me.userId).execute();
    return clientData(ctx.deps.db, me.companyId, links.map((l) => l.platform_client_id));
  },

  'platformSms.quotaList': async (ctx) => {
    const me = caller(ctx);
    let base = accountsQuery(ctx.deps.db, me.companyId);
    if (ctx.query.state) base = base.where('a.state', '=', ctx.query.state);
    if (ctx.query.clientId) base = base.where('a.platform_client_id', '=', ctx.query.clientId);
    return paginate(base, ctx.query, {
      // "available" is the select list's computed column (ORDER BY an output name).
      sortable: { name: 'a.name', clientName: 'c.name', quota: 'a.quota', used: 'a.used', available: 'available', createdAt: 'a.created_at' },
      defaultSort: { column: 'a.name', order: 'asc' },
      tieBreaker: 'a.id',
      search: ['a.name', 'c.name'],
      map: toAccount,
      keyset: false, // "available" can't be named in a WHERE
    });
  },

  'platformSms.setQuota': async (ctx) => {
    const me = caller(ctx);
    const updated = await ctx.deps.db
      .updateTable('sms_accounts')
      .set({ quota: ctx.body.quota, updated_at: ctx.deps.now() })
      .where('id', '=', ctx.params.accountId)
      .where('company_id', '=', me.companyId)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw fail('99959');
    return quotaAccount(ctx.deps.db, me.companyId, updated.id, {});
  },
};
