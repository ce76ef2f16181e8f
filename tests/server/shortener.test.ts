// The link shortener on the database (PGlite, or PostgreSQL with DATABASE_URL): create, redirect,
// count, bots, expiry, alias collisions, hostile URLs, files of URLs, statistics, another
// company's links, per-recipient links at a campaign launch and its opens, and the redirect's
// promises: answered from the cache while the database is locked, clicks queued and never lost on
// a clean shutdown.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { calendarDate } from '../../src/core/date-range.ts';
import { describe, expect, it, vi } from 'vitest';
import { buildServer } from '../../src/server/app.ts';
import { ClickQueue, databaseClickWriter } from '../../src/server/modules/shortener/redirect/clicks.ts';
import { referrerHost, visitorOf } from '../../src/server/modules/shortener/redirect/visitor.ts';
import { fileHarness, signedIn } from './file-harness.ts';
import { multipart } from './harness.ts';
import { otherCompany, userWithGrants } from './messaging-fixtures.ts';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

const h = fileHarness();
const tokens = signedIn(h, 'platform', 'manager');

const shorten = (body: Record<string, unknown>, token = tokens.platform) => h.op('shortener.create', { token, body });
const visit = (app: FastifyInstance, code: string, headers: Record<string, string> = { 'user-agent': BROWSER }, method: 'GET' | 'HEAD' = 'GET') =>
  app.inject({ method, url: `/s/${code}`, headers });
const flush = () => h.app.shortener.clicks.flush();

