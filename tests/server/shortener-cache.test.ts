// The redirect's link cache and click queue without a database: misses share queries, stale links
// are answered while they refresh, unknown codes are remembered briefly, a full queue counts what
// it drops instead of growing, and bot rules tell people from previewers and tools.
import { describe, expect, it } from 'vitest';
import { deviceClass, isBot } from '../../src/server/modules/shortener/redirect/bots.ts';
import { LinkCache, type CachedLink } from '../../src/server/modules/shortener/redirect/cache.ts';
import { ClickQueue, type Click, type ClickFacts } from '../../src/server/modules/shortener/redirect/clicks.ts';
import { visitorOf } from '../../src/server/modules/shortener/redirect/visitor.ts';

const link = (code: string): CachedLink => ({ linkId: code.length, rootId: 1, companyId: 1, campaignId: null, url: `https://example.com/${code}`, expiresAt: null, gone: false });

describe('LinkCache', () => {
  it('looks up the codes missed in one turn with one query, and one code once', async () => {
    const calls: string[][] = [];
    const cache = new LinkCache(async (codes) => {
      calls.push(codes);
      return new Map(codes.filter((c) => c !== 'nope').map((c) => [c, link(c)]));
    });
    const codes = Array.from({ length: 20 }, (_, i) => `c${i}`);
    const answers = await Promise.all([...codes, 'c0', 'c0', 'nope'].map((c) => cache.resolve(c)));
    expect(calls).toEqual([[...codes, 'nope']]);
    expect(answers.slice(0, 20).map((a) => a?.url)).toEqual(codes.map((c) => `https://example.com/${c}`));
    expect(answers.at(-1)).toBeNull();
    // Cached now: peek answers without a query.
    expect(cache.peek('c5')?.url).toBe('https://example.com/c5');
    expect(cache.peek('nope')).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('answers a stale link at once and refreshes it in the background; a failed refresh keeps it', async () => {
    let now = 0;
    let target = 'https://example.com/old';
    let failing = false;
    let queries = 0;
    const cache = new LinkCache(async (codes) => {
      queries++;
      if (failing) throw new Error('database down');
      return new Map(codes.map((c) => [c, { ...link(c), url: target }]));
    }, { freshMs: 1000, now: () => now });
    expect((await cache.resolve('a'))?.url).toBe('https://example.com/old');
    target = 'https://example.com/new';
    now = 500;
    expect(cache.peek('a')?.url).toBe('https://example.com/old'); // fresh: no query
    expect(queries).toBe(1);
    now = 2000;
    expect(cache.peek('a')?.url).toBe('https://example.com/old'); // stale: answered, refreshed
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(cache.peek('a')?.url).toBe('https://example.com/new');
    failing = true;
    now = 5000;
    expect(cache.peek('a')?.url).toBe('https://example.com/new');
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(cache.peek('a')?.url).toBe('https://example.com/new');
    expect(cache.stats.refreshFailures).toBe(1);
  });

  it('forgets unknown codes after negativeMs, marks a deleted link and its children gone, and stays bounded', async () => {
    let now = 0;
    let known = false;
    const cache = new LinkCache(async (codes) => new Map(known ? codes.map((c) => [c, link(c)]) : []), { negativeMs: 100, max: 3, now: () => now });
    expect(await cache.resolve('alias')).toBeNull();
    known = true;
    expect(cache.peek('alias')).toBeNull();
    now = 200;
    expect(cache.peek('alias')).toBeUndefined();
    expect((await cache.resolve('alias'))?.gone).toBe(false);
    cache.markGone(1);
    expect(cache.peek('alias')?.gone).toBe(true);
    for (const c of ['b', 'c', 'd']) await cache.resolve(c);
    expect(cache.size).toBe(3);
    expect(cache.peek('alias')).toBeUndefined();
  });
});

describe('ClickQueue', () => {
  const click = (n: number): ClickFacts => ({ linkId: n, rootId: n, companyId: 1, campaignId: null, at: 0, device: 'mobile', ip: '181.49.2.17', userAgent: 'Mozilla/5.0', referer: null });

  it('counts what it drops when full instead of growing, and writes batches in order', async () => {
    const written: number[][] = [];
    const queue = new ClickQueue(async (batch) => {
      written.push(batch.clicks().map((c) => c.linkId));
    }, { maxQueued: 5, maxBatch: 2, intervalMs: 3_600_000 });
    for (let i = 1; i <= 8; i++) queue.push(click(i));
    expect(queue.size).toBe(5);
    expect(queue.stats.dropped).toBe(3);
    await queue.close();
    expect(written).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('writes the visitor digest and the referrer host worked out from what the redirect kept, long headers too', async () => {
    const rows: Click[] = [];
    const queue = new ClickQueue(async (batch) => {
      rows.push(...batch.clicks());
    }, { intervalMs: 3_600_000 });
    const longAgent = `Mozilla/5.0 ${'x'.repeat(600)}`;
    const longReferer = `https://www.facebook.com/${'p'.repeat(600)}`;
    queue.push({ ...click(1), referer: 'https://www.facebook.com/some/post', device: 'bot' });
    queue.push({ ...click(2), ip: '181.49.2.99' }); // the same /24: the same visitor
    queue.push({ ...click(3), ip: '2800:e2:1:2::7', userAgent: longAgent, referer: longReferer, campaignId: 9, at: 1_700_000_000_000 });
    queue.push({ ...click(4), referer: 'not a url' });
    await queue.flush();
    expect(rows.map((r) => [r.linkId, r.visitor, r.referrer, r.bot, r.campaignId])).toEqual([
      [1, visitorOf('181.49.2.17', 'Mozilla/5.0'), 'facebook.com', true, null],
      [2, visitorOf('181.49.2.17', 'Mozilla/5.0'), null, false, null],
      [3, visitorOf('2800:e2:1:2::7', longAgent), 'facebook.com', false, 9],
      [4, visitorOf('181.49.2.17', 'Mozilla/5.0'), null, false, null],
    ]);
    expect(rows[2].at.toISOString()).toBe('2023-11-14T22:13:20.000Z');
    expect(visitorOf('181.49.2.17', 'Mozilla/5.0')).not.toBe(visitorOf('181.49.3.17', 'Mozilla/5.0'));
  });

  // The pacing rules with a clock and a load reading of the test's own: a write costs msPerRow on
  // the clock (PGlite takes about 0.012 ms a row), the timer never fires by itself.
  const paced = (options: { load: number; maxDelayMs?: number; maxQueued?: number; msPerRow?: number }) => {
    let now = 0;
    let load = options.load;
    const batches: number[][] = [];
    const queue = new ClickQueue(async (batch) => {
      batches.push(batch.clicks().map((c) => c.linkId));
      now += batch.length * (options.msPerRow ?? 0.01);
    }, { intervalMs: 3_600_000, clock: () => now, load: () => load, maxDelayMs: options.maxDelayMs, maxQueued: options.maxQueued });
    return {
      queue, batches,
      written: () => batches.flat().length,
      advance: (ms: number) => { now += ms; },
      setLoad: (value: number) => { load = value; },
    };
  };

  it('writes everything held within a tick or two when the server is quiet, oldest first', async () => {
    const q = paced({ load: 0.1 });
    for (let i = 1; i <= 2500; i++) q.queue.push(click(i));
    q.advance(100);
    await q.queue.tick();
    expect(q.written()).toBe(2500);
    expect(q.batches.map((b) => b.length)).toEqual([1000, 1000, 500]);
    expect(q.batches.flat()).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(q.queue.size).toBe(0);
  });

  it('takes at most its share of a busy server\'s time and holds the rest until the load passes', async () => {
    const q = paced({ load: 0.95, msPerRow: 0.1 });
    for (let i = 1; i <= 20_000; i++) q.queue.push(click(i));
    for (let t = 0; t < 50; t++) { // five seconds of a saturated server
      q.advance(100);
      await q.queue.tick();
    }
    // 3 % of 5 s = 150 ms of writing at 0.1 ms a row: 1,500 rows, plus at most one batch over.
    expect(q.written()).toBeGreaterThanOrEqual(1250);
    expect(q.written()).toBeLessThanOrEqual(1750);
    expect(q.batches.every((b) => b.length <= 250)).toBe(true);
    expect(q.queue.size).toBe(20_000 - q.written());
    expect(q.queue.stats.quietTicks).toBe(0);
    q.setLoad(0.05); // the load passes: a reading without a write says so within two ticks
    for (let t = 0; t < 2; t++) {
      q.advance(100);
      await q.queue.tick();
    }
    expect(q.queue.stats.quietTicks).toBeGreaterThanOrEqual(1);
    for (let t = 0; t < 200 && q.queue.size; t++) {
      q.advance(100);
      await q.queue.tick();
    }
    expect(q.queue.size).toBe(0);
    expect(q.queue.stats.busyTicks).toBeGreaterThanOrEqual(50);
  });

  it('writes held clicks whatever the load once they are overdue or the queue is half full', async () => {
    const late = paced({ load: 0.95, maxDelayMs: 1000 });
    for (let i = 1; i <= 3000; i++) late.queue.push(click(i));
    late.advance(100);
    await late.queue.tick();
    const whileFresh = late.written();
    expect(whileFresh).toBeLessThan(3000);
    late.advance(1000);
    await late.queue.tick();
    expect(late.written()).toBe(3000); // overdue: a slice of 50 ms holds all of them at 0.01 ms a row
    const full = paced({ load: 0.95, maxQueued: 4000 });
    for (let i = 1; i <= 2500; i++) full.queue.push(click(i));
    full.advance(100);
    await full.queue.tick();
    expect(full.written()).toBe(2500);
  });
});

describe('bot rules', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 'desktop'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'desktop'],
    ['WhatsApp/2.23.20.0 A', 'bot'],
    ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'bot'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0', 'bot'],
    ['TelegramBot (like TwitterBot)', 'bot'],
    ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'bot'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'bot'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0 Safari/537.36', 'bot'],
    ['curl/8.5.0', 'bot'],
    ['python-requests/2.32.3', 'bot'],
    ['Go-http-client/1.1', 'bot'],
    ['okhttp/4.12.0', 'bot'],
    ['', 'bot'],
    ['Opera/9.80 (J2ME/MIDP; Opera Mini/9.80', 'mobile'],
    ['SomethingNew/1.0 (unknown platform)', 'unknown'],
  ])('%s → %s', (ua, want) => {
    expect(deviceClass(ua)).toBe(want);
    expect(isBot(ua)).toBe(want === 'bot');
  });
});
