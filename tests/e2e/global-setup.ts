// The browser suite's global setup: one start of the product migrates and seeds a DATA_DIR that
// every test file's product copies (a start from a copy skips the migrations and the demo seed),
// and one Chromium serves every file's browser contexts. Both are removed at the end of the run.
import { rmSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { BROWSER_ENDPOINT_ENV, chromiumOptions, DATA_TEMPLATE_ENV, startProduct } from './harness.ts';

export default async function setup(): Promise<() => Promise<void>> {
  const seeded = await startProduct({ fresh: true });
  await seeded.stop({ keepData: true });
  const browser = await chromium.launchServer(chromiumOptions);
  process.env[DATA_TEMPLATE_ENV] = seeded.dataDir;
  process.env[BROWSER_ENDPOINT_ENV] = browser.wsEndpoint();
  return async () => {
    await browser.close();
    rmSync(seeded.dataDir, { recursive: true, force: true });
  };
}