describe('shortening', () => {
  it('answers a random [0-9A-Za-z] code and the short URL under the base', async () => {
    const res = await shorten({ url: 'https://tienda.example.com/promo?utm=sms', tags: ['navidad'] });
    expect(res.statusCode).toBe(200);
    const link = res.json();
    expect(link.code).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(link).toMatchObject({ shortUrl: `http://localhost/s/${link.code}`, url: 'https://tienda.example.com/promo?utm=sms', alias: false, tags: ['navidad'], clicks: 0, expired: false });
    const again = (await shorten({ url: 'https://tienda.example.com/promo?utm=sms' })).json();
    expect(again.code).not.toBe(link.code);
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: link.id } })).json()).toEqual(link);
  });

  it('takes an alias once, across companies', async () => {
    expect((await shorten({ url: 'https://example.com/a', alias: 'Promo2025' })).json()).toMatchObject({ code: 'Promo2025', alias: true });
    expect((await shorten({ url: 'https://example.com/b', alias: 'Promo2025' })).json()).toMatchObject({ code: '99914', errors: [{ field: 'alias' }] });
    const other = await otherCompany(h);
    await h.db.insertInto('user_roles').values({
      user_id: (await h.db.selectFrom('users').select('id').where('company_id', '=', other.companyId).executeTakeFirstOrThrow()).id,
      role_id: (await h.db.selectFrom('roles').select('id').where('name', '=', 'platform').where('company_id', 'is', null).executeTakeFirstOrThrow()).id,
    }).execute();
    const { token } = await h.signin((await h.db.selectFrom('users').select('email').where('company_id', '=', other.companyId).executeTakeFirstOrThrow()).email);
    expect((await shorten({ url: 'https://example.com/c', alias: 'Promo2025' }, token)).json().code).toBe('99914');
    // Case matters: codes are case-sensitive, like the random ones.
    expect((await shorten({ url: 'https://example.com/d', alias: 'promo2025' })).statusCode).toBe(200);
    for (const alias of ['ab', 'con espacio', 'año', 'x'.repeat(17), 'a-b']) {
      const res = await shorten({ url: 'https://example.com/e', alias });
      expect(res.statusCode, alias).toBe(400);
      expect(res.json().errors[0].field).toBe('alias');
    }
  });

  it.each([
    ['javascript:alert(document.cookie)', '99916', 'scheme'],
    ['JAVASCRIPT:alert(1)', '99916', 'scheme'],
    ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', '99916', 'scheme'],
    ['ftp://files.example.com/a', '99916', 'scheme'],
    ['tienda.example.com', '99916', 'invalid'],
    ['https://www.bancolombia.com.co@evil.example/login', '99916', 'credentials'],
    [`https://example.com/${'a'.repeat(2100)}`, '99916', 'tooLong'],
    ['https://pаypal.com/login', '99915', 'lookAlike'],
    ['https://аррӏе.com/', '99915', 'lookAlike'],
    ['http://localhost/s/abcdefg', '99916', 'ownShortener'],
  ])('refuses %s', async (url, code, reason) => {
    const before = await h.count('files');
    const res = await shorten({ url });
    expect(res.json()).toMatchObject({ code, errors: [{ field: 'url' }] });
    expect(res.json().errors[0].message).toContain(reason);
    expect(await h.count('files')).toBe(before);
  });

  it('refuses an expiry in the past and a URL longer than the body allows', async () => {
    expect((await shorten({ url: 'https://example.com', expiresAt: new Date(h.clock.now.getTime() - 1000).toISOString() })).json())
      .toMatchObject({ code: '99931', errors: [{ field: 'expiresAt' }] });
    expect((await shorten({ url: `https://example.com/${'a'.repeat(5000)}` })).statusCode).toBe(400);
  });

  it('keeps an international host in punycode and shows it in Unicode', async () => {
    const link = (await shorten({ url: 'https://münchen.de/angebot' })).json();
    expect(link).toMatchObject({ url: 'https://xn--mnchen-3ya.de/angebot', displayUrl: 'https://münchen.de/angebot' });
    expect((await visit(h.app, link.code)).headers.location).toBe('https://xn--mnchen-3ya.de/angebot');
  });

  it('is for the platform role (5001) and, through the campaign editor, for whoever writes campaigns (2001)', async () => {
    const statsOnly = await userWithGrants(h, [{ id: 5002, actions: ['view', 'report'] }]);
    expect((await shorten({ url: 'https://example.com' }, tokens.manager)).json().code).toBe('99982');
    expect((await h.op('shortener.list', { token: tokens.manager })).json().code).toBe('99982');
    expect((await h.op('shortener.statistics', { token: tokens.manager })).json().code).toBe('99982');
    expect((await h.op('shortener.statistics', { token: statsOnly })).statusCode).toBe(200);
    expect((await shorten({ url: 'https://example.com' }, statsOnly)).json().code).toBe('99982');
    const viaCampaign = await h.op('shortener.campaignLink', { token: tokens.manager, body: { url: 'https://tienda.example.com/campana' } });
    expect(viaCampaign.statusCode).toBe(200);
    expect(viaCampaign.json().code).toMatch(/^[0-9A-Za-z]{7}$/);
    expect((await h.op('shortener.campaignLink', { token: statsOnly, body: { url: 'https://example.com' } })).json().code).toBe('99982');
    expect((await h.op('shortener.campaignLink', { token: tokens.manager, body: { url: 'javascript:alert(1)' } })).json().code).toBe('99916');
  });
});

