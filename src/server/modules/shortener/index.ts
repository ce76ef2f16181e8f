// The link shortener's operations (schemas/api/shortener.yaml, components 50, 5001, 5002; the
// campaign editor's shorten and a campaign's opens under 2001). Every query is scoped to the
// caller's company; the public redirect lives in src/server/shortener.
import { sql, type Expression, type SqlBool } from 'kysely';
import { calendarDate, dateRangeProblem, dayAfter, dayStart } from '../../../core/date-range.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { ShortLink } from '../../../generated/types.gen.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { fail } from '../../errors/api-error.ts';
import { caller, type DomainHandlers } from '../../http/handler.ts';
import { paginate } from '../../http/paging.ts';
import { checkTargetUrl } from '../../../core/short-code.ts';
import { createMany, createOne } from './links.ts';
import { readUrlColumn } from './upload.ts';

const TIME_ZONE = constants.sendWindow.timeZone;

const counted = {
  clicks: sql<string>`(select count(*) from short_link_clicks c where c.company_id = l.company_id and c.root_id = l.id and not c.bot)`,
  unique: sql<string>`(select count(distinct case when c.link_id <> c.root_id then c.link_id::text else c.link_id::text || ':' || c.visitor end) from short_link_clicks c where c.company_id = l.company_id and c.root_id = l.id and not c.bot)`,
  bots: sql<string>`(select count(*) from short_link_clicks c where c.company_id = l.company_id and c.root_id = l.id and c.bot)`,
};

function linksOf(deps: ServerDeps, me: Session) {
  return deps.db.selectFrom('short_links as l')
    .select(['l.id', 'l.code', 'l.url', 'l.alias', 'l.tags', 'l.batch', 'l.expires_at', 'l.created_at'])
    .select([counted.clicks.as('clicks'), counted.unique.as('unique'), counted.bots.as('bots')])
    .where('l.company_id', '=', me.companyId).where('l.parent_id', 'is', null).where('l.deleted_at', 'is', null);
}

type LinkRow = { id: number | string; code: string; url: string | null; alias: boolean; tags: string[]; batch: string | null; expires_at: Date | null; created_at: Date; clicks: string; unique: string; bots: string };

const toLink = (deps: ServerDeps) => (r: LinkRow): ShortLink => {
  const url = r.url ?? '';
  const check = checkTargetUrl(url);
  return {
    id: Number(r.id),
    code: r.code,
    shortUrl: deps.shortener.shortUrl(r.code),
    url,
    displayUrl: check.ok && check.displayHost !== check.host ? url.replace(check.host, check.displayHost) : url,
    alias: r.alias,
    tags: r.tags,
    batch: r.batch,
    expiresAt: r.expires_at?.toISOString() ?? null,
    expired: !!r.expires_at && r.expires_at <= deps.now(),
    createdAt: r.created_at.toISOString(),
    clicks: Number(r.clicks),
    unique: Number(r.unique),
    bots: Number(r.bots),
  };
};

async function linkById(deps: ServerDeps, me: Session, id: number): Promise<ShortLink> {
  const row = await linksOf(deps, me).where('l.id', '=', id).executeTakeFirst();
  if (!row) throw fail('99959');
  return toLink(deps)(row as LinkRow);
}

