// Steps several browser tests take the same way: a demo user signed in on a new page, the API
// called beside the screen, the first step of the campaign wizard, a campaign launched until its
// messages are delivered, a detail field's value, a scratch folder for the files a test uploads,
// and axe-core's serious and critical findings on a page.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { choose, newPage, signIn, type Product } from './harness.ts';

/** A new page on which demo user `email` has signed in and landed on the home (/User). */
export async function signedInPage(e2e: { readonly product: Product; readonly browser: Browser }, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(e2e.browser, e2e.product);
  await signIn(page, email, { lands: '**/User' });
  return { context, page };
}

/** Calls the product's API as `token`: a body as JSON, or a form as it is (an upload); any answer but 200 throws with its body. */
export async function api(product: Product, token: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const form = body instanceof FormData;
  const res = await fetch(`${product.url}${path}`, {
    method,
    headers: { 'X-Auth-Token': token, ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The id of the demo's SMS channel "SMS Notificaciones". */
export async function notificationsChannel(product: Product, token: string): Promise<number> {
  const channels = (await api(product, token, 'GET', '/v1/channels?platform=sms&pageSize=200')) as { items: { id: number; name: string }[] };
  return channels.items.find((c) => c.name === 'SMS Notificaciones')!.id;
}

/**
 * A transactional campaign on "SMS Notificaciones" (transactional: nothing waits for the send
 * window, whatever the time of day) with the recipients of `csv`, launched; answers once every
 * recipient's message is DELIVERED (the sandbox SMSC's receipts) and the run is processed.
 */
export async function launchUntilDelivered(product: Product, token: string, campaign: { name: string; content: string }, csv: string, recipients: number) {
  const created = await api(product, token, 'POST', '/v1/campaigns', { ...campaign, kind: 'open', purpose: 'transactional', channelId: await notificationsChannel(product, token) });
  const file = new FormData();
  file.append('file', new Blob([csv], { type: 'text/csv' }), 'clientes.csv');
  await api(product, token, 'POST', `/v1/campaigns/${created.id}/recipients`, file);
  const run = await api(product, token, 'POST', `/v1/campaigns/${created.id}/launch`);
  await expect.poll(async () => {
    const d = await api(product, token, 'GET', `/v1/deployments/${run.id}`);
    return `${d.state} ${(d.counts as Record<string, number>).delivered}`;
  }, { timeout: 60_000, interval: 500 }).toBe(`completed ${recipients}`);
  return { campaign: created, run };
}

/** The campaign wizard's first step filled: name, kind (when not the default, open), transactional purpose and "SMS Notificaciones". */
export async function campaignFirstStep(page: Page, name: string, kind?: 'Programada' | 'Recurrente'): Promise<void> {
  await page.goto('/Campaigns/campaigns/new');
  await page.getByLabel(/^Nombre/).fill(name);
  if (kind) await choose(page, /^Tipo/, kind);
  await choose(page, /^Propósito/, 'Transaccional');
  await choose(page, /^Canal/, 'SMS Notificaciones');
}

/** The value a detail field (or a result box's field) shows. */
export const field = (scope: ReturnType<Page['locator']>, name: string) => scope.locator(`dd[data-field="${name}"]`);

/** A folder for the files the test file writes to upload: made before its tests, removed after them. */
export function scratchFolder(prefix: string): { readonly path: string } {
  let path: string | undefined;
  beforeAll(() => { path = mkdtempSync(join(tmpdir(), prefix)); });
  afterAll(() => { if (path) rmSync(path, { recursive: true, force: true }); });
  return {
    get path() {
      if (!path) throw new Error('the scratch folder is made before the tests start');
      return path;
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page, each with the elements it names (none: []). */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: { html: string }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${JSON.stringify(v.nodes.map((n) => n.html.slice(0, 160)))}`);
  });
}
