// What a certificate states, read from the company's own records in one place per kind: the
// messages to one number (with their receipts and the clicks on the number's short links), a
// campaign's runs and recipients' outcomes, a number's place on the block list. A statement is
// plain data; certificates.ts signs its canonical JSON and pdf.ts prints it.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../engine/database.ts';
import { operatorSql } from '../../../engine/lifecycle/index.ts';
import { constants } from '../../../generated/constants.gen.ts';
import type { CertificateKind } from '../../../generated/enums.gen.ts';

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export interface StatementHead {
  version: 1;
  id: string;
  kind: CertificateKind;
  issuedAt: string;
  issuer: string;
  /** The legal person that issues it (certificates issued before this was stated lack it). */
  issuerLegal?: { name: string; nit: string };
  company: { id: number; name: string; nit: string | null };
}

export interface CertifiedMessage {
  id: number;
  account: { id: number; name: string; platform: string; sender: string | null };
  recipient: string;
  content: string;
  contentSha256: string;
  state: string;
  deliveryStatus: string | null;
  statusCode: number;
  operator: string | null;
  submittedAt: string;
  acceptedAt: string | null;
  deliveredAt: string | null;
  receipts: { at: string; state: string; deliveryStatus: string | null; statusCode: number | null; detail: string | null }[];
  clicks: { at: string; url: string | null; device: string }[];
}

export interface NumberStatement extends StatementHead {
  kind: 'number';
  subject: { phone: string; dateStart: string; dateEnd: string; accounts: { id: number; name: string }[] | null };
  messages: CertifiedMessage[];
  /** More messages matched than a certificate states (the newest are kept). */
  truncated: boolean;
}

export interface CampaignStatement extends StatementHead {
  kind: 'campaign';
  subject: { campaignId: number; name: string; deploymentId: number | null };
  campaign: { account: { id: number; name: string; platform: string; sender: string | null } | null; content: string; contentSha256: string; createdAt: string };
  deployments: { id: number; state: string; startedAt: string | null; finishedAt: string | null; total: number }[];
  outcome: { total: number; byState: Record<string, number> };
  /** A SHA-256 over every recipient's row (`columns`, comma-separated, one line each, message id order). */
  rows: { count: number; columns: string[]; sha256: string };
}

export interface BlockListStatement extends StatementHead {
  kind: 'blockList';
  subject: { phone: string };
  listed: boolean;
  entry: { addedAt: string; source: string; effectiveAt: string; removalRequestedAt: string | null; removalEffectiveAt: string | null } | null;
}

export type Statement = NumberStatement | CampaignStatement | BlockListStatement;

/** What a statement is about, in a few words (the list's subject column, the verification page). */
export function subjectOf(s: Statement): string {
  switch (s.kind) {
    case 'number': return `${s.subject.phone} · ${s.subject.dateStart} – ${s.subject.dateEnd}`;
    case 'campaign': return s.subject.deploymentId ? `${s.subject.name} · #${s.subject.deploymentId}` : s.subject.name;
    case 'blockList': return s.subject.phone;
  }
}

/** A message's content as certified: its text, or a template's canonical description. */
const contentOf = (body: string | null, template: unknown) => body ?? (template ? JSON.stringify(template) : '');