describe('redirect', () => {
  it('answers 302 to the target, counts people, marks bots, ignores HEAD', async () => {
    const link = (await shorten({ url: 'https://tienda.example.com/contar' })).json();
    const queue = h.app.shortener.clicks;
    const writtenBefore = queue.stats.written;
    const queuedBefore = queue.pending;
    const res = await visit(h.app, link.code, { 'user-agent': BROWSER, referer: 'https://www.facebook.com/some/post' });
    expect(res.statusCode).toBe(302);
    expect(res.headers).toMatchObject({ location: 'https://tienda.example.com/contar', 'cache-control': 'private, no-store', 'referrer-policy': 'no-referrer' });
    expect(res.body).toBe('');
    await visit(h.app, link.code, { 'user-agent': BROWSER });
    await visit(h.app, link.code, { 'user-agent': DESKTOP });
    await visit(h.app, link.code, { 'user-agent': 'WhatsApp/2.23.20.0 A' });
    await visit(h.app, link.code, { 'user-agent': 'curl/8.5.0' });
    await visit(h.app, link.code, { 'user-agent': '' });
    expect((await visit(h.app, link.code, { 'user-agent': BROWSER }, 'HEAD')).statusCode).toBe(302);
    // Every GET went to the click queue (HEAD did not); the queue writes them, on its timer or
    // when flushed (a database read here would race the queue's timer on a slow run). `pending`
    // counts a batch being written and `size` does not: on PostgreSQL an earlier test's click still
    // being written at the first reading, then counted as written, made this 7.
    expect(queue.pending - queuedBefore + queue.stats.written - writtenBefore).toBe(6);
    await flush();
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: link.id } })).json()).toMatchObject({ clicks: 3, unique: 2, bots: 3 });
    const byDevice = (await h.op('shortener.statistics', { token: tokens.platform, query: { groupBy: 'device', linkId: link.id } })).json();
    expect(byDevice.items).toEqual([
      { key: 'bot', clicks: 0, unique: 0, bots: 3 },
      { key: 'mobile', clicks: 2, unique: 1, bots: 0 },
      { key: 'desktop', clicks: 1, unique: 1, bots: 0 },
    ].sort((a, b) => b.clicks - a.clicks || a.key.localeCompare(b.key)));
    const byReferrer = (await h.op('shortener.statistics', { token: tokens.platform, query: { groupBy: 'referrer', linkId: link.id } })).json();
    expect(byReferrer.items).toContainEqual({ key: 'facebook.com', clicks: 1, unique: 1, bots: 0 });
    expect(byReferrer.totals).toEqual({ clicks: 3, unique: 2, bots: 3 });
  });

  it('writes every column of a batch as it was held: any referrer host, no campaign, batches that span chunks', async () => {
    // The database writer sends each column as an array literal and the strings as one text[]:
    // a host with quotes, commas and braces, and the text NULL, come back as sent.
    const queue = new ClickQueue(databaseClickWriter(h.db), { intervalMs: 3_600_000, maxBatch: 7_000 });
    const linkId = 9_000_000_001;
    const referers = ['foo://a"b,}{NULL/p', 'foo://NULL/p', 'https://www.señal.co/p', null];
    const at = Date.parse('2026-03-01T15:04:05.678Z');
    const n = 8_192 + 50; // two chunks, two batches, one of them across the chunks' seam
    for (let i = 0; i < n; i++) {
      queue.push({
        linkId: linkId + (i % 3), rootId: linkId, companyId: 1, campaignId: i % 5 === 0 ? 77 : null, at: at + i,
        device: i % 2 ? 'bot' : 'mobile', ip: `181.49.${i % 7}.9`, userAgent: 'Mozilla/5.0', referer: referers[i % referers.length],
      });
    }
    await queue.close();
    expect(queue.stats.written).toBe(n);
    expect(referers.map(referrerHost)).toEqual(['a"b,}{NULL', 'NULL', 'xn--seal-hqa.co', null]);
    const rows = await sql<{ link_id: string; campaign_id: number | null; at: Date; bot: boolean; device: string; referrer: string | null; visitor: string }>`
      select link_id, campaign_id, at, bot, device, referrer, visitor from short_link_clicks where root_id = ${linkId} order by at`.execute(h.db);
    expect(rows.rows).toHaveLength(n);
    for (const i of [0, 1, 2, 3, 4, 5, 6999, 7000, 8191, 8192, n - 1]) {
      const row = rows.rows[i];
      expect({ ...row, link_id: Number(row.link_id), at: row.at.getTime() }, `row ${i}`).toEqual({
        link_id: linkId + (i % 3), campaign_id: i % 5 === 0 ? 77 : null, at: at + i, bot: i % 2 === 1,
        device: i % 2 ? 'bot' : 'mobile', referrer: referrerHost(referers[i % referers.length]), visitor: visitorOf(`181.49.${i % 7}.9`, 'Mozilla/5.0'),
      });
    }
    await sql`delete from short_link_clicks where root_id = ${linkId}`.execute(h.db);
  });

  it('answers the same plain 404 page in Spanish and English for unknown, malformed, expired and deleted codes', async () => {
    const expiring = (await shorten({ url: 'https://example.com/vence', expiresAt: new Date(h.clock.now.getTime() + 3_600_000).toISOString() })).json();
    const deleted = (await shorten({ url: 'https://example.com/borrado' })).json();
    expect((await visit(h.app, expiring.code)).statusCode).toBe(302);
    expect((await visit(h.app, deleted.code)).statusCode).toBe(302);
    expect((await h.op('shortener.delete', { token: tokens.platform, params: { id: deleted.id } })).json()).toEqual({ ok: true });
    h.clock.advance(2 * 3_600_000);
    const pages = [];
    for (const code of ['zzzzzzz', 'a', '..%2F..%2Fetc', 'año', expiring.code, deleted.code]) {
      const res = await visit(h.app, code);
      expect(res.statusCode, code).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      pages.push(res.body);
    }
    expect(new Set(pages).size).toBe(1);
    expect(pages[0]).toMatch(/lang="es"/);
    expect(pages[0]).toMatch(/lang="en"/);
    expect(pages[0]).not.toMatch(/Demo|S\.A\.S|colibri|example\.com/i);
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: expiring.id } })).json().expired).toBe(true);
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: deleted.id } })).json().code).toBe('99959');
    expect((await h.op('shortener.delete', { token: tokens.platform, params: { id: deleted.id } })).json().code).toBe('99959');
  });
});

