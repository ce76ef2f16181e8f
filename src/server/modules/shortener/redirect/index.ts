// The link shortener inside the server: its base URL, the public redirect, the link cache and the
// click queue (ARCHITECTURE: the redirect is the only public, unauthenticated hot path).
//
// Base URL: SHORT_BASE_URL (e.g. https://clb.co, a short domain that a proxy sends here) or, by
// default, this server's own origin + "/s". Short URLs are base + "/" + code. The redirect is
// served at the base's path (GET /s/{code}); a base at the root of a host ("https://clb.co")
// serves GET /{code} for that host only, so it never shadows the console's routes.
//
// Redirect: 302 (never 301: browsers cache a 301 and repeat clicks would go uncounted), no body,
// `cache-control: no-store`, `referrer-policy: no-referrer` (the target never sees the code). A
// hit is answered from the cache without touching the database; the click is pushed onto the
// queue (what it knows: the address, user agent and Referer are digested when written) and
// written later in batches, off the hot path (clicks.ts). Bots are recorded, marked and left out of the counts.
// HEAD requests (link previews) are answered but not counted. Unknown, expired and deleted codes
// get the same plain 404 page in Spanish and English: it names no company, and nothing in the
// answer tells an expired code from one that never existed. When a miss cannot reach the
// database within lookupTimeoutMs the answer is a plain 503 (retry-after), never a hang.
import { addressOrigin } from '../../../http/public-origin.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { isShortCode, shortUrlOf } from '../../../../core/short-code.ts';
import type { Database } from '../../../../engine/database.ts';
import { deviceClass } from './bots.ts';
import { LinkCache, type CachedLink, type LinkCacheOptions } from './cache.ts';
import { ClickQueue, databaseClickWriter, type ClickQueueOptions, type ClickWriter } from './clicks.ts';
import { wordsFor } from '../../../i18n/document-words.ts';

export interface ShortenerOptions {
  db: Kysely<Database>;
  now?: () => Date;
  /** SHORT_BASE_URL; default: this server's origin + "/s". */
  baseUrl?: string;
  cache?: LinkCacheOptions;
  clicks?: ClickQueueOptions;
  /** Replaces the database click writer (tests of a failing database). */
  clickWriter?: ClickWriter;
  /** False: redirects record no click (the benchmark's measure of what tracking costs). */
  track?: boolean;
  lookupTimeoutMs?: number;
  log?: (message: string, detail?: unknown) => void;
}

export interface Shortener {
  /** The base of short URLs, without a trailing slash. */
  baseUrl(): string;
  shortUrl(code: string): string;
  cache: LinkCache;
  clicks: ClickQueue;
  /** Registers the redirect route and the shutdown flush on a Fastify instance. */
  /** Serves the redirect on `app`; `config` goes to the route's options (e.g. its rate limit). */
  register(app: FastifyInstance, config?: Record<string, unknown>): void;
  close(): Promise<void>;
}

const DEFAULT_PATH = '/s';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's shortener (tests and the benchmark flush its clicks and read its counters). */
    shortener: Shortener;
  }
}

function parseBase(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`SHORT_BASE_URL is not a URL: ${raw}`);
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.search || u.hash || u.username) {
    throw new Error(`SHORT_BASE_URL must be an http(s) URL without query, fragment or credentials: ${raw}`);
  }
  return u;
}

const text = (key: string) => ({ es: wordsFor('es').screenText(key), en: wordsFor('en').screenText(key) });

function page(titleKey: string, hintKey: string): string {
  const title = text(titleKey);
  const hint = text(hintKey);
  return '<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${title.es} · ${title.en}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:15vh auto;padding:0 1.5rem;color:#222;line-height:1.5}h1,h2{font-size:1.3rem}hr{border:0;border-top:1px solid #ddd;margin:2rem 0}</style>' +
    `</head><body><main><h1>${title.es}</h1><p>${hint.es}</p><hr><section lang="en"><h2>${title.en}</h2><p>${hint.en}</p></section></main></body></html>`;
}

