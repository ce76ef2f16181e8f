// A campaign's short links: the company's links its content carries, and each recipient's own
// child code of every one of them, written in the launch's transaction, so a click is counted
// per recipient (the shortener's redirect, server/modules/shortener, reads the same rows).
import { sql, type Transaction } from 'kysely';
import { findLinks } from '../../core/message-content.ts';
import { CODE_ATTEMPTS, CODE_LENGTH, randomCode } from '../../core/short-code.ts';
import { refuse } from '../refused.ts';
import type { CampaignDeps } from './deps.ts';

/** One of our short links found in a campaign's content: as written, and the company's link it names. */
export interface ContentLink { written: string; code: string; parentId: number }

/**
 * The company's short links a campaign's content carries (read before the launch's transaction).
 * A link under our base URL whose code is not one of the company's live links (another company's,
 * a child, deleted, expired, or with anything after the code) is refused like an external link
 * (99925): a campaign cannot send what would not redirect, nor count clicks in someone else's link.
 */
export async function contentLinks(deps: Pick<CampaignDeps, 'db' | 'now'> & { messaging: Pick<CampaignDeps['messaging'], 'shortBaseUrls'> }, companyId: number, content: string): Promise<ContentLink[]> {
  const bases = deps.messaging.shortBaseUrls;
  const found: { written: string; code: string }[] = [];
  for (const link of findLinks(content)) {
    const url = /^https?:\/\//i.test(link.url) ? link.url : `https://${link.url}`;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    const base = bases.map((b) => new URL(b)).find((b) => b.hostname === parsed.hostname.replace(/^www\./, '') || b.hostname === parsed.hostname);
    if (!base) continue;
    const prefix = base.pathname.replace(/\/+$/, '');
    const code = parsed.pathname.slice(prefix.length + 1);
    if (!parsed.pathname.startsWith(`${prefix}/`) || !/^[0-9A-Za-z]+$/.test(code) || parsed.search || parsed.hash || !link.url.endsWith(code)) {
      throw refuse('99925', `${link.url} is not one of the company's short links.`);
    }
    found.push({ written: link.url, code });
  }
  if (!found.length) return [];
  const now = deps.now();
  const rows = await deps.db.selectFrom('short_links').select(['id', 'code'])
    .where('company_id', '=', companyId).where('parent_id', 'is', null).where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where('code', 'in', [...new Set(found.map((f) => f.code))]).execute();
  const byCode = new Map(rows.map((r) => [r.code, Number(r.id)]));
  return found.map((f) => {
    const parentId = byCode.get(f.code);
    if (!parentId) throw refuse('99925', `${f.written} is not one of the company's short links.`);
    return { ...f, parentId };
  });
}

const CHILD_BATCH = 5000;

/**
 * The per-recipient children of the content's links for these phones, created set-based inside
 * the launch's transaction (one insert per link per CHILD_BATCH phones, answering the codes that
 * landed; the phones that did not land are looked up, and colliding codes drawn again). A child is unique per (link, campaign,
 * phone): launching the campaign again sends each recipient the same code, so the engine's
 * duplicate rule (same number and text) still sees the same text.
 * Answers code per link per phone. Only `trx` is used: PGlite has one connection.
 */
export async function childCodes<T>(
  trx: Transaction<T>, req: { companyId: number; campaignId: number; createdBy: number; now: Date; links: ContentLink[]; phones: string[] },
): Promise<Map<number, Map<string, string>>> {
  const db = trx;
  const out = new Map<number, Map<string, string>>();
  const phones = [...new Set(req.phones)];
  for (const parentId of new Set(req.links.map((l) => l.parentId))) {
    const codes = new Map<string, string>();
    for (let start = 0; start < phones.length; start += CHILD_BATCH) {
      let missing = phones.slice(start, start + CHILD_BATCH);
      for (let attempt = 0; missing.length && attempt < CODE_ATTEMPTS; attempt++) {
        // The rows that landed answer their codes; only a phone that did not land (its child exists
        // from an earlier launch, or its drawn code was taken) is looked up.
        const landed = await sql<{ phone: string; code: string }>`
          insert into short_links (company_id, code, url, alias, parent_id, campaign_id, phone, tags, created_by, created_at)
          select ${req.companyId}, t.code, null, false, ${parentId}::bigint, ${req.campaignId}, t.phone, '[]'::jsonb, ${req.createdBy}, ${req.now}::timestamptz
          from unnest(${missing.map(() => randomCode(CODE_LENGTH))}::text[], ${missing}::text[]) as t(code, phone)
          on conflict do nothing
          returning phone, code`.execute(db);
        for (const r of landed.rows) codes.set(r.phone, r.code);
        missing = missing.filter((p) => !codes.has(p));
        if (!missing.length) break;
        const existing = await sql<{ phone: string; code: string }>`
          select phone, code from short_links
          where parent_id = ${parentId}::bigint and campaign_id = ${req.campaignId} and phone = any(${missing}::text[])`.execute(db);
        for (const r of existing.rows) codes.set(r.phone, r.code);
        missing = missing.filter((p) => !codes.has(p));
      }
      if (missing.length) throw new Error('shortener: no free codes for per-recipient links');
    }
    out.set(parentId, codes);
  }
  return out;
}

/** The message for one recipient: each of our links written with the recipient's own code. */
export function personalise(body: string, links: ContentLink[], codes: Map<number, Map<string, string>>, phone: string): string {
  let out = body;
  for (const link of links) {
    const code = codes.get(link.parentId)?.get(phone);
    // Not inside a longer code: "…/s/abc" must not rewrite "…/s/abcd".
    if (code) out = out.replace(new RegExp(`${link.written.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9A-Za-z])`, 'g'), () => link.written.slice(0, link.written.length - link.code.length) + code);
  }
  return out;
}
