// Console performance in headless Debian chromium (playwright-core, tests/e2e/harness.ts):
//   console-form-200-render   time to render the runtime's 200-field schema form, against 200
//                             plain <input>s rendered on the same page (same run, same machine);
//   console-list-100k-scroll  frames dropped while scrolling the runtime's list of 100,000 rows
//                             (virtual, server-paged), against a plain non-virtualised React table
//                             of 1,000 rows scrolled the same way.
// The page (tests/bench/console-perf/) is built with Vite in production mode into a temporary
// folder and served by a small static server. Benchmarks measure; they never fail a build.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/harness.ts';

export interface PerfResult { name: string; value: number; unit: string; anchor: string; anchor_value: number; goal: string; ratio?: number; notes?: string }

const FORM_RUNS = 7;
const SCROLL_MS = 5000;
const SCROLL_PX_PER_FRAME = 240;

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };

function serve(dir: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function rendered(page: Page, url: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction(() => !!window.__perf, undefined, { timeout: 60_000 });
  return page.evaluate(() => window.__perf!.renderMs);
}

interface Scroll { frames: number; dropped: number; expected: number; interval: number; longest: number }

async function scrolled(page: Page, url: string): Promise<Scroll> {
  await rendered(page, url);
  return (await page.evaluate(([ms, px]) => window.__scroll!(ms, px), [SCROLL_MS, SCROLL_PX_PER_FRAME] as const)) as unknown as Scroll;
}

export async function consolePerfBench(record: (r: PerfResult) => void): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'colibri-console-perf-'));
  await build({
    root: resolve('tests/bench/console-perf'),
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: out, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 5000 },
  });
  const { url, server } = await serve(out);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const form: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < FORM_RUNS; i++) {
      // A new query string each time: a hash change alone would not load the page again.
      form.push(await rendered(page, `${url}/?m=form&run=${i}#form`));
      plain.push(await rendered(page, `${url}/?m=anchor&run=${i}#form-anchor`));
    }
    const f = median(form);
    const a = median(plain);
    record({
      name: 'console-form-200-render', value: Number(f.toFixed(1)), unit: 'ms', anchor: 'the same 200 fields as plain <input>s on the same page (ms)', anchor_value: Number(a.toFixed(1)),
      goal: '<= 1000 ms to a painted 200-field form on one shared core; the ratio shows the cost of the schema form over bare inputs',
      notes: `median of ${FORM_RUNS}; runs ${form.map((x) => x.toFixed(0)).join(', ')} ms`,
    });
    const list = await scrolled(page, `${url}/?m=list#list`);
    const anchor = await scrolled(page, `${url}/?m=anchor#list-anchor`);
    const pct = (d: { dropped: number; expected: number }) => (100 * d.dropped) / Math.max(1, d.expected);
    record({
      name: 'console-list-100k-scroll', value: list.dropped, unit: 'frames dropped', anchor: 'frames dropped scrolling a plain non-virtualised React table of 1,000 rows the same way', anchor_value: anchor.dropped,
      ratio: anchor.dropped ? Number((list.dropped / anchor.dropped).toFixed(3)) : list.dropped === 0 ? 1 : Number(list.dropped.toFixed(3)),
      goal: `<= 5% of frames dropped scrolling ${SCROLL_PX_PER_FRAME} px per frame for ${SCROLL_MS / 1000} s through 100,000 rows`,
      notes: `list: ${list.frames} frames, ${list.dropped} dropped (${pct(list).toFixed(1)}%), longest ${list.longest.toFixed(0)} ms; anchor: ${anchor.frames} frames, ${anchor.dropped} dropped (${pct(anchor).toFixed(1)}%), longest ${anchor.longest.toFixed(0)} ms; frame interval ${list.interval.toFixed(1)} ms`,
    });
  } finally {
    await browser.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
}
