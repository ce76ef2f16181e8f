// Browser-suite harness: the real product as `npm start` runs it (built console + API on one
// port, embedded PGlite in a DATA_DIR of its own, sandbox providers, demo company) and Debian's
// chromium driven by playwright-core. Readiness is the server's own "listening" line, not a sleep.
//
// In the suite (tests/e2e/global-setup.ts) every file's product starts from a copy of one DATA_DIR
// that a first start migrated and seeded, and every file opens its contexts in one shared
// Chromium; a file still gets a product of its own, so what one file changes no other file sees.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { chromium, type Browser, type Download, type Page, type BrowserContext } from 'playwright-core';
import { NODE_FLAGS } from '../node-flags.ts';

export const DEMO_PASSWORD = 'Demo-Colibri-2026!';

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

/** Set by the suite's global setup: the seeded DATA_DIR to copy, and the shared Chromium's address. */
export const DATA_TEMPLATE_ENV = 'COLIBRI_E2E_DATA_TEMPLATE';
export const BROWSER_ENDPOINT_ENV = 'COLIBRI_E2E_BROWSER';

export interface Product {
  url: string;
  /** Ends the process (SIGTERM: PGlite closes cleanly) and removes its DATA_DIR unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  output(): string;
  /** Its DATA_DIR (the demo's FTP drop box is its ftp/ folder). */
  dataDir: string;
}

/**
 * Starts the product on a free port. Its DATA_DIR is a copy of the suite's seeded one when there is
 * one (`fresh` asks for an empty DATA_DIR: migrations and the demo seed run in this start).
 */
export async function startProduct(options: { pinCore?: number; root?: string; env?: Record<string, string>; fresh?: boolean } = {}): Promise<Product> {
  const root = resolve(options.root ?? '.');
  if (!existsSync(join(root, 'dist/console/index.html'))) throw new Error('dist/console is missing: run `npm run build` first');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'colibri-e2e-'));
  const template = options.fresh ? undefined : process.env[DATA_TEMPLATE_ENV];
  if (template) cpSync(template, dataDir, { recursive: true });
  // Abuse throttling: limits the suite's quick sign-ins from one address never meet, unless a test
  // asks for the real ones (tests/e2e/security-headers.test.ts passes '' for the defaults).
  const generous = { THROTTLE_GLOBAL: '100000/60', THROTTLE_SIGNIN: '100000/100000/60', THROTTLE_REGISTER: '100000/100000/60', THROTTLE_RECOVERY: '100000/100000/60', THROTTLE_OTP: '100000/100000/60' };
  const env = { ...process.env, ...generous, ...options.env, PORT: String(port), DATA_DIR: dataDir, DEMO_PASSWORD, DATABASE_URL: '', REDIS_URL: '' };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  const command = [process.execPath, ...NODE_FLAGS, '--import', 'tsx', 'src/server/main.ts'];
  // Benchmarks pin the server to one core with taskset (util-linux).
  if (options.pinCore !== undefined) command.unshift('taskset', '-c', String(options.pinCore));
  const child: ChildProcess = spawn(command[0], command.slice(1), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((ok, fail) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes(`:${port}`)) ok();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('exit', (code) => fail(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
  // The listening line comes after migrations and the demo seed; /health confirms it serves.
  const health = await fetch(`${url}/health`);
  if (health.status !== 200) throw new Error(`health answered ${health.status}`);
  return {
    url,
    dataDir,
    output: () => out,
    async stop(options = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((ok) => child.once('exit', ok));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's chromium, headless, reaching nothing but this machine. */
export const chromiumOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  ],
};

/**
 * A browser: a connection to the suite's shared Chromium when there is one (closing it closes the
 * contexts this file opened), else a Chromium of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = process.env[BROWSER_ENDPOINT_ENV];
  return shared ? chromium.connect(shared) : chromium.launch(chromiumOptions);
}

/**
 * A download's bytes. Read through its stream: the suite's browser is a shared Chromium reached
 * over a connection, where `download.path()` does not exist on this side.
 */
export async function downloaded(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

// Reduced motion, as a user may ask in their system settings: without transitions a menu group
// does not slide the entries under a press (a slow machine saw a click land on the entry above).
export async function newPage(browser: Browser, product: Product): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: product.url, locale: 'es-CO', viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  return { context, page };
}

/** A platform user's session token: the sandbox outbox answers platform staff only (auth/sandbox-door.ts). */
const outboxReaders = new WeakMap<Product, Promise<string>>();
function outboxReader(product: Product): Promise<string> {
  let token = outboxReaders.get(product);
  if (!token) {
    token = (async () => {
      const res = await fetch(`${product.url}/v1/clientAuth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'platform@demo.colibri.co', password: DEMO_PASSWORD }) });
      if (res.status !== 200) throw new Error(`platform sign-in answered ${res.status}: ${await res.text()}`);
      const { clientToken } = (await res.json()) as { clientToken: string };
      return (JSON.parse(Buffer.from(clientToken, 'base64').toString()) as { token: string }).token;
    })();
    outboxReaders.set(product, token);
  }
  return token;
}

/** The newest OTP code the sandbox e-mail provider sent to an address. */
export async function latestCode(product: Product, to: string): Promise<string> {
  const res = await fetch(`${product.url}/v1/sandbox/outbox?to=${encodeURIComponent(to)}`, { headers: { 'x-auth-token': await outboxReader(product) } });
  const rows = (await res.json()) as { body: string; createdAt: string; id: number }[];
  const newest = rows.sort((a, b) => b.id - a.id)[0];
  const code = newest?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code sent to ${to}: ${JSON.stringify(rows)}`);
  return code;
}

/**
 * Signs in through the form as a user does; waits until the address says where the user landed
 * (`lands`: a URL glob, or by default any page but the sign-in).
 */
export async function signIn(page: Page, email: string, options: { password?: string; lands?: string } = {}): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel(/^Correo corporativo/).fill(email);
  await page.getByLabel(/^Contraseña/).fill(options.password ?? DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  if (options.lands) await page.waitForURL(options.lands);
  else await page.waitForURL((url) => url.pathname !== '/signin');
}

/** Picks an option of a combobox (an options widget or a select) by its exact text. */
export async function choose(page: Page, label: RegExp, option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The signed-in user's session token, as the console keeps it (to ask the API what the screen shows). */
export function sessionToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const raw = Object.entries(localStorage).find(([k]) => /token/i.test(k))?.[1] ?? '';
    return (JSON.parse(atob(raw)) as { token: string }).token;
  });
}

/**
 * The product and a browser for one test file: started before its tests, stopped after them. Read
 * `.product` and `.browser` inside hooks and tests (they exist once the file's tests run).
 */
export function productAndBrowser(options: Parameters<typeof startProduct>[0] = {}): { readonly product: Product; readonly browser: Browser } {
  let product: Product | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    product = await startProduct(options);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });
  return {
    get product() { return product!; },
    get browser() { return browser!; },
  };
}