describe('company scoping', () => {
  it("never shows, counts or deletes another company's link", async () => {
    const mine = (await shorten({ url: 'https://example.com/mio' })).json();
    await visit(h.app, mine.code);
    await flush();
    const other = await otherCompany(h);
    const userId = (await h.db.selectFrom('users').select('id').where('company_id', '=', other.companyId).executeTakeFirstOrThrow()).id;
    const platformRole = (await h.db.selectFrom('roles').select('id').where('name', '=', 'platform').where('company_id', 'is', null).executeTakeFirstOrThrow()).id;
    await h.db.insertInto('user_roles').values({ user_id: userId, role_id: platformRole }).execute();
    const email = (await h.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow()).email;
    const { token } = await h.signin(email);
    expect((await h.op('shortener.get', { token, params: { id: mine.id } })).json().code).toBe('99959');
    expect((await h.op('shortener.delete', { token, params: { id: mine.id } })).json().code).toBe('99959');
    expect((await h.op('shortener.list', { token })).json()).toMatchObject({ items: [], total: 0 });
    expect((await h.op('shortener.statistics', { token, query: { groupBy: 'link' } })).json()).toEqual({ items: [], totals: { clicks: 0, unique: 0, bots: 0 } });
    expect((await h.op('shortener.statistics', { token, query: { groupBy: 'link', linkId: mine.id } })).json().totals.clicks).toBe(0);
    // Still alive for its owner.
    expect((await visit(h.app, mine.code)).statusCode).toBe(302);
  });
});