const NOT_FOUND = page('shortLink.notFoundTitle', 'shortLink.notFoundHint');
const UNAVAILABLE = page('shortLink.unavailableTitle', 'shortLink.unavailableHint');

function plainPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(html);
}

export function createShortener(options: ShortenerOptions): Shortener {
  const now = options.now ?? (() => new Date());
  const db = options.db;
  const log = options.log ?? (() => {});
  const configured = options.baseUrl ? parseBase(options.baseUrl) : null;
  const routePath = configured ? configured.pathname.replace(/\/+$/, '') : DEFAULT_PATH;
  const track = options.track ?? true;
  const lookupTimeoutMs = options.lookupTimeoutMs ?? 5000;
  let app: FastifyInstance | null = null;

  const baseUrl = (): string => {
    if (configured) return configured.href.replace(/\/+$/, '');
    return `${addressOrigin(app)}${DEFAULT_PATH}`;
  };

  const cache = new LinkCache(async (codes) => {
    const rows = await sql<{ code: string; id: string | number; root_id: string | number; company_id: number; campaign_id: number | null; url: string; expires_at: Date | null; gone: boolean }>`
      select l.code, l.id, coalesce(l.parent_id, l.id) as root_id, l.company_id, l.campaign_id, coalesce(p.url, l.url) as url,
             case when l.parent_id is null then l.expires_at else p.expires_at end as expires_at,
             (l.deleted_at is not null or p.deleted_at is not null) as gone
      from short_links l left join short_links p on p.id = l.parent_id
      where l.code = any(${codes}::text[])`.execute(db);
    return new Map(rows.rows.map((r): [string, CachedLink] => [r.code, {
      linkId: Number(r.id), rootId: Number(r.root_id), companyId: r.company_id, campaignId: r.campaign_id, url: r.url,
      expiresAt: r.expires_at ? new Date(r.expires_at).getTime() : null, gone: r.gone,
    }]));
  }, { now: () => now().getTime(), log, ...options.cache });

  const clicks = new ClickQueue(options.clickWriter ?? databaseClickWriter(db), { log, ...options.clicks });

  const answer = (request: FastifyRequest, reply: FastifyReply, link: CachedLink | null): FastifyReply => {
    const at = now();
    if (!link || link.gone || (link.expiresAt !== null && link.expiresAt <= at.getTime())) return plainPage(reply, 404, NOT_FOUND);
    if (track && request.method === 'GET') {
      const ua = request.headers['user-agent'];
      clicks.push({
        linkId: link.linkId, rootId: link.rootId, companyId: link.companyId, campaignId: link.campaignId, at: at.getTime(),
        device: deviceClass(ua), ip: request.ip, userAgent: ua ?? '', referer: request.headers.referer ?? null,
      });
    }
    return reply.code(302).header('location', link.url).header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer').send();
  };

  const redirect = (request: FastifyRequest<{ Params: { code: string } }>, reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
    const code = request.params.code;
    if (!isShortCode(code)) return plainPage(reply, 404, NOT_FOUND);
    const hit = cache.peek(code);
    if (hit !== undefined) return answer(request, reply, hit);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), lookupTimeoutMs);
    });
    return Promise.race([cache.resolve(code), timeout]).then(
      (link) => (link === 'timeout' ? plainPage(reply.header('retry-after', '5'), 503, UNAVAILABLE) : answer(request, reply, link)),
      (error: Error) => {
        log('shortener: lookup failed', { error: error.message });
        return plainPage(reply.header('retry-after', '5'), 503, UNAVAILABLE);
      },
    ).finally(() => clearTimeout(timer));
  };

  return {
    baseUrl,
    shortUrl: (code) => shortUrlOf(baseUrl(), code),
    cache,
    clicks,
    register(instance, config) {
      app = instance;
      instance.decorate('shortener', this);
      const constraints = configured && routePath === '' ? { host: configured.host } : undefined;
      instance.route({ method: 'GET', url: `${routePath}/:code`, ...(constraints ? { constraints } : {}), ...(config ? { config } : {}), logLevel: 'warn', handler: redirect });
      instance.addHook('onClose', async () => clicks.close());
    },
    close: () => clicks.close(),
  };
}
