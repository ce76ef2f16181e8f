// Creating short links: one (create, the campaign editor's shorten), a file's worth (upload), and
// the per-recipient children of a campaign launch (set-based, inside the launch's transaction).
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { findLinks } from '../../../core/message-content.ts';
import { CODE_LENGTH, checkTargetUrl, randomCode, type UrlProblem } from '../../../core/short-code.ts';
import type { OperationTypes } from '../../../generated/types.gen.ts';

type ShortLinkInput = OperationTypes['shortener.create']['args']['body'];
import type { ServerDeps, Session } from '../../context.ts';
import { fail, failFields, fieldError } from '../../errors/api-error.ts';
import type { Database } from '../../../engine/database.ts';

/** Codes tried before giving up on a random insert (62^7 codes: a second try is already rare). */
const CODE_ATTEMPTS = 8;

export type LinkProblem = UrlProblem | 'ownShortener' | 'aliasTaken';

/** Is this URL one of our own short links (under one of our base URLs)? Shortening it would loop. */
export function isOurs(url: string, bases: readonly string[]): boolean {
  return bases.some((b) => {
    const base = new URL(b);
    const u = new URL(url);
    const path = base.pathname.replace(/\/+$/, '');
    return u.host === base.host && (path === '' || u.pathname === path || u.pathname.startsWith(`${path}/`));
  });
}

/** The target as stored, or the reason it is refused. */
export function judgeUrl(raw: string, bases: readonly string[]): { ok: true; url: string } | { ok: false; problem: LinkProblem } {
  const check = checkTargetUrl(raw);
  if (!check.ok) return check;
  if (isOurs(check.url, bases)) return { ok: false, problem: 'ownShortener' };
  return { ok: true, url: check.url };
}

function refuse(problem: LinkProblem): never {
  if (problem === 'lookAlike') throw failFields([fieldError('url', '99915', problem)]);
  if (problem === 'aliasTaken') throw failFields([fieldError('alias', '99914')]);
  throw failFields([fieldError('url', '99916', problem)]);
}

interface NewLink {
  companyId: number;
  url: string;
  alias?: string;
  tags?: string[];
  batch?: string | null;
  expiresAt?: Date | null;
  createdBy: number;
  now: Date;
}

/** Inserts one link with a random code (retried on the rare collision) or its alias; null: alias taken. */
async function insertLink(db: Kysely<Database>, link: NewLink): Promise<{ id: number; code: string } | null> {
  for (let attempt = 0; attempt < (link.alias ? 1 : CODE_ATTEMPTS); attempt++) {
    const code = link.alias ?? randomCode(CODE_LENGTH);
    const row = await db.insertInto('short_links').values({
      company_id: link.companyId, code, url: link.url, alias: !!link.alias, tags: JSON.stringify(link.tags ?? []), batch: link.batch ?? null,
      expires_at: link.expiresAt ?? null, created_by: link.createdBy, created_at: link.now,
    }).onConflict((oc) => oc.column('code').doNothing()).returning(['id', 'code']).executeTakeFirst();
    if (row) return { id: Number(row.id), code: row.code };
  }
  if (link.alias) return null;
  throw new Error('shortener: no free code after several attempts');
}

/** Shortens one URL for the caller's company (create and campaignLink). */
export async function createOne(deps: ServerDeps, me: Session, input: ShortLinkInput): Promise<number> {
  const judged = judgeUrl(input.url, deps.messaging.shortBaseUrls);
  if (!judged.ok) refuse(judged.problem);
  const now = deps.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw failFields([fieldError('expiresAt', '99931', 'in the past')]);
  const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter(Boolean))];
  const created = await insertLink(deps.db, { companyId: me.companyId, url: judged.url, alias: input.alias, tags, expiresAt, createdBy: me.userId, now });
  if (!created) refuse('aliasTaken');
  deps.shortener.cache.forget(created.code);
  return created.id;
}

/** Shortens a file's URLs: one batch id, every valid row a link; the refused rows with their reason. */
export async function createMany(deps: ServerDeps, me: Session, values: { position: number; value: string }[]) {
  const batch = randomUUID();
  const now = deps.now();
  const rejected: { position: number; value: string; reason: LinkProblem }[] = [];
  const db = deps.db;
  let created = 0;
  const valid: string[] = [];
  for (const v of values) {
    const judged = judgeUrl(v.value, deps.messaging.shortBaseUrls);
    if (judged.ok) valid.push(judged.url);
    else rejected.push({ position: v.position, value: v.value.slice(0, 200), reason: judged.problem });
  }
  // One statement per 1,000 rows; the rare colliding code is retried one by one.
  for (let start = 0; start < valid.length; start += 1000) {
    const urls = valid.slice(start, start + 1000);
    const codes = urls.map(() => randomCode(CODE_LENGTH));
    const rows = await sql<{ code: string }>`
      insert into short_links (company_id, code, url, alias, tags, batch, created_by, created_at)
      select ${me.companyId}, t.code, t.url, false, '[]'::jsonb, ${batch}, ${me.userId}, ${now}::timestamptz
      from unnest(${codes}::text[], ${urls}::text[]) as t(code, url)
      on conflict (code) do nothing
      returning code`.execute(db);
    created += rows.rows.length;
    const done = new Set(rows.rows.map((r) => r.code));
    for (let i = 0; i < codes.length; i++) {
      if (done.has(codes[i])) continue;
      await insertLink(db, { companyId: me.companyId, url: urls[i], batch, createdBy: me.userId, now });
      created++;
    }
  }
  return { batch, created, rejected };
}

// ---- Campaigns ----

/** One of our short links found in a campaign's content: as written, and the company's link it names. */
export interface ContentLink { written: string; code: string; parentId: number }

/**
 * The company's short links a campaign's content carries (read before the launch's transaction).
 * A link under our base URL whose code is not one of the company's live links (another company's,
 * a child, deleted, expired, or with anything after the code) is refused like an external link
 * (99925): a campaign cannot send what would not redirect, nor count clicks in someone else's link.
 */
export async function contentLinks(deps: ServerDeps, companyId: number, content: string): Promise<ContentLink[]> {
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
      throw fail('99925', `${link.url} is not one of the company's short links.`);
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
    if (!parentId) throw fail('99925', `${f.written} is not one of the company's short links.`);
    return { ...f, parentId };
  });
}

const CHILD_BATCH = 5000;

/**
 * The per-recipient children of the content's links for these phones, created set-based inside
 * the launch's transaction (one insert and one select per link per CHILD_BATCH phones; colliding
 * codes are drawn again for the rows that did not land). A child is unique per (link, campaign,
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
        await sql`
          insert into short_links (company_id, code, url, alias, parent_id, campaign_id, phone, tags, created_by, created_at)
          select ${req.companyId}, t.code, null, false, ${parentId}::bigint, ${req.campaignId}, t.phone, '[]'::jsonb, ${req.createdBy}, ${req.now}::timestamptz
          from unnest(${missing.map(() => randomCode(CODE_LENGTH))}::text[], ${missing}::text[]) as t(code, phone)
          on conflict do nothing`.execute(db);
        const rows = await sql<{ phone: string; code: string }>`
          select phone, code from short_links
          where parent_id = ${parentId}::bigint and campaign_id = ${req.campaignId} and phone = any(${missing}::text[])`.execute(db);
        for (const r of rows.rows) codes.set(r.phone, r.code);
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