describe('files of URLs and reports', () => {
  it('shortens a CSV of URLs into one batch and lists the refused rows', async () => {
    const file = multipart('file', 'enlaces.csv', 'text/csv', Buffer.from('url\nhttps://a.example.com/1\njavascript:alert(1)\n\nhttps://b.example.com/2\nhttps://pаypal.com\n', 'utf8'));
    const res = await h.op('shortener.upload', { token: tokens.platform, ...file });
    expect(res.statusCode).toBe(200);
    const result = res.json();
    expect(result).toMatchObject({ created: 2, rejectedTotal: 2, rejected: [{ position: 3, reason: 'scheme' }, { position: 6, reason: 'lookAlike' }] });
    const listed = (await h.op('shortener.list', { token: tokens.platform, query: { batch: result.batch, sort: 'url', order: 'asc' } })).json();
    expect(listed.items.map((l: { url: string }) => l.url)).toEqual(['https://a.example.com/1', 'https://b.example.com/2']);
    expect((await h.op('shortener.upload', { token: tokens.platform, ...multipart('file', 'x.csv', 'text/csv', Buffer.alloc(0)) })).json().code).toBe('99932');
    expect((await h.op('shortener.upload', { token: tokens.manager, ...file })).json().code).toBe('99982');
  });

  it('lists by tag and search, and refuses bad report dates', async () => {
    const tagged = (await h.op('shortener.list', { token: tokens.platform, query: { tag: 'navidad' } })).json();
    expect(tagged.items.every((l: { tags: string[] }) => l.tags.includes('navidad'))).toBe(true);
    expect(tagged.total).toBeGreaterThanOrEqual(1);
    expect((await h.op('shortener.list', { token: tokens.platform, query: { q: 'münchen' } })).json().total).toBe(0);
    expect((await h.op('shortener.list', { token: tokens.platform, query: { q: 'xn--mnchen' } })).json().total).toBe(1);
    // Today in Bogotá, as the server counts days (the UTC date is tomorrow there from 19:00).
    const today = calendarDate(h.clock.now, 'America/Bogota');
    expect((await h.op('shortener.statistics', { token: tokens.platform, query: { dateStart: '2999-01-01', dateEnd: '2999-01-02' } })).json().code).toBe('99962');
    expect((await h.op('shortener.statistics', { token: tokens.platform, query: { dateStart: '2025-02-01', dateEnd: '2025-01-01' } })).json().code).toBe('99958');
    const days = (await h.op('shortener.statistics', { token: tokens.platform, query: { groupBy: 'day', dateStart: '2025-01-01', dateEnd: today } })).json();
    expect(days.items.length).toBeGreaterThanOrEqual(1);
    expect(days.items[0].key).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('campaigns', () => {
  it('gives each recipient their own code at launch and counts the opens', async () => {
    const channels = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json();
    const link = (await h.op('shortener.campaignLink', { token: tokens.manager, body: { url: 'https://tienda.example.com/oferta' } })).json();
    const content = `Hola {{nombre}}, mira ${link.shortUrl} hoy`;
    const campaign = (await h.op('campaigns.create', { token: tokens.manager, body: { name: 'Con enlace corto', kind: 'open', purpose: 'transactional', channelId: channels.items[0].id, content } })).json();
    expect(campaign.id).toBeGreaterThan(0);
    const file = multipart('file', 'c.csv', 'text/csv', Buffer.from('telefono;nombre\n3001230001;Ana\n3001230002;Luis\n3001230003;Eva\n', 'utf8'));
    expect((await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaign.id }, ...file })).statusCode).toBe(200);
    expect((await h.op('campaigns.preview', { token: tokens.manager, params: { id: campaign.id } })).json().refusedLinks).toEqual([]);
    const deployment = (await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaign.id } })).json();
    expect(deployment.total).toBe(3);

    const messages = await h.db.selectFrom('messages').select(['to_number', 'body']).where('deployment_id', '=', deployment.id).orderBy('to_number').execute();
    const codes = messages.map((m) => /\/s\/([0-9A-Za-z]+) hoy$/.exec(m.body!)![1]);
    expect(new Set(codes).size).toBe(3);
    expect(codes).not.toContain(link.code);
    expect(messages[0].body).toBe(`Hola Ana, mira http://localhost/s/${codes[0]} hoy`);
    const children = await h.db.selectFrom('short_links').select(['code', 'phone', 'campaign_id', 'url']).where('parent_id', '=', link.id).orderBy('phone').execute();
    expect(children).toEqual(messages.map((m, i) => ({ code: codes[i], phone: m.to_number, campaign_id: campaign.id, url: null })));
    // Launched again (here the summary, which runs the launch and rolls it back), each recipient
    // keeps their own code: the children exist, so they are read, not drawn again.
    const again = (await h.op('campaigns.preview', { token: tokens.manager, params: { id: campaign.id } })).json();
    expect(again.samples.join('\n')).toContain(`/s/${codes[0]} hoy`);
    expect(await h.db.selectFrom('short_links').select('id').where('parent_id', '=', link.id).execute()).toHaveLength(3);

    // Ana opens twice, Luis once, a previewer once; Eva never.
    for (const code of [codes[0], codes[0], codes[1]]) expect((await visit(h.app, code)).headers.location).toBe('https://tienda.example.com/oferta');
    await visit(h.app, codes[2], { 'user-agent': 'facebookexternalhit/1.1' });
    await flush();
    expect((await h.op('shortener.campaignOpens', { token: tokens.manager, params: { id: campaign.id } })).json())
      .toEqual({ campaignId: campaign.id, recipients: 3, opened: 2, clickRate: 0.667, clicks: 3, bots: 1 });
    // Who clicked, for whoever writes campaigns: most clicks first, the previewer's bot apart.
    const clickers = (await h.op('shortener.campaignClickers', { token: tokens.manager, params: { id: campaign.id } })).json();
    expect(clickers).toMatchObject({ total: 2, items: [
      { phone: messages[0].to_number, clicks: 2, firstClickAt: expect.any(String), lastClickAt: expect.any(String) },
      { phone: messages[1].to_number, clicks: 1 },
    ] });
    expect((await h.op('shortener.campaignClickers', { token: tokens.manager, params: { id: 999999 } })).json().code).toBe('99959');
    const byRecipient = (await h.op('shortener.statistics', { token: tokens.platform, query: { groupBy: 'recipient', campaignId: campaign.id } })).json();
    expect(byRecipient.items.filter((r: { clicks: number }) => r.clicks > 0)).toEqual([
      { key: messages[0].to_number, clicks: 2, unique: 1, bots: 0 },
      { key: messages[1].to_number, clicks: 1, unique: 1, bots: 0 },
    ]);
    const byCampaign = (await h.op('shortener.statistics', { token: tokens.platform, query: { groupBy: 'campaign' } })).json();
    expect(byCampaign.items).toContainEqual({ key: 'Con enlace corto', clicks: 3, unique: 2, bots: 1 });
    // The parent counts its children's clicks; deleting it ends every child's redirect.
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: link.id } })).json()).toMatchObject({ clicks: 3, unique: 2, bots: 1 });
    await h.op('shortener.delete', { token: tokens.platform, params: { id: link.id } });
    expect((await visit(h.app, codes[0])).statusCode).toBe(404);
    expect((await h.op('shortener.campaignOpens', { token: tokens.manager, params: { id: 999999 } })).json().code).toBe('99959');
  });

  it("refuses to launch with a link of ours that is not the company's", async () => {
    const channels = (await h.op('channels.list', { token: tokens.manager, query: { platform: 'sms', enabled: 'true' } })).json();
    const other = await otherCompany(h);
    const theirs = await h.db.insertInto('short_links').values({
      company_id: other.companyId, code: 'Ajeno12', url: 'https://otra.example.com/', tags: '[]', created_at: h.clock.now,
    }).returning('id').executeTakeFirstOrThrow();
    expect(Number(theirs.id)).toBeGreaterThan(0);
    for (const [name, content] of [['Ajeno', 'Mira http://localhost/s/Ajeno12'], ['Inexistente', 'Mira http://localhost/s/Nadaaaa'], ['Con consulta', 'Mira http://localhost/s/Ajeno12?x=1']]) {
      const campaign = (await h.op('campaigns.create', { token: tokens.manager, body: { name, kind: 'open', purpose: 'transactional', channelId: channels.items[0].id, content } })).json();
      const file = multipart('file', 'c.csv', 'text/csv', Buffer.from('telefono\n3001230009\n', 'utf8'));
      await h.op('campaigns.uploadRecipients', { token: tokens.manager, params: { id: campaign.id }, ...file });
      const before = await h.count('messages');
      expect((await h.op('campaigns.launch', { token: tokens.manager, params: { id: campaign.id } })).json().code, name).toBe('99925');
      expect(await h.count('messages')).toBe(before);
    }
  });
});