/** The messages the company sent `phone` between the instants, newest first, with receipts and clicks. */
export async function numberMessages(
  db: Kysely<Database>,
  q: { companyId: number; phone: string; from: Date; to: Date; accountIds: number[] | null },
): Promise<{ messages: CertifiedMessage[]; truncated: boolean }> {
  const limit = constants.reports.certificateMessages;
  const accounts = q.accountIds ? sql`and m.channel_id in (${sql.join(q.accountIds)})` : sql``;
  const rows = await sql<{
    id: string | number; channel_id: number; channel_name: string; platform: string; sender: string | null; to_number: string; body: string | null; template: unknown;
    state: string; delivery_status: string | null; status_code: number; operator: string | null; created_at: Date; sent_at: Date | null; delivered_at: Date | null; done_at: Date | null;
  }>`
    select m.id, m.channel_id, ch.name as channel_name, ch.platform, coalesce(ch.sender, ch.short_code) as sender, m.to_number, m.body, m.template, m.state, m.delivery_status,
      m.status_code, o.name as operator, m.created_at, m.sent_at, m.done_at,
      (select min(e.at) from message_events e where e.message_id = m.id and e.delivery_status in ('DELIVERED', 'READ')) as delivered_at
    from messages m
    join channels ch on ch.id = m.channel_id
    left join sms_operators o on o.id = ${sql.raw(operatorSql('m').id)}
    where m.company_id = ${q.companyId} and m.to_number = ${q.phone} and m.created_at >= ${q.from} and m.created_at < ${q.to} ${accounts}
    order by m.created_at desc, m.id desc
    limit ${limit + 1}`.execute(db);
  const kept = rows.rows.slice(0, limit);
  const ids = kept.map((r) => Number(r.id));
  const events = ids.length
    ? await db.selectFrom('message_events').select(['message_id', 'at', 'state', 'delivery_status', 'status_code', 'detail']).where('message_id', 'in', ids).orderBy('at').orderBy('id').execute()
    : [];
  // The number's own short links (a campaign's per-recipient links) and who opened them: people's
  // clicks only (the shortener marks link-preview robots).
  const clicks = await sql<{ at: Date; url: string | null; device: string; campaign_id: number | null }>`
    select c.at, coalesce(l.url, p.url) as url, c.device, l.campaign_id
    from short_links l
    join short_link_clicks c on c.link_id = l.id and c.company_id = l.company_id
    left join short_links p on p.id = l.parent_id
    where l.company_id = ${q.companyId} and l.phone = ${q.phone} and c.bot = false and c.at >= ${q.from} and c.at < ${q.to}
    order by c.at`.execute(db);
  const messages = kept.map((r): CertifiedMessage => {
    const content = contentOf(r.body, r.template);
    return {
      id: Number(r.id),
      account: { id: r.channel_id, name: r.channel_name, platform: r.platform, sender: r.sender },
      recipient: r.to_number,
      content,
      contentSha256: sha256Hex(content),
      state: r.state,
      deliveryStatus: r.delivery_status,
      statusCode: r.status_code,
      operator: r.operator,
      submittedAt: iso(r.created_at)!,
      acceptedAt: iso(r.sent_at),
      deliveredAt: iso(r.delivered_at),
      receipts: events.filter((e) => Number(e.message_id) === Number(r.id)).map((e) => ({ at: iso(e.at)!, state: e.state, deliveryStatus: e.delivery_status, statusCode: e.status_code, detail: e.detail })),
      clicks: [],
    };
  });
  // A click belongs to the newest message sent before it (the message that carried the link).
  for (const c of clicks.rows) {
    const at = new Date(c.at).getTime();
    const carrier = messages.find((m) => new Date(m.submittedAt).getTime() <= at);
    carrier?.clicks.push({ at: iso(c.at)!, url: c.url, device: c.device });
  }
  return { messages, truncated: rows.rows.length > limit };
}

const ROW_COLUMNS = ['id', 'to', 'state', 'statusCode', 'submittedAt', 'acceptedAt', 'deliveredAt'];

/** The storage key of a campaign certificate's rows, kept as hashed. */
export const certifiedRowsKey = (certificateId: string) => `certificates/${certificateId}-rows.csv`;

/**
 * A campaign's runs and every recipient's outcome, read in bounded steps for the rows' digest;
 * `keep` receives each page's lines exactly as hashed (the certified rows file).
 */
