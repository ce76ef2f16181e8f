import { gzipSync } from 'node:zlib';
import { startProduct, launchBrowser } from '../e2e/harness.ts';
const product = await startProduct();
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  const urls = new Set<string>();
  page.on('request', (req) => { if (req.resourceType() === 'script' || req.url().endsWith('.js')) urls.add(req.url()); });
  await page.goto(`${product.url}/signin`, { waitUntil: 'networkidle' });
  await page.getByRole('button').first().waitFor();
  let total = 0;
  const rows: [string, number][] = [];
  for (const url of urls) { const n = gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer())).length; total += n; rows.push([url.replace(/.*assets\//, ''), n]); }
  rows.sort((a, b) => b[1] - a[1]).forEach(([u, n]) => console.log((n / 1024).toFixed(1).padStart(7), u));
  console.log('total', (total / 1024).toFixed(1), rows.length);
} finally { await browser.close(); await product.stop(); }