describe('a slow database and shutdown', () => {
  it('answers cached links while the tables are locked, 503 for a miss, and writes the queued clicks afterwards', async () => {
    const app = await buildServer({ db: h.db, now: () => h.clock.now, shortener: { lookupTimeoutMs: 300, cache: { freshMs: 1000 }, clicks: { intervalMs: 3_600_000 } } });
    const link = (await shorten({ url: 'https://example.com/lento' })).json();
    expect((await visit(app, link.code)).statusCode).toBe(302); // cached now
    await app.shortener.clicks.flush();
    h.clock.advance(5000); // stale: served, refreshed in the background
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = h.db.transaction().execute(async (trx) => {
      await sql`lock table short_links, short_link_clicks in access exclusive mode`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    for (let i = 0; i < 5; i++) expect((await visit(app, link.code)).statusCode).toBe(302);
    const miss = await visit(app, 'Unknown');
    expect(miss.statusCode).toBe(503);
    expect(miss.headers['retry-after']).toBe('5');
    const writing = app.shortener.clicks.flush();
    expect(app.shortener.clicks.size).toBe(0); // taken by the pending write
    release();
    await holder;
    await writing;
    expect(app.shortener.clicks.stats.written).toBe(6);
    await app.close();
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: link.id } })).json().clicks).toBe(6);
  });

  it('puts a failed write back and loses nothing on a clean shutdown', async () => {
    let failing = true;
    const written: number[] = [];
    const app = await buildServer({
      db: h.db, now: () => h.clock.now,
      shortener: {
        clicks: { intervalMs: 3_600_000, maxBatch: 10 },
        clickWriter: async (batch) => {
          if (failing) throw new Error('database down');
          written.push(batch.length);
        },
      },
    });
    const link = (await shorten({ url: 'https://example.com/apagado' })).json();
    for (let i = 0; i < 25; i++) expect((await visit(app, link.code)).statusCode).toBe(302);
    await app.shortener.clicks.flush();
    expect(app.shortener.clicks.size).toBe(25);
    expect(app.shortener.clicks.stats.failedWrites).toBeGreaterThanOrEqual(1);
    failing = false;
    await app.close();
    expect(written).toEqual([10, 10, 5]);
    expect(app.shortener.clicks.size).toBe(0);
  });

  it('writes the clicks of a quiet server on its own within a few ticks, and holds them while it is busy', async () => {
    const quiet = await buildServer({ db: h.db, now: () => h.clock.now, shortener: { clicks: { intervalMs: 20 } } });
    const link = (await shorten({ url: 'https://example.com/tranquilo' })).json();
    for (let i = 0; i < 3; i++) await visit(quiet, link.code);
    // The real timer and the real event-loop reading: no flush here.
    await vi.waitFor(() => expect(quiet.shortener.clicks.stats.written).toBe(3), { timeout: 10_000, interval: 20 });
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: link.id } })).json().clicks).toBe(3);
    await quiet.close();
    // A server that reads as saturated and whose writer may take none of its time holds them.
    const busy = await buildServer({ db: h.db, now: () => h.clock.now, shortener: { clicks: { intervalMs: 20, load: () => 0.95, busyShare: 0 } } });
    for (let i = 0; i < 5; i++) await visit(busy, link.code);
    await vi.waitFor(() => expect(busy.shortener.clicks.stats.busyTicks).toBeGreaterThanOrEqual(5), { timeout: 10_000, interval: 20 });
    expect(busy.shortener.clicks.stats.written).toBe(0);
    expect(busy.shortener.clicks.size).toBe(5);
    await busy.close(); // shutdown writes what is held
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: link.id } })).json().clicks).toBe(8);
  });

  it('writes to the database on close what the queue still holds', async () => {
    const app = await buildServer({ db: h.db, now: () => h.clock.now, shortener: { clicks: { intervalMs: 3_600_000 } } });
    const link = (await shorten({ url: 'https://example.com/cierre' })).json();
    for (let i = 0; i < 7; i++) await visit(app, link.code);
    expect(app.shortener.clicks.size).toBe(7);
    await app.close();
    expect((await h.op('shortener.get', { token: tokens.platform, params: { id: link.id } })).json().clicks).toBe(7);
  });
});