export async function campaignRecord(db: Kysely<Database>, q: { companyId: number; campaignId: number; deploymentId: number | null }, keep?: (lines: string) => Promise<void>) {
  const campaign = await db.selectFrom('campaigns as c').leftJoin('channels as ch', 'ch.id', 'c.channel_id')
    .select(['c.id', 'c.name', 'c.content', 'c.template', 'c.created_at', 'ch.id as channel_id', 'ch.name as channel_name', 'ch.platform', 'ch.sender', 'ch.short_code'])
    .where('c.id', '=', q.campaignId).where('c.company_id', '=', q.companyId).executeTakeFirst();
  if (!campaign) return null;
  let runs = db.selectFrom('deployments').select(['id', 'state', 'started_at', 'finished_at', 'total']).where('company_id', '=', q.companyId).where('campaign_id', '=', q.campaignId);
  if (q.deploymentId) runs = runs.where('id', '=', q.deploymentId);
  const deployments = await runs.orderBy('id').execute();
  const runIds = deployments.map((d) => Number(d.id));
  const hash = createHash('sha256');
  const byState: Record<string, number> = {};
  let count = 0;
  let after = 0;
  const step = constants.reports.fileChunkRows;
  for (;;) {
    if (!runIds.length) break;
    const page = await sql<{ id: string | number; to_number: string; state: string; status_code: number; created_at: Date; sent_at: Date | null; delivered_at: Date | null }>`
      select m.id, m.to_number, m.state, m.status_code, m.created_at, m.sent_at,
        (select min(e.at) from message_events e where e.message_id = m.id and e.delivery_status in ('DELIVERED', 'READ')) as delivered_at
      from messages m
      where m.company_id = ${q.companyId} and m.deployment_id in (${sql.join(runIds)}) and m.id > ${after}
      order by m.id limit ${step}`.execute(db);
    let lines = '';
    for (const r of page.rows) {
      lines += `${[r.id, r.to_number, r.state, r.status_code, iso(r.created_at), iso(r.sent_at) ?? '', iso(r.delivered_at) ?? ''].join(',')}\n`;
      byState[r.state] = (byState[r.state] ?? 0) + 1;
      count += 1;
    }
    hash.update(lines);
    if (keep && lines) await keep(lines);
    if (page.rows.length < step) break;
    after = Number(page.rows[page.rows.length - 1].id);
  }
  const content = contentOf(campaign.content || null, campaign.template);
  return {
    subject: { campaignId: campaign.id, name: campaign.name, deploymentId: q.deploymentId },
    campaign: {
      account: campaign.channel_id ? { id: campaign.channel_id, name: campaign.channel_name!, platform: campaign.platform!, sender: campaign.sender ?? campaign.short_code ?? null } : null,
      content, contentSha256: sha256Hex(content), createdAt: iso(campaign.created_at)!,
    },
    deployments: deployments.map((d) => ({ id: Number(d.id), state: d.state, startedAt: iso(d.started_at), finishedAt: iso(d.finished_at), total: d.total })),
    outcome: { total: count, byState: Object.fromEntries(Object.entries(byState).sort(([a], [b]) => a.localeCompare(b))) },
    rows: { count, columns: ROW_COLUMNS, sha256: hash.digest('hex') },
  } satisfies Omit<CampaignStatement, keyof StatementHead | 'kind'> & { subject: CampaignStatement['subject'] };
}

/** A number's entry on the company's block list, if it has one. */
export async function blockListEntry(db: Kysely<Database>, companyId: number, phone: string): Promise<BlockListStatement['entry']> {
  const row = await db.selectFrom('block_list').select(['created_at', 'source', 'effective_at', 'removal_requested_at', 'removal_effective_at'])
    .where('company_id', '=', companyId).where('phone', '=', phone).executeTakeFirst();
  if (!row) return null;
  return { addedAt: iso(row.created_at)!, source: row.source, effectiveAt: iso(row.effective_at)!, removalRequestedAt: iso(row.removal_requested_at), removalEffectiveAt: iso(row.removal_effective_at) };
}
