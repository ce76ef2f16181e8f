// The rows of a big file the summary does not stage (past previewStagedMax), each priced as the
// launch would price it: its message rendered with the launch's own renderer (messagesOf, its
// short links at their codes' length), priced by its channel type (messageCost: SMS by parts),
// and refused by the same rules the launch applies — the block list (its SQL predicate,
// core/block-list.ts entryBlocksSql), an empty template parameter, the same text already sent to
// the number within the duplicate window. So the credits of a 50,000-row file are the sum of
// its messages, not the first rows' average scaled (which read 2.5 % low when later rows held
// longer values). The staged rows stay the launch itself, rolled back (preview.ts).
import { sql, type Kysely } from 'kysely';
import { entryBlocksSql, sqlInstant } from '../../core/block-list.ts';
import { nonGsmCharacters } from '../../core/sms-parts.ts';
import { CODE_LENGTH } from '../../core/short-code.ts';
import type { ChannelPlatform } from '../channel-adapter.ts';
import type { Database } from '../database.ts';
import { messageCost, type EnqueueItem } from '../lifecycle/index.ts';
import type { CampaignDeps } from './deps.ts';
import { messagesOf, sendableChunk, type LaunchCampaign } from './launch-plan.ts';
import type { ContentLink } from './links.ts';
import { whatsappLaunchItems } from './whatsapp.ts';

/** Rows read and priced at a time. */
const PRICING_CHUNK = 5_000;

export interface PricedRows {
  /** Messages that would go (not refused). */
  going: number;
  credits: number;
  parts: number;
  partsMin: number;
  partsMax: number;
  blocked: number;
  duplicates: number;
  emptyParameters: number;
  encodings: Set<string>;
  /** Characters the file's values bring that force UCS-2, and the rows that bring any. */
  ucs2Characters: Set<string>;
  ucs2Rows: number;
}

/** JSON with sorted keys: a template's parameters compare as PostgreSQL's jsonb does. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value ?? null);
}

const blankParameter = (item: EnqueueItem) => {
  const parameters = item.template?.parameters as unknown;
  const values = Array.isArray(parameters) ? parameters : parameters && typeof parameters === 'object' ? Object.values(parameters) : [];
  return values.some((v) => typeof v === 'string' && v.trim() === '');
};

/**
 * The rows after `afterRow` (row_no) of the file, priced. `links`: the campaign's short links,
 * each recipient's code written at its length (a random alphanumeric code of CODE_LENGTH: the
 * same characters and parts as the launch's).
 */
export async function priceRowsAfter(
  deps: Pick<CampaignDeps, 'db' | 'now'>,
  plan: { campaign: LaunchCampaign; companyId: number; channel: { id: number; platform: ChannelPlatform }; fileId: number; links: ContentLink[]; duplicateWindowHours: number },
  afterRow: number,
): Promise<PricedRows> {
  const { campaign, channel, links } = plan;
  const now = deps.now();
  const out: PricedRows = { going: 0, credits: 0, parts: 0, partsMin: 0, partsMax: 0, blocked: 0, duplicates: 0, emptyParameters: 0, encodings: new Set(), ucs2Characters: new Set(), ucs2Rows: 0 };
  const own = new Set(nonGsmCharacters(campaign.content));
  // Each link written with a code of its real length (the launch draws a random one per recipient).
  const withCodes = links.length
    ? (body: string) => links.reduce((text, link) => text.split(link.written).join(link.written.slice(0, link.written.length - link.code.length) + 'x'.repeat(CODE_LENGTH)), body)
    : undefined;
  for (let cursor = afterRow; ;) {
    const rows = await sendableChunk(deps.db, plan.fileId, cursor, PRICING_CHUNK);
    if (!rows.length) return out;
    cursor = rows[rows.length - 1].row_no;
    const templateItems = await whatsappLaunchItems(deps, campaign, channel, rows).catch(() => null);
    const items = messagesOf(campaign, rows, templateItems, withCodes);
    const phones = [...new Set(items.map((i) => i.to))];
    const blocked = await blockedAmong(deps.db, plan.companyId, phones, now);
    // Per-recipient short links make every text new: nothing of it was sent before.
    const sent = plan.duplicateWindowHours > 0 && !links.length ? await sentWithin(deps.db, plan.companyId, phones, new Date(now.getTime() - plan.duplicateWindowHours * 3_600_000)) : new Set<string>();
    for (const item of items) {
      if (blocked.has(item.to)) { out.blocked++; continue; }
      if (item.template && blankParameter(item)) { out.emptyParameters++; continue; }
      if (sent.has(`${item.to}\n${item.body ?? ''}\n${stableJson(item.template ?? null)}`)) { out.duplicates++; continue; }
      const price = messageCost(channel.platform, item.body);
      out.going++;
      out.credits += price.cost;
      out.parts += price.parts;
      out.partsMin = out.partsMin === 0 ? price.parts : Math.min(out.partsMin, price.parts);
      out.partsMax = Math.max(out.partsMax, price.parts);
      if (price.encoding) out.encodings.add(price.encoding);
      if (price.encoding === 'UCS-2' && item.body) {
        const added = nonGsmCharacters(item.body).filter((ch) => !own.has(ch));
        if (added.length) out.ucs2Rows++;
        for (const ch of added) out.ucs2Characters.add(ch);
      }
    }
  }
}

/** The numbers among `phones` the company's block list stops now (the launch's rule, in its SQL). */
async function blockedAmong(db: Kysely<Database>, companyId: number, phones: string[], now: Date): Promise<Set<string>> {
  if (!phones.length) return new Set();
  const rows = await sql<{ phone: string }>`select distinct b.phone from block_list b
    where b.company_id = ${companyId} and b.phone = any(${phones}::text[]) and ${sql.raw(entryBlocksSql('b', sqlInstant(now)))}`.execute(db);
  return new Set(rows.rows.map((r) => r.phone));
}

/** What was sent to `phones` since `since` (number, text and template), as the duplicate rule compares them. */
async function sentWithin(db: Kysely<Database>, companyId: number, phones: string[], since: Date): Promise<Set<string>> {
  if (!phones.length) return new Set();
  const rows = await sql<{ to_number: string; body: string | null; template: unknown }>`select p.to_number, p.body, p.template from messages p
    where p.company_id = ${companyId} and p.to_number = any(${phones}::text[]) and p.created_at >= ${since}
      and p.state not in ('rejected', 'cancelled') and p.source <> 'test'`.execute(db);
  return new Set(rows.rows.map((r) => `${r.to_number}\n${r.body ?? ''}\n${stableJson(r.template ?? null)}`));
}