export const shortenerHandlers: DomainHandlers<'shortener'> = {
  'shortener.create': async (ctx) => {
    const me = caller(ctx);
    return linkById(ctx.deps, me, await createOne(ctx.deps, me, ctx.body));
  },

  'shortener.campaignLink': async (ctx) => {
    const me = caller(ctx);
    return linkById(ctx.deps, me, await createOne(ctx.deps, me, ctx.body));
  },

  'shortener.upload': async (ctx) => {
    const me = caller(ctx);
    const values = await readUrlColumn(ctx.request);
    const { batch, created, rejected } = await createMany(ctx.deps, me, values);
    return { batch, created, rejectedTotal: rejected.length, rejected: rejected.slice(0, 100) };
  },

  'shortener.list': async (ctx) => {
    const me = caller(ctx);
    let base = linksOf(ctx.deps, me);
    if (ctx.query.batch) base = base.where('l.batch', '=', ctx.query.batch);
    if (ctx.query.tag) base = base.where(sql<SqlBool>`l.tags @> ${JSON.stringify([ctx.query.tag])}::jsonb`);
    return paginate(base, ctx.query, {
      sortable: { createdAt: 'l.created_at', code: 'l.code', url: 'l.url', expiresAt: 'l.expires_at' },
      defaultSort: { column: 'l.created_at', order: 'desc' },
      tieBreaker: 'l.id',
      search: ['l.url', 'l.code'],
      map: (r) => toLink(ctx.deps)(r as LinkRow),
    });
  },

  'shortener.get': async (ctx) => linkById(ctx.deps, caller(ctx), ctx.params.id),

  'shortener.delete': async (ctx) => {
    const me = caller(ctx);
    const row = await ctx.deps.db.updateTable('short_links').set({ deleted_at: ctx.deps.now() })
      .where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).where('parent_id', 'is', null).where('deleted_at', 'is', null)
      .returning(['id', 'code']).executeTakeFirst();
    if (!row) throw fail('99959');
    ctx.deps.shortener.cache.markGone(Number(row.id));
    ctx.deps.shortener.cache.forget(row.code);
    return { ok: true as const };
  },

  'shortener.statistics': async (ctx) => {
    const me = caller(ctx);
    const f = ctx.query;
    const problem = dateRangeProblem({ start: f.dateStart, end: f.dateEnd }, calendarDate(ctx.deps.now(), TIME_ZONE));
    if (problem === 'afterToday') throw fail('99962');
    if (problem === 'endBeforeStart') throw fail('99958');
    const where: Expression<SqlBool>[] = [sql<SqlBool>`c.company_id = ${me.companyId}`];
    if (f.dateStart) where.push(sql<SqlBool>`c.at >= ${dayStart(f.dateStart, TIME_ZONE)}`);
    if (f.dateEnd) where.push(sql<SqlBool>`c.at < ${dayAfter(f.dateEnd, TIME_ZONE)}`);
    if (f.linkId) where.push(sql<SqlBool>`c.root_id = ${f.linkId}`);
    if (f.campaignId) where.push(sql<SqlBool>`c.campaign_id = ${f.campaignId}`);
    const groupBy = f.groupBy ?? 'day';
    if (groupBy === 'recipient') where.push(sql<SqlBool>`c.link_id <> c.root_id`);
    const key = {
      day: sql`to_char(c.at at time zone ${TIME_ZONE}, 'YYYY-MM-DD')`,
      link: sql`(select code from short_links s where s.id = c.root_id)`,
      campaign: sql`coalesce((select name from campaigns k where k.id = c.campaign_id and k.company_id = c.company_id), '-')`,
      recipient: sql`(select phone from short_links s where s.id = c.link_id)`,
      device: sql`c.device`,
      referrer: sql`coalesce(c.referrer, 'direct')`,
    }[groupBy];
    const filter = sql.join(where, sql` and `);
    const measures = sql`count(*) filter (where not c.bot) as clicks,
      count(distinct case when c.bot then null when c.link_id <> c.root_id then c.link_id::text else c.link_id::text || ':' || c.visitor end) as "unique",
      count(*) filter (where c.bot) as bots`;
    const db = ctx.deps.db;
    const order = groupBy === 'day' ? sql`1 asc` : sql`2 desc, 1 asc`;
    const rows = await sql<{ key: string | null; clicks: string; unique: string; bots: string }>`
      select ${key} as key, ${measures} from short_link_clicks c where ${filter} group by 1 order by ${order} limit 1000`.execute(db);
    const totals = await sql<{ clicks: string; unique: string; bots: string }>`select ${measures} from short_link_clicks c where ${filter}`.execute(db);
    const n = (v: string | number | null | undefined) => Number(v ?? 0);
    return {
      items: rows.rows.map((r) => ({ key: r.key ?? '-', clicks: n(r.clicks), unique: n(r.unique), bots: n(r.bots) })),
      totals: { clicks: n(totals.rows[0]?.clicks), unique: n(totals.rows[0]?.unique), bots: n(totals.rows[0]?.bots) },
    };
  },

  'shortener.campaignOpens': async (ctx) => {
    const me = caller(ctx);
    const db = ctx.deps.db;
    const campaign = await db.selectFrom('campaigns').select('id').where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!campaign) throw fail('99959');
    const links = await db.selectFrom('short_links').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('company_id', '=', me.companyId).where('campaign_id', '=', campaign.id).where('parent_id', 'is not', null).executeTakeFirstOrThrow();
    const clicks = await sql<{ opened: string; clicks: string; bots: string }>`
      select count(distinct c.link_id) filter (where not c.bot) as opened, count(*) filter (where not c.bot) as clicks, count(*) filter (where c.bot) as bots
      from short_link_clicks c where c.company_id = ${me.companyId} and c.campaign_id = ${campaign.id} and c.link_id <> c.root_id`.execute(db);
    const r = clicks.rows[0];
    const recipients = Number(links.n);
    const opened = Number(r?.opened ?? 0);
    // The click rate: recipients who opened over recipients, a fraction (0.667 is 66,7 %).
    const clickRate = recipients ? Math.round((opened / recipients) * 1000) / 1000 : 0;
    return { campaignId: campaign.id, recipients, opened, clickRate, clicks: Number(r?.clicks ?? 0), bots: Number(r?.bots ?? 0) };
  },

  'shortener.campaignClickers': async (ctx) => {
    const me = caller(ctx);
    const db = ctx.deps.db;
    const campaign = await db.selectFrom('campaigns').select('id').where('id', '=', ctx.params.id).where('company_id', '=', me.companyId).executeTakeFirst();
    if (!campaign) throw fail('99959');
    // Each recipient's own link (a child of the campaign's short link) with its clicks by a person.
    const perRecipient = db
      .selectFrom('short_link_clicks as c')
      .innerJoin('short_links as l', 'l.id', 'c.link_id')
      .select((eb) => ['l.id as link_id', 'l.phone', eb.fn.countAll<string>().as('clicks'), eb.fn.min('c.at').as('first_at'), eb.fn.max('c.at').as('last_at')])
      .where('c.company_id', '=', me.companyId).where('c.campaign_id', '=', campaign.id).where('c.bot', '=', false)
      .where('l.parent_id', 'is not', null).where('l.phone', 'is not', null)
      .groupBy(['l.id', 'l.phone']);
    const base = db.selectFrom(perRecipient.as('k')).select(['k.link_id', 'k.phone', 'k.clicks', 'k.first_at', 'k.last_at']);
    return paginate(base, ctx.query, {
      sortable: { clicks: 'k.clicks', firstClickAt: 'k.first_at', lastClickAt: 'k.last_at' },
      defaultSort: { column: 'k.clicks', order: 'desc' },
      tieBreaker: 'k.link_id',
      search: ['k.phone'],
      map: (row) => ({ phone: String(row.phone), clicks: Number(row.clicks), firstClickAt: new Date(row.first_at as unknown as string).toISOString(), lastClickAt: new Date(row.last_at as unknown as string).toISOString() }),
    });
  },
};
