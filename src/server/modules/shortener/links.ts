// Creating short links: one (create, the campaign editor's shorten) and a file's worth (upload).
// A campaign launch's per-recipient children are the engine's (engine/campaigns/links.ts).
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { CODE_ATTEMPTS, CODE_LENGTH, checkTargetUrl, randomCode, type UrlProblem } from '../../../core/short-code.ts';
import type { OperationTypes } from '../../../generated/types.gen.ts';

type ShortLinkInput = OperationTypes['shortener.create']['args']['body'];
import { imitatedBrand } from '../../../core/possible-fraud.ts';
import type { ServerDeps, Session } from '../../context.ts';
import { failFields, fieldError } from '../../errors/api-error.ts';
import type { Database } from '../../../engine/database.ts';

export type LinkProblem = UrlProblem | 'imitatesBrand' | 'ownShortener' | 'aliasTaken';

/** Is this URL one of our own short links (under one of our base URLs)? Shortening it would loop. */
export function isOurs(url: string, bases: readonly string[]): boolean {
  return bases.some((b) => {
    const base = new URL(b);
    const u = new URL(url);
    const path = base.pathname.replace(/\/+$/, '');
    return u.host === base.host && (path === '' || u.pathname === path || u.pathname.startsWith(`${path}/`));
  });
}

/**
 * The target as stored, or the reason it is refused. `brands`: a host imitating a bank, wallet,
 * courier or the tax office is refused too (the company's fraud check, core/possible-fraud.ts).
 */
export function judgeUrl(raw: string, bases: readonly string[], brands = true): { ok: true; url: string } | { ok: false; problem: LinkProblem } {
  const check = checkTargetUrl(raw);
  if (!check.ok) return check;
  if (isOurs(check.url, bases)) return { ok: false, problem: 'ownShortener' };
  if (brands && imitatedBrand(new URL(check.url).hostname)) return { ok: false, problem: 'imitatesBrand' };
  return { ok: true, url: check.url };
}

/** Whether the company's fraud check refuses hosts that imitate a brand (every setting but off). */
async function checksBrands(db: Kysely<Database>, companyId: number): Promise<boolean> {
  const row = await db.selectFrom('messaging_settings').select('fraud_check').where('company_id', '=', companyId).executeTakeFirst();
  return (row?.fraud_check ?? 'lookalike') !== 'off';
}

function refuse(problem: LinkProblem): never {
  if (problem === 'lookAlike' || problem === 'imitatesBrand') throw failFields([fieldError('url', '99915', problem)]);
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
  const judged = judgeUrl(input.url, deps.messaging.shortBaseUrls, await checksBrands(deps.db, me.companyId));
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
  const brands = await checksBrands(db, me.companyId);
  for (const v of values) {
    const judged = judgeUrl(v.value, deps.messaging.shortBaseUrls, brands);
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

